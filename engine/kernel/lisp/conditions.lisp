;;;; Messages and backtraces for conditions. ECL leaves many conditions without a report
;;;; (a DIVISION-BY-ZERO prints as #<a DIVISION-BY-ZERO 0x...>), so the message is built
;;;; from the condition's slots where that happens.

(in-package "LISP-DUET.KERNEL")

(defmacro with-brief-printing (&body body)
  `(let ((*print-length* 10) (*print-level* 4) (*print-circle* t) (*print-pretty* nil)
         (*print-readably* nil) (*print-base* 10) (*print-radix* nil) (*print-escape* t))
     ,@body))

(defun brief (object)
  (with-brief-printing
    (handler-case (print-limited (lambda (s) (prin1 object s)) 300)
      (serious-condition () "#<unprintable object>"))))

(defun condition-type-name (condition)
  (let ((name (class-name (class-of condition)))
        (*package* (find-package "KEYWORD")))
    ;; CL symbols print bare; others keep their package so that SI::SIMPLE-READER-ERROR
    ;; is not mistaken for a user's symbol.
    (if (eq (symbol-package name) (find-package "CL"))
        (symbol-name name)
        (let ((*package* (find-package "CL-USER"))) (prin1-to-string name)))))

(defun one-line (text)
  (string-trim " " (with-output-to-string (out)
                     (let ((space nil))
                       (loop for ch across text
                             do (if (member ch '(#\Newline #\Space #\Tab #\Return))
                                    (setf space t)
                                    (progn (when space (write-char #\Space out))
                                           (setf space nil)
                                           (write-char ch out))))))))

(defun ecl-report (condition)
  (let ((text (handler-case (with-brief-printing (princ-to-string condition))
                (serious-condition () nil))))
    (unless (or (null text) (zerop (length text)) (char= (char text 0) #\#))
      text)))

(defun built-in-type-error-p (condition)
  "ECL's built-ins report \"In function CAR, the value of the only argument is...\", with
the function's name first among the format arguments (CHECK-TYPE's first one is a place)."
  (and (typep condition 'simple-condition)
       (eql 0 (search "In " (princ-to-string (simple-condition-format-control condition))))))

(defun type-error-context (condition)
  "ECL's type errors say which function and argument; keep that part."
  (when (built-in-type-error-p condition)
    (let ((arguments (simple-condition-format-arguments condition)))
      (when (and (consp arguments) (symbolp (first arguments)) (first arguments))
        (let ((report (ecl-report condition)))
          (when report
            (let* ((flat (one-line report))
                   (cut (search ", the value of" flat))
                   (is (search " is " flat :start2 (or cut 0))))
              (when (and cut is)
                (format nil "~A, ~A." (subseq flat 0 cut) (subseq flat (+ cut 2) is))))))))))

(defun self-reported-type-error-p (condition)
  (and (typep condition 'simple-condition)
       (let ((control (princ-to-string (simple-condition-format-control condition))))
         (or (eql 0 (search "The assertion " control)) (eql 0 (search "The value of " control))))
       (ecl-report condition)
       t))

(defun condition-message (condition)
  (with-brief-printing
    (typecase condition
      (arithmetic-error
       (let ((operation (ignore-errors (arithmetic-error-operation condition)))
             (operands (ignore-errors (arithmetic-error-operands condition))))
         (or (ecl-report condition)
             (format nil "arithmetic error ~A signalled~@[~%Operation was ~A.~]"
                     (condition-type-name condition)
                     (and operation (brief (cons operation operands)))))))
      ;; ECL's ASSERT and CHECK-TYPE say it better themselves ("The assertion (> N 1)
      ;; failed" is a SIMPLE-TYPE-ERROR of expected type NIL).
      ((and type-error (satisfies self-reported-type-error-p))
       (ecl-report condition))
      (type-error
       (let ((context (type-error-context condition)))
         (format nil "The value ~A is not of type ~A.~@[~%~A~]"
                 (brief (type-error-datum condition))
                 (brief (type-error-expected-type condition))
                 context)))
      (undefined-function
       (format nil "The function ~A is undefined." (brief (cell-error-name condition))))
      (unbound-variable
       (format nil "The variable ~A is unbound." (brief (cell-error-name condition))))
      (end-of-file
       (or (ecl-report condition) "Unexpected end of input."))
      (t
       (or (ecl-report condition)
           (format nil "A condition of type ~A was signalled."
                   (condition-type-name condition)))))))

(defun warning-text (condition)
  (format nil "~A: ~A" (condition-type-name condition) (one-line (condition-message condition))))

;;; Backtraces come from ECL's interpreter history stack (IHS). Bytecoded functions keep
;;; their lexical environment there, so the arguments can be shown. Natively compiled ones
;;; are there only when compiled at (debug 3) (the project's systems: systems.lisp), with
;;; their variables' values; at ECL's default policy they leave no frame at all.

(defun frame-function-name (function)
  (cond ((symbolp function) function)
        ((functionp function) (ignore-errors (si::compiled-function-name function)))))

(defun kernel-frame-p (name)
  (or (null name)
      (eq name 'si::bytecodes)
      (and (symbolp name)
           (member (symbol-package name)
                   (list (find-package "LISP-DUET.KERNEL") (find-package "GRAY"))))))

(defun frame-arguments (name environment)
  (let ((lambda-list (ignore-errors (ext:function-lambda-list name)))
        (result '())
        (mode :required))
    (if (not (listp environment))
        :unknown
        (dolist (item lambda-list (nreverse result))
          (if (member item lambda-list-keywords)
              (setf mode item)
              (let* ((variable (if (consp item)
                                   (if (consp (first item)) (second (first item)) (first item))
                                   item))
                     ;; Not ASSOC: a frame's environment also holds local functions (a
                     ;; method's NEXT-METHOD-P), which are not conses.
                     (cell (find-if (lambda (record) (and (consp record) (eq (car record) variable)))
                                    environment)))
                (when cell
                  (case mode
                    ((:required &optional) (push (cdr cell) result))
                    (&rest (dolist (x (cdr cell)) (push x result)))
                    (&key (push (intern (symbol-name variable) "KEYWORD") result)
                          (push (cdr cell) result))))))))))

(defun bytecoded-p (function)
  ;; SI::BC-SPLIT returns (values lexenv code data name); CODE is there only for bytecodes.
  (and (functionp function)
       (ignore-errors (nth-value 1 (si::bc-split function)))
       t))

(defun frame-variables-kind (function environment)
  "How a frame keeps its variables: :BYTECODED (the bindings themselves), :COMPILED (a frame
compiled at (debug 3): ECL's record of their values) or NIL (none)."
  (cond ((bytecoded-p function) :bytecoded)
        ((and environment (not (listp environment))) :compiled)))

(defun format-frame (name function environment)
  ;; Natively compiled functions keep no environment in the IHS unless compiled at (debug 3):
  ;; otherwise their arguments are unknown.
  (let ((arguments (case (frame-variables-kind function environment)
                     (:bytecoded (frame-arguments name environment))
                     (:compiled (frame-arguments name (frame-variable-records environment)))
                     (t :unknown))))
    (if (eq arguments :unknown)
        (format nil "(~A ...)" (brief name))
        (brief (cons name arguments)))))

(defun condition-origin-frame (condition)
  "Errors signalled inside ECL's compiled built-ins leave no frame of their own: rebuild
the call from the condition where it says what it was."
  (typecase condition
    ;; The call never started, so no frame holds it; its arguments are gone too.
    (undefined-function
     (let ((name (ignore-errors (cell-error-name condition))))
       (when name (format nil "(~A ...)" (brief name)))))
    (arithmetic-error
     (let ((operation (ignore-errors (arithmetic-error-operation condition))))
       (when operation
         (brief (cons operation (ignore-errors (arithmetic-error-operands condition)))))))
    (type-error
     (let ((arguments (and (built-in-type-error-p condition)
                           (simple-condition-format-arguments condition))))
       (when (and (consp arguments) (symbolp (first arguments)) (first arguments))
         (let ((control (simple-condition-format-control condition)))
           (if (and (stringp control) (search "only argument" control))
               (brief (list (first arguments) (type-error-datum condition)))
               (format nil "(~A ...)" (brief (first arguments))))))))))

(defvar *top-level-form* nil
  "The top-level form an eval job evaluates now (evaluate.lisp): the debugger shows its frame.")

(defun top-level-frame-index (base)
  "The IHS index of the frame of the evaluated top-level form itself (the outermost
SI:BYTECODES frame above BASE: EVAL made it), or NIL."
  (and *top-level-form*
       (loop for index from (1+ base) to (si::ihs-top)
             when (eq (frame-function-name (si::ihs-fun index)) 'si::bytecodes)
               return index)))

(defun backtrace-frames (condition base &key (limit 20) top-level)
  "Frames of the user's code between the signal and the evaluator at IHS index BASE, the
innermost first, each (TEXT FUNCTION ENVIRONMENT): FUNCTION is NIL for a call rebuilt from
the condition (a built-in's call, which keeps no frame), ENVIRONMENT the IHS's lexical
environment (bytecoded functions only). With TOP-LEVEL (the debugger's frames), the
evaluated top-level form's own frame comes last, shown as the form, when it binds variables
(plain ECL's SLDB shows it; an error reply's backtrace leaves it out: it is the code sent)."
  (let ((frames '())
        (origin (condition-origin-frame condition))
        (form-frame (and top-level (top-level-frame-index base))))
    (when origin (push (list origin nil nil) frames))
    (loop for index from (si::ihs-top) above base
          while (< (length frames) limit)
          do (let* ((function (si::ihs-fun index))
                    (name (frame-function-name function)))
               (cond ((eql index form-frame)
                      ;; Only when it binds variables: else it is the call below it again.
                      (let ((environment (ignore-errors (si::ihs-env index))))
                        (when (frame-variable-records environment)
                          (push (list (brief *top-level-form*) function environment) frames))))
                     ((or (kernel-frame-p name)
                          ;; the rebuilt call already stands for the built-in's own frame
                          (and origin (null (cdr frames))
                               (eql 0 (search (format nil "(~A " (brief name)) origin)))))
                     (t
                      (let ((environment (ignore-errors (si::ihs-env index))))
                        (push (list (format-frame name function environment) function environment)
                              frames))))))
    (nreverse frames)))

(defun numbered-frames (frames)
  (loop for (text) in frames
        for i from 0
        collect (format nil "~D: ~A" i text)))

(defun capture-backtrace (condition base &optional (limit 20))
  "The backtrace of an error reply: BACKTRACE-FRAMES' texts, numbered from 0."
  (numbered-frames (backtrace-frames condition base :limit limit)))

;;; Reader errors name ECL's string stream ("#<string-input stream from ...>"); say where in
;;; the user's code the unreadable form starts instead.

(defun line-and-column (text position)
  (let ((line 1) (column 1))
    (loop for i below (min position (length text))
          do (if (char= (char text i) #\Newline)
                 (setf line (1+ line) column 1)
                 (incf column)))
    (values line column)))

(defun read-error-message (condition code form-start)
  (let ((start (or (position-if-not (lambda (ch) (member ch '(#\Space #\Tab #\Newline #\Return)))
                                    code :start (min form-start (length code)))
                   form-start)))
    (multiple-value-bind (line column) (line-and-column code start)
      (if (typep condition 'end-of-file)
          (format nil "The code ends before the form that starts at line ~D, column ~D is complete: ~
                       a parenthesis, string or #| comment is not closed."
                  line column)
          (let* ((report (or (ecl-report condition) (condition-message condition)))
                 (cut (and (search "Reader error in file" report) (search (format nil ":~%") report))))
            (format nil "~A~%(reading the form that starts at line ~D, column ~D)"
                    (if cut (subseq report (+ cut 2)) report) line column))))))

;;;; compile-form: what ECL's compiler (and our own checks) say about code, without running
;;;; it; and macroexpand. The code is compiled with COMPILE-FILE from a temporary file inside
;;;; one compilation unit, so nothing is defined; but macros in it are expanded (that runs
;;;; their code), EVAL-WHEN (:COMPILE-TOPLEVEL) forms run, DEFMACRO and DEFPACKAGE take effect
;;;; at compile time as in any COMPILE-FILE, and #. runs at read time.

(in-package "LISP-DUET.KERNEL")

(defvar *compile-counter* 0)

(defun read-forms-with-positions (code)
  "(values forms starts) of the forms in CODE, read in the session package."
  (let ((forms '()) (starts '()))
    (with-input-from-string (in code)
      (check-nesting code in) ; ECL's reader overflows the C stack on very deep nesting
      (loop
        (let ((start (progn (peek-char t in nil nil) (file-position in)))
              (form (read in nil in)))
          (when (eq form in) (return))
          (push form forms)
          (push start starts))))
    (values (nreverse forms) (nreverse starts))))

(defun compiler-class (name)
  "A condition class of ECL's compiler (package C), which exists only once CMP is loaded."
  (or (find-symbol name "C") 'nil))

(defun line-of (code position)
  (1+ (count #\Newline code :end (min position (length code)))))

(defun compiler-severity (condition)
  (let ((name (symbol-name (class-name (class-of condition)))))
    (cond ((typep condition (compiler-class "COMPILER-ERROR")) "error")
          ((typep condition 'style-warning) "style-warning")
          ((typep condition 'warning) "warning")
          ((search "NOTE" name) "note")
          ((typep condition 'error) "error")
          (t "note"))))

(defun compiler-message-text (condition)
  "The message without ECL's \"in file F, position N / at (DEFUN ...)\" preamble."
  (let* ((text (handler-case
                   (if (typep condition 'simple-condition)
                       (apply #'format nil (simple-condition-format-control condition)
                              (simple-condition-format-arguments condition))
                       (princ-to-string condition))
                 (serious-condition () (condition-message condition)))))
    (one-line (string-left-trim "!* " (string-trim '(#\Space #\Newline) text)))))

(defun form-index-at (starts position)
  "ECL gives the file position where reading of the top-level form began: the end of the
previous form, before the whitespace that leads to this one."
  (when (and position starts)
    (or (position-if (lambda (s) (>= s position)) starts)
        (1- (length starts)))))

(defun compile-code (request)
  (let ((code (or (getf request :code) ""))
        (diagnostics '())
        (compiled nil)
        (forms nil) (starts nil))
    (run-job
     request
     (lambda ()
       (handler-case (multiple-value-setq (forms starts) (read-forms-with-positions code))
         (serious-condition (c)
           (return-from compile-code
             (ok-reply request "compiled" :false "forms" nil
                       "diagnostics" (list (obj "severity" "error" "form" :null "line" :null
                                                "source" "reader"
                                                "message" (if (typep c 'end-of-file)
                                                              "END-OF-FILE: the code ends inside a form (a list or string is not closed); check-parens shows where."
                                                              (format nil "~A: ~A" (condition-type-name c)
                                                                      (one-line (condition-message c))))))))))
       ;; Our own checks first: they never run anything.
       (loop for form in forms for i from 0
             do (dolist (note (lint-forms (list form) :check-calls t :context forms))
                  (let ((colon (position #\: note)))
                    (push (obj "severity" (if (eql 0 (search "STYLE" note)) "style-warning" "warning")
                               "form" i "line" (line-of code (nth i starts)) "source" "lisp-duet"
                               "message" (string-trim " " (subseq note (1+ colon))))
                          diagnostics))))
       (unless (find-package "C") (error "ECL's compiler package is missing."))
       (let ((*standard-output* (make-broadcast-stream)))
         (require-native-compiler))
       (let* ((base (format nil "/tmp/lisp-duet-compile-~D-~D" (%process-id) (incf *compile-counter*)))
              (source (concatenate 'string base ".lisp"))
              (output (concatenate 'string base ".fas"))
              (macros-before (loop for f in forms
                                   when (and (consp f) (eq (first f) 'defmacro) (symbolp (second f)))
                                     collect (cons (second f) (macro-function (second f))))))
         (unwind-protect
              (progn
                (with-open-file (s source :direction :output :if-exists :supersede
                                          :external-format :utf-8)
                  (write-string code s))
                (let ((*standard-output* (make-broadcast-stream))
                      (*error-output* (make-broadcast-stream))
                      (*compile-verbose* nil) (*compile-print* nil))
                  (handler-bind ((condition
                                   (lambda (c)
                                     ;; Debug notes ("Replacing variable X by its value") are noise.
                                     (when (and (or (typep c (compiler-class "COMPILER-MESSAGE")) (typep c 'warning))
                                                (not (typep c (compiler-class "COMPILER-DEBUG-NOTE"))))
                                       (let ((text (compiler-message-text c)))
                                         (unless (search "Invoking external command" text)
                                           (let ((index (form-index-at starts (ignore-errors (slot-value c 'position)))))
                                             (pushnew (obj "severity" (compiler-severity c)
                                                        "form" (or index :null)
                                                        "line" (if index (line-of code (nth index starts)) :null)
                                                        "source" "ecl-compiler"
                                                        "message" text)
                                                   diagnostics :test #'equal))))
                                       (let ((r (or (find-restart 'muffle-warning c)
                                                    (find-restart 'continue c))))
                                         (when (and r (not (typep c (compiler-class "COMPILER-ERROR"))))
                                           (invoke-restart r)))))))
                    (with-compilation-unit ()
                      (multiple-value-bind (fasl warnings-p failure-p)
                          (compile-file source :output-file output :external-format :utf-8)
                        (declare (ignore warnings-p))
                        (setf compiled (and fasl (not failure-p))))))))
           ;; COMPILE-FILE defines macros at compile time; put back what was there.
           (dolist (m macros-before)
             (if (cdr m)
                 (setf (macro-function (car m)) (cdr m))
                 (fmakunbound (car m))))
           (ignore-errors (delete-file source))
           (ignore-errors (when (probe-file output) (delete-file output)))))
       (list "compiled" (if (and compiled
                                 (notany (lambda (d) (equal (third d) "error")) diagnostics))
                            t :false)
             "forms" (loop for f in forms for s in starts for i from 0
                           collect (obj "index" i "line" (line-of code s)
                                        "text" (let ((*package* *session-package*)) (session-print f 120))))
             "diagnostics" (reverse diagnostics))))))

(defun macroexpand-op (request)
  (let ((code (or (getf request :code) ""))
        (full (eq (getf request :full) t)))
    (run-job request
             (lambda ()
               (let* ((form (with-input-from-string (in code)
                              (check-nesting code in)
                              (read in)))
                      (expansion (multiple-value-list (if full (macroexpand form) (macroexpand-1 form)))))
                 (list "expansion" (let ((*print-pretty* t) (*print-right-margin* 100)
                                         (*print-circle* t) (*print-length* nil) (*print-level* nil))
                                     (print-limited (lambda (s) (prin1 (first expansion) s)) 100000))
                       "expanded" (if (second expansion) t :false)
                       "full" (if full t :false)))))))

(define-operation "compile" :worker #'compile-code)
(define-operation "macroexpand" :worker #'macroexpand-op)

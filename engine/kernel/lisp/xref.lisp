;;;; Cross-references (issue 40): who calls, references, binds or sets a name, which macros a
;;;; definition uses, which methods specialize on a class. ECL's compiler records none of it
;;;; (SLIME's and Sly's ECL backends answer "not implemented"), so it is read from the code
;;;; as written: the session's own definitions (the forms its jobs evaluated or the editor
;;;; compiled) and the source files the session loaded (LOAD, ASDF, the editor's C-c C-k),
;;;; each file read once with the image's own packages and cached until it changes.
;;;;
;;;; The walk knows the standard's binding and quoting forms (QUOTE, LET, LAMBDA lists, FLET,
;;;; DECLARE, the clauses of CASE and HANDLER-CASE, LOOP's words, backquote...); any other
;;;; operator's arguments count as code. So a call is a list whose first element is the name
;;;; (or #'name): a user's macro whose arguments are not code may add a false entry, never
;;;; hide a true one. Served to Swank (editor/xref hooks in server.lisp) and to the host
;;;; ("xref", for the agents' find-references).

(in-package "LISP-DUET.KERNEL")

(defvar *xref-lock* (mp:make-lock :name "lisp-duet xref"))
(defvar *xref-files* (make-hash-table :test #'equal)
  "Source file loaded by the session (namestring) -> its index: (write-date . units), or T
until it is first read.")
(defvar *xref-session* (make-hash-table :test #'equal)
  "(name . kind) -> the unit of a definition the session evaluated, the newest.")
(defconstant +xref-most-files+ 5000)

;; One definition (or other top-level form) and what its code does with which names.
(define-record (xref-unit :inline nil)
  title     ; "(DEFUN AREA)", how the host lists it
  dspec     ; (DEFUN AREA), how Swank lists it
  name      ; the symbol it defines, or NIL
  file      ; the source file, or NIL for the session's own
  position  ; its first character in the file (0-based)
  line      ; its first line
  text      ; for the session's own: its printed text
  job       ; for the session's own: the job that evaluated it
  refs)     ; ((symbol . role) ...): :call :reference :set :bind :specialize

;;; Noting what to read

(defun note-xref-file (truename)
  "A source file the session loaded (ledger.lisp calls this for every one)."
  (mp:with-lock (*xref-lock*)
    (when (< (hash-table-count *xref-files*) +xref-most-files+)
      (unless (gethash truename *xref-files*)
        (setf (gethash truename *xref-files*) t)))))

(defun note-xref-definition (form job-id)
  "A defining top-level FORM a session job evaluated (definitions.lisp calls this)."
  (ignore-errors
   (let ((unit (form-unit form nil 0 0)))
     (when (xref-unit-name unit)
       (setf (xref-unit-job unit) job-id
             (xref-unit-text unit) (let ((*package* *session-package*) (*print-pretty* t)
                                         (*print-right-margin* 100))
                                     (print-limited (lambda (s) (prin1 form s)) 20000)))
       (mp:with-lock (*xref-lock*)
         (setf (gethash (cons (xref-unit-name unit) (first form)) *xref-session*) unit))))))

;;; The walk

(defparameter *loop-binding-words* '("FOR" "AS" "WITH" "INTO" "USING"))
(defparameter *loop-words*
  '("FOR" "AS" "WITH" "INTO" "USING" "IN" "ON" "BY" "FROM" "UPFROM" "DOWNFROM" "TO" "UPTO"
    "DOWNTO" "BELOW" "ABOVE" "ACROSS" "BEING" "THE" "EACH" "OF" "HASH-KEY" "HASH-KEYS"
    "HASH-VALUE" "HASH-VALUES" "SYMBOL" "SYMBOLS" "PRESENT-SYMBOL" "PRESENT-SYMBOLS"
    "EXTERNAL-SYMBOL" "EXTERNAL-SYMBOLS" "DO" "DOING" "COLLECT" "COLLECTING" "APPEND" "APPENDING"
    "NCONC" "NCONCING" "COUNT" "COUNTING" "SUM" "SUMMING" "MAXIMIZE" "MAXIMIZING" "MINIMIZE"
    "MINIMIZING" "WHEN" "IF" "UNLESS" "ELSE" "END" "AND" "WHILE" "UNTIL" "ALWAYS" "NEVER"
    "THEREIS" "REPEAT" "RETURN" "INITIALLY" "FINALLY" "NAMED" "THEN" "IT" "=" "OF-TYPE"
    "FIXNUM" "FLOAT" "T" "NIL"))

(defvar *refs* nil "The references the walk collects, for the unit being read.")

(defun note-ref (symbol role)
  (when (and (symbolp symbol) symbol (not (eq symbol t)) (not (keywordp symbol))
             (symbol-package symbol))
    (push (cons symbol role) *refs*)))

(defun walk-body (forms)
  (loop for tail on forms
        while (consp tail)
        do (walk-form (car tail))))

(defun walk-lambda-list (list)
  "Variables are bound; default forms are code; nested lists destructure (macros)."
  (loop for tail on list
        while (consp tail)
        do (let ((item (car tail)))
             (cond ((member item lambda-list-keywords))
                   ((symbolp item) (note-ref item :bind))
                   ((consp item)
                    (let ((variable (first item)))
                      (cond ((consp variable) ; ((:key var) init) or a destructuring list
                             (if (and (keywordp (first variable)) (consp (rest variable)))
                                 (note-ref (second variable) :bind)
                                 (walk-lambda-list variable)))
                            (t (note-ref variable :bind)))
                      (when (consp (rest item)) (walk-form (second item)))
                      (when (and (consp (rest item)) (consp (cddr item)))
                        (note-ref (third item) :bind))))))
        finally (when (and tail (symbolp tail)) (note-ref tail :bind))))

(defun walk-bindings (bindings)
  "LET's bindings: VAR or (VAR INIT)."
  (dolist (binding (and (listp bindings) bindings))
    (cond ((symbolp binding) (note-ref binding :bind))
          ((consp binding)
           (note-ref (first binding) :bind)
           (when (consp (rest binding)) (walk-form (second binding)))))))

(defun walk-quasiquote (form)
  (cond ((atom form))
        ((member (first form) '(si:unquote si:unquote-splice si:unquote-nsplice))
         (walk-form (second form)))
        (t (loop for tail on form
                 while (consp tail)
                 do (walk-quasiquote (car tail))))))

(defun walk-places (places role &key read)
  "Places assigned to: a symbol is set (and READ, by INCF and the like), any other place is
code (an accessor's call)."
  (dolist (place places)
    (cond ((symbolp place)
           (note-ref place role)
           (when read (note-ref place :reference)))
          (t (walk-form place)))))

(defun walk-clauses (clauses)
  "CASE's and TYPECASE's clauses: the key or type is not code, the body is."
  (dolist (clause clauses)
    (when (consp clause) (walk-body (rest clause)))))

(defun walk-loop (forms)
  (let ((previous nil))
    (dolist (item forms)
      (cond ((consp item)
             (if (and previous (member (symbol-name previous) *loop-binding-words* :test #'string=))
                 (walk-lambda-list item) ; a destructuring pattern
                 (walk-form item)))
            ((and (symbolp item) item)
             (cond ((member (symbol-name item) *loop-words* :test #'string=))
                   ((and previous (symbolp previous)
                         (member (symbol-name previous) *loop-binding-words* :test #'string=))
                    (note-ref item :bind))
                   (t (note-ref item :reference)))))
      (setf previous (and (symbolp item) item)))))

(defun walk-function-definitions (definitions)
  "FLET's, LABELS' and MACROLET's ((name lambda-list . body) ...)."
  (dolist (definition definitions)
    (when (and (consp definition) (consp (rest definition)))
      (walk-lambda-list (second definition))
      (walk-body (cddr definition)))))

(defun walk-form (form)
  (cond ((symbolp form)
         (unless (or (null form) (eq form t) (keywordp form) (member form lambda-list-keywords))
           (note-ref form :reference)))
        ((atom form))
        ((not (symbolp (first form)))
         (when (and (consp (first form)) (eq (first (first form)) 'lambda))
           (walk-lambda-list (second (first form)))
           (walk-body (cddr (first form))))
         (walk-body (rest form)))
        (t (walk-operator-form (first form) (rest form)))))

(defun walk-operator-form (operator arguments)
  (let ((second (and (consp arguments) (first arguments)))
        (rest (and (consp arguments) (rest arguments))))
    (case operator
      ((quote declare in-package defpackage go))
      (function
       (cond ((symbolp second) (note-ref second :call))
             ((and (consp second) (eq (first second) 'lambda))
              (walk-lambda-list (second second))
              (walk-body (cddr second)))))
      (lambda (walk-lambda-list second) (walk-body rest))
      (si:quasiquote (walk-quasiquote second))
      ((let let* prog prog* symbol-macrolet)
       (note-ref operator :call)
       (if (eq operator 'symbol-macrolet)
           (dolist (b second) (when (consp b) (walk-form (second b))))
           (walk-bindings second))
       (walk-body rest))
      ((flet labels macrolet)
       (note-ref operator :call)
       (walk-function-definitions second)
       (walk-body rest))
      ((setq psetq)
       (loop for (place value) on arguments by #'cddr
             do (note-ref place :set) (walk-form value)))
      ((setf psetf)
       (loop for (place value) on arguments by #'cddr
             do (walk-places (list place) :set) (walk-form value))
       (note-ref operator :call))
      ((incf decf pop shiftf rotatef)
       (note-ref operator :call)
       (walk-places (if (member operator '(shiftf rotatef)) (butlast arguments) (list second)) :set :read t)
       (walk-body (if (member operator '(shiftf rotatef)) (last arguments) rest)))
      ((push pushnew)
       (note-ref operator :call)
       (walk-form second)
       (when (consp rest) (walk-places (list (first rest)) :set :read t) (walk-body (rest rest))))
      (multiple-value-setq
       (walk-places (and (listp second) second) :set)
       (walk-body rest))
      ((multiple-value-bind destructuring-bind)
       (note-ref operator :call)
       (walk-lambda-list second)
       (walk-body rest))
      ((do do*)
       (note-ref operator :call)
       (dolist (binding (and (listp second) second))
         (if (symbolp binding)
             (note-ref binding :bind)
             (progn (note-ref (first binding) :bind)
                    (walk-body (rest binding)))))
       (when (consp rest) (walk-body (first rest)) (walk-body (rest rest))))
      ((dolist dotimes)
       (note-ref operator :call)
       (when (consp second)
         (note-ref (first second) :bind)
         (walk-body (rest second)))
       (walk-body rest))
      ((block return-from catch throw eval-when)
       (if (member operator '(catch throw)) (walk-body arguments) (walk-body rest)))
      (tagbody (dolist (item arguments) (when (consp item) (walk-form item))))
      (the (walk-body rest))
      ((case ecase ccase typecase etypecase ctypecase)
       (note-ref operator :call)
       (walk-form second)
       (walk-clauses rest))
      ((handler-case restart-case)
       (note-ref operator :call)
       (walk-form second)
       (dolist (clause rest)
         (when (and (consp clause) (consp (rest clause)))
           (walk-lambda-list (second clause))
           (walk-body (cddr clause)))))
      (handler-bind
       (note-ref operator :call)
       (dolist (binding (and (listp second) second))
         (when (consp binding) (walk-body (rest binding))))
       (walk-body rest))
      ((with-slots with-accessors)
       (note-ref operator :call)
       (when (consp rest) (walk-form (first rest)) (walk-body (rest rest))))
      (loop (note-ref operator :call) (walk-loop arguments))
      (t
       (note-ref operator :call)
       (walk-body arguments)))))

;;; Units: what each top-level form defines, and its references

(defun defining-operator-p (operator)
  (and (symbolp operator)
       (let ((name (symbol-name operator)))
         (and (> (length name) 3) (string= "DEF" name :end2 3)))))

(defun form-title (form)
  (let ((*package* (find-package "KEYWORD")))
    (with-brief-printing
      (let ((operator (first form)) (name (second form)))
        (cond ((eq operator 'defmethod)
               (multiple-value-bind (qualifiers specializers) (method-qualifiers-and-specializers form)
                 (format nil "(DEFMETHOD ~A~{ ~A~} (~{~A~^ ~}))" (ledger-name-text (if (consp name) (second name) name))
                         qualifiers specializers)))
              ((and (defining-operator-p operator) (consp (rest form)))
               (format nil "(~A ~A)" (symbol-name operator)
                       (if (consp name) (ledger-name-text (if (eq (first name) 'setf) (second name) (first name))) (ledger-name-text name))))
              (t (let ((*print-length* 3) (*print-level* 2))
                   (let ((*package* *session-package*)) (prin1-to-string form)))))))))

(defun form-dspec (form)
  "How Swank names the unit of FORM: a list SLIME prints, (DEFUN AREA), (DEFMETHOD AREA
:AROUND (CIRCLE)), or the form's first words."
  (let ((operator (first form)) (name (and (consp (rest form)) (second form))))
    (cond ((eq operator 'defmethod)
           (let ((rest (cddr form)) (qualifiers '()))
             (loop while (and rest (atom (first rest))) do (push (pop rest) qualifiers))
             `(defmethod ,name ,@(nreverse qualifiers)
                ,(loop for parameter in (first rest)
                       until (member parameter lambda-list-keywords)
                       collect (if (consp parameter) (second parameter) t)))))
          ((defining-operator-p operator) (list operator name))
          (t (list operator (if (atom name) name '|...|))))))

(defun walk-definition (form)
  "The references of a top-level FORM: a definition's lambda list and body as such."
  (let ((operator (first form)))
    (case operator
      ((defun defmacro define-compiler-macro)
       (when (consp (cddr form))
         (walk-lambda-list (third form))
         (walk-body (cdddr form))))
      (defmethod
       (let ((rest (cddr form)))
         (loop while (and rest (atom (first rest))) do (pop rest))
         (dolist (parameter (first rest))
           (when (consp parameter)
             (let ((specializer (second parameter)))
               (when (symbolp specializer) (note-ref specializer :specialize)))))
         (walk-lambda-list (mapcar (lambda (p) (if (consp p) (first p) p)) (first rest)))
         (walk-body (rest rest))))
      ((defvar defparameter defconstant)
       (note-ref (second form) :set)
       (walk-body (cddr form)))
      ((defclass define-condition)
       (dolist (slot (and (consp (cdddr form)) (fourth form)))
         (when (consp slot)
           (loop for (option value) on (rest slot) by #'cddr
                 when (eq option :initform) do (walk-form value))))
       (dolist (option (cddddr form))
         (when (and (consp option) (eq (first option) :default-initargs))
           (loop for (nil value) on (rest option) by #'cddr do (walk-form value)))))
      (defstruct
       (dolist (slot (cddr form))
         (cond ((consp slot) (when (consp (rest slot)) (walk-form (second slot))))
               ((stringp slot)))))
      ((defgeneric deftype defsetf define-setf-expander define-modify-macro define-symbol-macro
        define-method-combination)
       (walk-body (cdddr form)))
      (t (walk-form form)))))

(defun defined-name (form)
  (when (and (consp form) (defining-operator-p (first form)) (consp (rest form)))
    (let ((name (second form)))
      (cond ((symbolp name) name)
            ((and (consp name) (eq (first name) 'setf)) (second name))
            ((and (consp name) (symbolp (first name))) (first name))))))

(defun form-unit (form file position line)
  (let ((*refs* '()))
    (ignore-errors (walk-definition form))
    (make-xref-unit :title (or (ignore-errors (form-title form)) "(a top-level form)")
                    :dspec (or (ignore-errors (form-dspec form)) (list (first form)))
                    :name (defined-name form) :file file :position position :line line
                    :refs (remove-duplicates *refs* :test #'equal))))

;;; Files

(defun read-eval-placeholder (stream character argument)
  (declare (ignore character argument))
  (list 'quote (read stream t nil t)))

(defvar *xref-readtable* nil)

(defun xref-readtable ()
  (or *xref-readtable*
      (let ((readtable (copy-readtable nil)))
        ;; #. is not evaluated again: its form stands as data.
        (set-dispatch-macro-character #\# #\. #'read-eval-placeholder readtable)
        (setf *xref-readtable* readtable))))

(defun file-text (file)
  (with-open-file (in file :external-format :utf-8)
    (let* ((text (make-string (file-length in)))
           (end (read-sequence text in)))
      (subseq text 0 end))))

(defun line-starts (text)
  (let ((starts (list 0)))
    (loop for i from 0 below (length text)
          when (char= (char text i) #\Newline) do (push (1+ i) starts))
    (coerce (nreverse starts) 'vector)))

(defun line-of (starts position)
  (let ((low 0) (high (1- (length starts))))
    (loop while (< low high)
          do (let ((middle (ceiling (+ low high) 2)))
               (if (<= (aref starts middle) position) (setf low middle) (setf high (1- middle)))))
    (1+ low)))

(defun block-comment-end (text start)
  "The position after the #| comment at START of TEXT (they nest), or TEXT's end."
  (let ((depth 0) (i start) (n (length text)))
    (loop while (< (1+ i) n)
          do (cond ((and (char= (char text i) #\#) (char= (char text (1+ i)) #\|))
                    (incf depth) (incf i 2))
                   ((and (char= (char text i) #\|) (char= (char text (1+ i)) #\#))
                    (decf depth) (incf i 2)
                    (when (zerop depth) (return-from block-comment-end i)))
                   (t (incf i))))
    n))

(defun skip-to-form (in text)
  "Moves IN past blanks and comments; the position of the next form."
  (loop
    (peek-char t in nil nil)
    (let ((position (file-position in)))
      (cond ((>= position (length text)) (return position))
            ((char= (char text position) #\;) (read-line in nil nil))
            ((and (char= (char text position) #\#) (< (1+ position) (length text))
                  (char= (char text (1+ position)) #\|))
             (file-position in (block-comment-end text position)))
            (t (return position))))))

(defun group-form-p (form)
  "Top-level forms whose subforms are top-level too (CLHS 3.2.3.1), or that often wrap a
definition (a DEFUN inside LET)."
  (and (consp form)
       (member (first form) '(progn eval-when locally macrolet symbol-macrolet let let*))))

(defun read-file-units (file)
  "The units of FILE's top-level forms, read in the packages its IN-PACKAGE forms name."
  (let* ((text (file-text file))
         (starts (line-starts text))
         (units '()))
    (with-input-from-string (in text)
      (let ((*package* (find-package "CL-USER"))
            (*readtable* (xref-readtable))
            (*read-eval* nil))
        (loop
          (let* ((start (skip-to-form in text))
                 (form (handler-case (read in nil in)
                         (error () (return)))))
            (when (eq form in) (return))
            (cond ((and (consp form) (eq (first form) 'in-package))
                   (let ((package (find-package (second form))))
                     (if package (setf *package* package) (return))))
                  ((and (group-form-p form) (not (defined-name form))
                        (some (lambda (sub) (and (consp sub) (defined-name sub))) (cddr form)))
                   ;; each definition inside is a unit of its own, at the group's place
                   (dolist (sub (if (eq (first form) 'progn) (rest form) (cddr form)))
                     (when (consp sub)
                       (push (form-unit sub file start (line-of starts start)) units))))
                  ((consp form)
                   (push (form-unit form file start (line-of starts start)) units)))))))
    (nreverse units)))

(defun file-units (file)
  "FILE's units, read again when it changed since."
  (let ((date (ignore-errors (file-write-date file)))
        (cached (mp:with-lock (*xref-lock*) (gethash file *xref-files*))))
    (cond ((null date) '())
          ((and (consp cached) (eql (car cached) date)) (cdr cached))
          (t (let ((units (or (ignore-errors (read-file-units file)) '())))
               (mp:with-lock (*xref-lock*)
                 (setf (gethash file *xref-files*) (cons date units)))
               units)))))

(defun all-units ()
  (let ((files (mp:with-lock (*xref-lock*)
                 (loop for file being the hash-keys of *xref-files* collect file)))
        (session (mp:with-lock (*xref-lock*)
                   (loop for unit being the hash-values of *xref-session* collect unit))))
    (append session (loop for file in files append (file-units file)))))

;;; Questions

(defun units-with (symbol roles)
  (remove-if-not (lambda (unit)
                   (some (lambda (ref) (and (eq (car ref) symbol) (member (cdr ref) roles)))
                         (xref-unit-refs unit)))
                 (all-units)))

(defun units-defining (symbol)
  (remove-if-not (lambda (unit) (eq (xref-unit-name unit) symbol)) (all-units)))

(defun callees (symbol)
  "The global functions the definitions of SYMBOL call (macros and special operators left out)."
  (let ((names '()))
    (dolist (unit (units-defining symbol))
      (dolist (ref (xref-unit-refs unit))
        (let ((name (car ref)))
          (when (and (eq (cdr ref) :call) (fboundp name)
                     (not (macro-function name)) (not (special-operator-p name)))
            (pushnew name names)))))
    (nreverse names)))

(defun xref-units (kind symbol)
  "The units that answer KIND (:calls :references :binds :sets :macroexpands :specializes)
about SYMBOL; for :calls-who, (name . units-or-nil) of each callee."
  (ecase kind
    ((:calls :macroexpands) (units-with symbol '(:call)))
    (:references (units-with symbol '(:reference)))
    (:binds (units-with symbol '(:bind)))
    (:sets (units-with symbol '(:set)))
    (:specializes (units-with symbol '(:specialize)))))
;;; The host's question (the agents' find-references): "xref"

(defparameter *xref-kinds*
  '(("calls" . :calls) ("calls-who" . :calls-who) ("references" . :references)
    ("binds" . :binds) ("sets" . :sets) ("macroexpands" . :macroexpands)
    ("specializes" . :specializes)))

(defun unit-entry (unit)
  (obj "definition" (xref-unit-title unit)
       "where" (if (xref-unit-file unit) "file" "session")
       "file" (or (xref-unit-file unit) :null)
       "line" (if (xref-unit-file unit) (xref-unit-line unit) :null)
       "position" (if (xref-unit-file unit) (xref-unit-position unit) :null)
       "job" (or (xref-unit-job unit) :null)))

(defun callee-entries (symbol)
  (loop for callee in (callees symbol)
        collect (let ((unit (first (units-defining callee))))
                  (append (obj "name" (session-print callee))
                          (rest (if unit (unit-entry unit) (obj "where" "unknown")))))))

(defun xref-op (request)
  (with-service-time-limit (request 10)
    (let ((kind (cdr (assoc (getf request :kind) *xref-kinds* :test #'equal)))
          (start (%monotonic-us)))
      (unless kind
        (return-from xref-op
          (failed-reply (getf request :id) "BAD-REQUEST"
                        (format nil "xref needs a \"kind\": one of ~{~A~^, ~}." (mapcar #'car *xref-kinds*)))))
      (multiple-value-bind (symbol found) (parse-symbol-text (or (getf request :name) "")
                                                             (resolve-package (getf request :package)))
        (if (not found)
            (ok-reply request "found" :false
                      "message" (format nil "No symbol named ~A is accessible~@[ in ~A~]." (getf request :name)
                                        (getf request :package)))
            (let ((entries (if (eq kind :calls-who)
                               (callee-entries symbol)
                               (mapcar #'unit-entry (xref-units kind symbol)))))
              (ok-reply request "found" t
                        "symbol" (let ((*package* *session-package*)) (session-print symbol))
                        "kind" (getf request :kind)
                        "references" entries
                        "files" (mp:with-lock (*xref-lock*) (hash-table-count *xref-files*))
                        "us" (- (%monotonic-us) start))))))))

(define-operation "xref" :service #'xref-op)

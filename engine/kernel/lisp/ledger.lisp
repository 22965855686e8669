;;;; The facts behind the host's ledger of definitions (issue 21): who defined what is the
;;;; host's to keep (it knows who asked, survives engine restarts and journals it); what a job
;;;; defined and which source files it loaded only the image knows. Every job's reply carries
;;;; them (RUN-JOB appends TAKE-LEDGER-FACTS):
;;;;   "defined"      the top-level defining forms the job evaluated, with the names resolved
;;;;                  as the reader interned them, and where the definition they replaced was
;;;;                  loaded from, when ECL knows (functions and macros);
;;;;   "loaded_files" the source files loaded meanwhile, by LOAD or by ASDF (the source of a
;;;;                  compiled file ASDF loads), in order.
;;;; It also tells which packages the project made: packages created while ASDF compiled or
;;;; loaded a file under the project root are the session's own, not library code.

(in-package "LISP-DUET.KERNEL")

(defvar *ledger-lock* (mp:make-lock :name "lisp-duet ledger"))
(defvar *job-defined* '() "\"defined\" entries of the running job, newest first (the worker's).")
(defvar *job-loaded-files* '() "Source files loaded since the last job ended, newest first.")
(defvar *job-loaded-count* 0)
(defconstant +max-loaded-files+ 2000)
(defvar *recording-loads* t
  "False in threads whose loads are not the session's work: Swank's (it loads its contribs
when an editor asks) and the loading of Swank itself (editor.lisp).")

(defparameter *ledger-kinds*
  '((defun . "function") (defmacro . "macro") (defgeneric . "generic-function")
    (defmethod . "method") (defvar . "variable") (defparameter . "variable")
    (defconstant . "constant") (defclass . "class") (defstruct . "structure")
    (define-condition . "condition") (deftype . "type")))

(defun ledger-kind (form)
  (and (consp form) (symbolp (first form))
       (cdr (assoc (first form) *ledger-kinds*))))

(defun defined-symbol (form)
  "The symbol FORM defines, or for (SETF NAME) functions (values NAME t)."
  (let ((name (second form)))
    (cond ((and (eq (first form) 'defstruct) (consp name)) (values (first name) nil))
          ((and (consp name) (eq (first name) 'setf) (symbolp (second name)))
           (values (second name) t))
          (t (values name nil)))))

(defun ledger-name-text (symbol)
  (cond ((keywordp symbol) (concatenate 'string ":" (symbol-name symbol)))
        ((symbolp symbol) (symbol-name symbol))
        (t (let ((*package* (find-package "KEYWORD")))
             (string-upcase (prin1-to-string symbol))))))

(defun method-qualifiers-and-specializers (form)
  "(values qualifiers specializers) of a DEFMETHOD form, as texts; trailing Ts dropped."
  (let* ((rest (cddr form))
         (qualifiers (loop while (and rest (atom (first rest))) collect (pop rest)))
         (specializers
           (loop for parameter in (first rest)
                 until (member parameter lambda-list-keywords)
                 collect (if (consp parameter)
                             (let ((specializer (second parameter)))
                               (if (and (consp specializer) (eq (first specializer) 'eql))
                                   (format nil "(EQL ~A)" (ledger-name-text (second specializer)))
                                   (ledger-name-text specializer)))
                             "T"))))
    (loop while (equal (car (last specializers)) "T")
          do (setf specializers (butlast specializers)))
    (values (mapcar #'ledger-name-text qualifiers) specializers)))

(defun definition-before (form)
  "Where the definition FORM is about to replace came from, when a file: (file . line)."
  (when (member (ledger-kind form) '("function" "macro" "generic-function") :test #'equal)
    (ignore-errors
     (let ((symbol (defined-symbol form)))
       (when (and symbol (symbolp symbol) (fboundp symbol))
         (multiple-value-bind (file line)
             (function-file-location symbol (if (macro-function symbol) "macro" "function"))
           (and file (cons file line))))))))

(defun note-ledger-definition (form start end before)
  "Records for the reply that FORM, read from START to END of the job's code, defined a name."
  (ignore-errors
   (let ((kind (ledger-kind form)))
     (when kind
       (multiple-value-bind (symbol setf-p) (defined-symbol form)
         (when (and symbol (symbolp symbol) (symbol-package symbol))
           (multiple-value-bind (qualifiers specializers)
               (if (string= kind "method") (method-qualifiers-and-specializers form) (values nil nil))
             (push (obj "operator" (string-downcase (symbol-name (first form)))
                        "kind" kind
                        "package" (package-name (symbol-package symbol))
                        "name" (if setf-p
                                   (concatenate 'string "(SETF " (symbol-name symbol) ")")
                                   (symbol-name symbol))
                        "qualifiers" qualifiers
                        "specializers" specializers
                        "start" start
                        "end" end
                        "read_package" (if (packagep *package*) (package-name *package*) :null)
                        "replaced_file" (or (car before) :null)
                        "replaced_line" (or (cdr before) :null))
                   *job-defined*))))))))

(defun note-loaded-file (file)
  (let ((name (and *recording-loads* (ignore-errors (namestring (truename file))))))
    (when name
      (mp:with-lock (*ledger-lock*)
        (when (< *job-loaded-count* +max-loaded-files+)
          (incf *job-loaded-count*)
          (push name *job-loaded-files*)))
      (note-xref-file name))))

(defun take-ledger-facts ()
  "The ledger's fields for the reply of the job that just ended; forgets them."
  (let ((defined (shiftf *job-defined* '()))
        ;; Most jobs load nothing: they take no lock.
        (files (when *job-loaded-files*
                 (mp:with-lock (*ledger-lock*)
                   (setf *job-loaded-count* 0)
                   (shiftf *job-loaded-files* '())))))
    (append (and defined (list "defined" (reverse defined)))
            (and files (list "loaded_files"
                             (remove-duplicates (reverse files) :test #'string= :from-end t))))))

;;; Which packages are the project's: ASDF compiles and loads each source file through
;;; ASDF:PERFORM; an :around method notes the packages each file of the project made
;;; (DEFPACKAGE acts at compile time too) and the source files loaded. It is installed as
;;; soon as ASDF exists (after whichever LOAD brought it in).

(defun project-file-p (file)
  (declare (special *project-root*))
  (let ((root (and (boundp '*project-root*) *project-root*))
        (name (and file (ignore-errors (namestring file)))))
    (and root name (eql 0 (search root name)))))

(defun around-asdf-perform (operation component next)
  (let ((before (list-all-packages))
        (file (ignore-errors (funcall (find-symbol "COMPONENT-PATHNAME" "ASDF") component))))
    ;; NOTING-RT-TESTS (rt-registry.lisp) notes which system each RT test comes from.
    (multiple-value-prog1 (noting-rt-tests component next)
      (when (project-file-p file)
        (let ((new (set-difference (list-all-packages) before)))
          (when new
            (mp:with-lock (*definitions-lock*)
              (setf *project-packages* (union *project-packages* new))))))
      (when (and file (some (lambda (name)
                              (let ((class (find-symbol name "ASDF")))
                                (and class (find-class class nil) (typep operation class))))
                            '("LOAD-OP" "LOAD-SOURCE-OP")))
        (note-loaded-file file)))))

(defun asdf-loaded-p ()
  "True once ASDF's load ended. Its package is made some 30 ms before the end (of 290): an
interrupted first (require :asdf) (the person's Interrupt, a time limit) leaves the package of
half an ASDF, which ENSURE-ASDF loads again (ASDF loads over itself) instead of using it (\"The
specializers list ... does not match the number of required arguments in SYSTEM-MAINTAINER\")."
  (and (find-package "ASDF") (member "ASDF" *modules* :test #'string-equal) t))

(defvar *asdf-hooked* nil)

(defun hook-asdf ()
  (when (and (not *asdf-hooked*) (asdf-loaded-p)
             (find-symbol "PERFORM" "ASDF") (find-symbol "CL-SOURCE-FILE" "ASDF"))
    (setf *asdf-hooked* t)
    (let ((perform (find-symbol "PERFORM" "ASDF"))
          (operation (find-symbol "OPERATION" "ASDF"))
          (source-file (find-symbol "CL-SOURCE-FILE" "ASDF")))
      (without-noting-definitions
       (eval `(defmethod ,perform :around ((operation ,operation) (component ,source-file))
               (around-asdf-perform operation component #'call-next-method)))))))

(defun recording-loader (original source-p)
  (lambda (file &rest arguments)
    (multiple-value-prog1 (apply original file arguments)
      (when source-p (note-loaded-file file))
      (unless *asdf-hooked* (ignore-errors (hook-asdf))))))

(defun install-load-recording ()
  (setf si::*load-hooks*
        (loop for (type . loader) in si::*load-hooks*
              collect (cons type (if (functionp loader)
                                     loader ; already ours
                                     (recording-loader loader (eq loader 'si::load-source)))))))

(install-load-recording)

;;; resolve-names: the names the host read in a file (a form's package in force and the name
;;; as written), resolved as the image has them, and whether #+/#- conditions hold here.

(defun feature-holds-p (expression)
  (cond ((symbolp expression) (and (member expression *features*) t))
        ((not (consp expression)) nil)
        ((string= (symbol-name (first expression)) "NOT") (not (feature-holds-p (second expression))))
        ((string= (symbol-name (first expression)) "AND") (every #'feature-holds-p (rest expression)))
        ((string= (symbol-name (first expression)) "OR") (some #'feature-holds-p (rest expression)))
        (t nil)))

(defun condition-holds-p (text)
  "TEXT is conditionals as written before a form, \"#+ecl\" or \"#+sbcl #-x86-64\"."
  (let ((*package* (find-package "KEYWORD")) (*read-eval* nil) (start 0) (holds t))
    (loop
      (let ((at (search "#" text :start2 start)))
        (unless (and at (< (1+ at) (length text))) (return holds))
        (let ((sign (char text (1+ at))))
          (multiple-value-bind (expression end)
              (handler-case (read-from-string text t nil :start (+ at 2))
                (error () (return nil)))
            (unless (eq (feature-holds-p expression) (char= sign #\+))
              (setf holds nil))
            (setf start end)))))))

(defun resolve-name (package-name name)
  "(package symbol-name found) of NAME (\"AREA\", \"(SETF FOO)\") read in PACKAGE-NAME."
  (let* ((setf-p (and (> (length name) 6) (string= "(SETF " name :end2 6)))
         (bare (if setf-p (string-trim " )" (subseq name 6)) name))
         (package (and package-name (find-package package-name))))
    (multiple-value-bind (symbol status) (and package (find-symbol bare package))
      (if (and status (symbol-package symbol))
          (list (package-name (symbol-package symbol)) name t)
          (list package-name name nil)))))

(defun resolve-names (request)
  (ok-reply request
            "names" (loop for entry in (getf request :names)
                          for (package name found) = (resolve-name (getf entry :package) (or (getf entry :name) ""))
                          collect (obj "package" (or package :null) "name" name "found" (if found t :false)))
            "conditions" (loop for text in (getf request :conditions)
                               collect (if (condition-holds-p (or text "")) t :false))))

(define-operation "resolve-names" :service #'resolve-names)

;;;; The session's own definitions (for list-definitions and the window's Definitions
;;;; panel), describe-symbol and apropos. "Own" means: symbols whose home package is
;;;; COMMON-LISP-USER or a package created after the engine started, except packages that
;;;; came with a system loaded by load-system (ASDF's own among them), unless asked for;
;;;; packages a file under the project root made are the session's own (ledger.lisp).

(in-package "LISP-DUET.KERNEL")

(defvar *system-packages* '()
  "Packages that appeared while load-system ran: library code, not the session's own.")
(defvar *project-packages* '()
  "Packages made while ASDF compiled or loaded a file under the project root (ledger.lisp):
the session's own even when load-system made them.")
(defvar *definition-sources* (make-hash-table :test #'equal)
  "(symbol . kind) -> (form-text . job-id) for definitions the session evaluated.")
(defvar *definitions-lock* (mp:make-lock :name "lisp-duet definitions"))

(defparameter *defining-operators*
  '((defun . "function") (defmacro . "macro") (defgeneric . "generic-function")
    (defmethod . "generic-function") (defvar . "variable") (defparameter . "variable")
    (defconstant . "constant") (defclass . "class") (defstruct . "structure")
    (define-condition . "class") (deftype . "type")))

(defun note-definition (form job-id)
  "Remembers the text of a definition the session evaluated, for describe-symbol."
  (ignore-errors
   (when (and (consp form) (symbolp (first form)))
     (let ((kind (cdr (assoc (first form) *defining-operators*)))
           (name (second form)))
       (when (and (consp name) (eq (first form) 'defstruct)) (setf name (first name)))
       (when (and kind (symbolp name) name)
         (mp:with-lock (*definitions-lock*)
           (setf (gethash (cons name kind) *definition-sources*)
                 (cons (let ((*package* *session-package*) (*print-pretty* t)
                             (*print-right-margin* 100) (*print-length* 50) (*print-level* 8))
                         (print-limited (lambda (s) (prin1 form s)) 4000))
                       job-id)))
         (note-xref-definition form job-id))))))

(defun user-package-p (package)
  (and package
       (or (member package *project-packages*)
           (and (or (eq package (find-package "CL-USER"))
                    (not (member (package-name package) *boot-package-names* :test #'string=)))
                (not (member package *system-packages*))
                (not (member (package-name package) '("ASDF" "UIOP") :test #'string=))
                (let ((name (package-name package)))
                  ;; SWANK...: the editor's server (editor.lisp) and its contribs.
                  (not (or (eql 0 (search "ASDF/" name)) (eql 0 (search "UIOP/" name))
                           (eql 0 (search "LISP-DUET" name)) (eql 0 (search "SWANK" name)))))))))

(defun glob-match-p (pattern name)
  "Case-insensitive: PATTERN with * matches as a glob, without it as a substring."
  (if (not (find #\* pattern))
      (search pattern name :test #'char-equal)
      (labels ((match (p n)
                 (cond ((= p (length pattern)) (= n (length name)))
                       ((char= (char pattern p) #\*)
                        (loop for k from n to (length name) thereis (match (1+ p) k)))
                       ((= n (length name)) nil)
                       ((char-equal (char pattern p) (char name n)) (match (1+ p) (1+ n))))))
        (match 0 0))))

(defun symbol-kinds (symbol)
  "Every kind of definition SYMBOL has, as strings."
  (let ((kinds '()))
    (when (and (fboundp symbol) (not (special-operator-p symbol)))
      (push (cond ((macro-function symbol) "macro")
                  ((typep (fdefinition symbol) 'generic-function) "generic-function")
                  (t "function"))
            kinds))
    (when (special-operator-p symbol) (push "special-operator" kinds))
    (when (boundp symbol)
      (push (if (constantp symbol) "constant" "variable") kinds))
    (let ((class (find-class symbol nil)))
      (when class
        (push (if (typep class 'structure-class) "structure" "class") kinds)))
    (nreverse kinds)))

(defun short-value (symbol)
  "The value printed briefly. Instances of the user's classes print as #<CLASS>, without
their PRINT-OBJECT methods: this runs on the service thread, which runs no user code."
  (let ((*package* *session-package*) (*print-length* 10) (*print-level* 3)
        (*print-circle* t) (*print-pretty* nil) (*print-readably* nil)
        (value (symbol-value symbol)))
    (if (and (typep value '(or standard-object structure-object condition))
             (not (system-symbol-p (class-name (class-of value)))))
        (format nil "#<~A>" (session-print (class-name (class-of value))))
        (handler-case (print-limited (lambda (s) (prin1 value s)) 200)
          (serious-condition () "#<unprintable value>")))))

;;; Where a definition loaded from a file is: ECL records the file and the position where
;;; reading of the defining form began (compiled files: ext:compiled-function-file); the
;;; line is counted in the file itself, after the blanks and comments before the form. Files
;;; are read once and kept while their write date stays (the newest few only). Only the
;;; service thread asks, so the cache needs no lock. ECL keeps no file for generic
;;; functions, methods and classes.

(defvar *source-line-cache* (make-hash-table :test #'equal)
  "File name -> (write-date . octets) of source files whose lines were asked for.")
(defconstant +source-cache-files+ 64)
(defconstant +source-file-limit+ (* 16 1024 1024))

(defun source-octets (file)
  (let* ((date (ignore-errors (file-write-date file)))
         (cached (gethash file *source-line-cache*)))
    (cond ((null date) nil)
          ((and cached (eql (car cached) date)) (cdr cached))
          (t
           (let ((octets (ignore-errors
                          (with-open-file (in file :element-type '(unsigned-byte 8))
                            (when (<= (file-length in) +source-file-limit+)
                              (let ((data (make-array (file-length in) :element-type '(unsigned-byte 8))))
                                (read-sequence data in)
                                data))))))
             (when (>= (hash-table-count *source-line-cache*) +source-cache-files+)
               (clrhash *source-line-cache*))
             (setf (gethash file *source-line-cache*) (cons date octets))
             octets)))))

(defun skip-blanks-and-comments (octets position)
  "The position of the first octet at or after POSITION that is neither blank nor in a
comment (; to the end of the line, #| |# nested)."
  (let ((end (length octets)) (i position))
    (loop
      (when (>= i end) (return end))
      (let ((octet (aref octets i)))
        (cond ((member octet '(32 9 10 13 12)) (incf i))
              ((= octet 59) (loop while (and (< i end) (/= (aref octets i) 10)) do (incf i)))
              ((and (= octet 35) (< (1+ i) end) (= (aref octets (1+ i)) 124))
               (let ((depth 1))
                 (incf i 2)
                 (loop while (and (< i end) (plusp depth))
                       do (cond ((and (= (aref octets i) 124) (< (1+ i) end) (= (aref octets (1+ i)) 35))
                                 (decf depth) (incf i 2))
                                ((and (= (aref octets i) 35) (< (1+ i) end) (= (aref octets (1+ i)) 124))
                                 (incf depth) (incf i 2))
                                (t (incf i))))))
              (t (return i)))))))

(defun source-line (file position)
  "The 1-based line of the form whose reading began at POSITION in FILE, or NIL."
  (let ((octets (and (integerp position) (>= position 0) (source-octets file))))
    (when (and octets (<= position (length octets)))
      (1+ (count 10 octets :end (skip-blanks-and-comments octets position))))))

(defun function-file-location (symbol kind)
  "(values file line) of SYMBOL's function or macro when it was loaded from a file."
  (when (and (member kind '("function" "macro") :test #'string=) (fboundp symbol))
    (multiple-value-bind (file position)
        (ignore-errors (ext:compiled-function-file (or (macro-function symbol) (fdefinition symbol))))
      (when file
        (let ((name (namestring file)))
          (values name (source-line name position) position))))))

(defun definition-entry (symbol kind)
  (let ((*package* *session-package*))
    (multiple-value-bind (file line) (function-file-location symbol kind)
      (append (definition-entry-1 symbol kind)
              (list "file" (or file :null) "line" (or line :null))
              ;; How it runs (native.lisp): interpreted, compiling or native.
              (and (member kind '("function" "macro" "generic-function") :test #'string=)
                   (ignore-errors (execution-fields symbol kind)))))))

(defun definition-entry-1 (symbol kind)
  (let ((*package* *session-package*))
    (obj "name" (session-print symbol)
         "package" (package-name (symbol-package symbol))
         "symbol" (symbol-name symbol)
         "kind" kind
         "lambda_list" (if (member kind '("function" "macro" "generic-function") :test #'string=)
                           (or (lambda-list-text symbol) :null)
                           :null)
         "value" (if (member kind '("variable" "constant") :test #'string=)
                     (short-value symbol)
                     :null)
         "documentation" (or (cond ((member kind '("variable" "constant") :test #'string=)
                                    (ignore-errors (documentation symbol 'variable)))
                                   ((member kind '("class" "structure") :test #'string=)
                                    (ignore-errors (documentation symbol 'type)))
                                   (t (function-documentation symbol)))
                             :null))))

(defun function-documentation (symbol)
  "SYMBOL's function docstring and its compiler macro's, as (values function compiler-macro).
ECL's DEFINE-COMPILER-MACRO stores its docstring where (documentation symbol 'function) finds
it, over the function's (cl-ppcre:scan); the compiled function object keeps its own."
  (let ((by-name (ignore-errors (documentation symbol 'function)))
        (by-object (and (fboundp symbol) (not (macro-function symbol)) (not (special-operator-p symbol))
                        (ignore-errors (documentation (fdefinition symbol) t))))
        (compiler (ignore-errors (documentation symbol 'compiler-macro))))
    (if (and (compiler-macro-function symbol) by-object (not (equal by-name by-object)))
        (values by-object (or compiler by-name))
        (values by-name compiler))))

(defun session-definitions (package pattern)
  (let ((entries '())
        ;; The session's docstrings live in memory; skipping ECL's help file for every
        ;; symbol makes a long listing several times faster.
        (si::*documentation-pool* (remove-if-not #'hash-table-p si::*documentation-pool*)))
    (flet ((consider (symbol)
             (when (and (if package
                            (eq (symbol-package symbol) package)
                            (user-package-p (symbol-package symbol)))
                        (or (null pattern) (glob-match-p pattern (symbol-name symbol))))
               (dolist (kind (symbol-kinds symbol))
                 (push (definition-entry symbol kind) entries)))))
      (if package
          (do-symbols (s package) (consider s))
          (dolist (p (list-all-packages))
            (when (user-package-p p)
              (do-symbols (s p) (consider s))))))
    (sort entries #'string< :key #'third)))

(defun list-definitions (request)
  (with-service-time-limit (request) (list-definitions-1 request)))

(defun list-definitions-1 (request)
  (let* ((package-name (getf request :package))
         (package (and package-name (plusp (length package-name))
                       (or (find-package package-name) (find-package (string-upcase package-name)))))
         (pattern (let ((p (getf request :pattern))) (and p (plusp (length p)) p))))
    (if (and package-name (plusp (length package-name)) (null package))
        (ok-reply request "found" :false
                  "message" (format nil "The package ~S does not exist." package-name)
                  "definitions" nil)
        (ok-reply request "found" t
                  "package" (if package (package-name package) :null)
                  "definitions" (let ((*package* *session-package*))
                                  (session-definitions package pattern))))))

(defun definition-source (symbol kind)
  (mp:with-lock (*definitions-lock*)
    (gethash (cons symbol kind) *definition-sources*)))

(defun source-location (symbol kind)
  "Where SYMBOL's definition of KIND came from: a file and position, the session's own
evaluation, or NIL."
  (let ((session (or (definition-source symbol kind)
                     (and (string= kind "generic-function") (definition-source symbol "function")))))
    (cond (session
           (obj "where" "session" "job" (cdr session) "form" (car session)))
          ((member kind '("function" "macro") :test #'string=)
           (multiple-value-bind (file line position) (function-file-location symbol kind)
             (when file
               (obj "where" "file" "file" file
                    "position" (or position :null) "line" (or line :null)))))
          (t nil))))

(defun describe-symbol (request)
  (with-service-time-limit (request) (describe-symbol-1 request)))

(defun describe-symbol-1 (request)
  (multiple-value-bind (symbol found) (parse-symbol-text (or (getf request :name) "")
                                                         (resolve-package (getf request :package)))
    (if (not found)
        (ok-reply request "found" :false
                  "message" (format nil "No symbol named ~A is accessible in ~A."
                                    (getf request :name)
                                    (let ((p (resolve-package (getf request :package))))
                                      (if p (package-name p) (format nil "the package ~S, which does not exist"
                                                                     (getf request :package))))))
        (let* ((*package* *session-package*)
               (kinds (symbol-kinds symbol)))
          (ok-reply request
                    "found" t
                    "name" (session-print symbol)
                    "package" (if (symbol-package symbol) (package-name (symbol-package symbol)) :null)
                    "kinds" kinds
                    "lambda_list" (or (and (fboundp symbol) (lambda-list-text symbol)) :null)
                    "function_documentation" (or (function-documentation symbol) :null)
                    "variable_documentation" (or (ignore-errors (documentation symbol 'variable)) :null)
                    "type_documentation" (or (ignore-errors (documentation symbol 'type)) :null)
                    "value" (if (boundp symbol) (short-value symbol) :null)
                    "value_result_id" (or (and (boundp symbol) (remember-result (symbol-value symbol) nil)) :null)
                    "locations" (loop for kind in kinds
                                      for location = (source-location symbol kind)
                                      collect (append (obj "kind" kind)
                                                      (if location (cdr location) (list "where" "unknown")))))))))

(defun apropos-op (request)
  (let* ((text (or (getf request :text) ""))
         (package-name (getf request :package))
         (package (and package-name (plusp (length package-name))
                       (or (find-package package-name) (find-package (string-upcase package-name)))))
         (limit (option (getf request :options) :limit 100))
         (matches '()))
    (when (and package-name (plusp (length package-name)) (null package))
      (return-from apropos-op
        (ok-reply request "found" :false "message" (format nil "The package ~S does not exist." package-name)
                  "matches" nil "total" 0)))
    (flet ((consider (s)
             (when (search text (symbol-name s) :test #'char-equal)
               (pushnew s matches))))
      (if package
          (do-symbols (s package) (consider s))
          (do-all-symbols (s) (consider s))))
    (setf matches (sort matches (lambda (a b) (or (< (length (symbol-name a)) (length (symbol-name b)))
                                                  (and (= (length (symbol-name a)) (length (symbol-name b)))
                                                       (string< (symbol-name a) (symbol-name b)))))))
    (let ((*package* *session-package*))
      (ok-reply request "found" t
                "total" (length matches)
                "matches" (loop for s in matches
                                repeat limit
                                collect (obj "name" (session-print s)
                                             "package" (if (symbol-package s) (package-name (symbol-package s)) :null)
                                             "kinds" (symbol-kinds s)))))))

(define-operation "definitions" :service #'list-definitions)
(define-operation "describe" :service #'describe-symbol)
(define-operation "apropos" :service #'apropos-op)

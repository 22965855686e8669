;;;; Questions about the image that do not run user code: completion and lambda lists.
;;;; They run on the service thread, so they answer while the worker is busy.

(in-package "LISP-DUET.KERNEL")

(defun find-symbol-designator (text &optional (default-package *session-package*))
  "Returns the symbol named by TEXT (\"foo\", \"pkg:foo\", \"pkg::foo\", \":kw\") or NIL."
  (let* ((colon (position #\: text))
         (package (cond ((null colon) default-package)
                        ((zerop colon) (find-package "KEYWORD"))
                        (t (find-package (string-upcase (subseq text 0 colon))))))
         (name (string-upcase (if colon (string-left-trim ":" (subseq text colon)) text))))
    (when package
      (multiple-value-bind (symbol status) (find-symbol name package)
        (and status symbol)))))

(defun lambda-list-source (symbol)
  "What to ask ECL SYMBOL's lambda list of. A traced function's is its own, not that of
TRACE's wrapper, (&REST SI::ARGS); a native version's is its definition's (ECL reads a
compiled function's from a record by name, which TRACE's own DEFUN overwrote)."
  (let ((traced (si::traced-old-definition symbol)))
    (cond (traced (or (bytecode-of-native traced) traced))
          ((and (fboundp symbol) (not (macro-function symbol)) (not (special-operator-p symbol)))
           (or (bytecode-of-native (fdefinition symbol)) symbol))
          (t symbol))))

(defun lambda-list-text (symbol)
  (multiple-value-bind (lambda-list found)
      (ignore-errors (ext:function-lambda-list (lambda-list-source symbol)))
    (when found
      (let ((*package* *session-package*) (*print-case* :upcase) (*print-pretty* nil))
        (if lambda-list (prin1-to-string lambda-list) "()")))))

(defun complete-package-names (request)
  "Package names and nicknames that start with the prefix (case-insensitive), shortest first."
  (let* ((prefix (string-upcase (or (getf request :prefix) "")))
         (limit (option (getf request :options) :limit 200))
         (names '()))
    (dolist (package (list-all-packages))
      (dolist (name (cons (package-name package) (package-nicknames package)))
        (when (and (<= (length prefix) (length name))
                   (string= prefix name :end2 (length prefix)))
          (pushnew name names :test #'string=))))
    (setf names (sort names (lambda (a b) (or (< (length a) (length b))
                                              (and (= (length a) (length b)) (string< a b))))))
    (ok-reply request
              "completions" (subseq names 0 (min limit (length names)))
              "total" (length names))))

(defun complete (request)
  "Symbols whose names start with the prefix, visible from the session package, or external
(internal with ::) in the named package; with what \"packages\", package names instead."
  (when (equal (getf request :what) "packages")
    (return-from complete (complete-package-names request)))
  (let* ((text (or (getf request :prefix) ""))
         (limit (option (getf request :options) :limit 200))
         (colon (position #\: text))
         (double (and colon (< (1+ colon) (length text)) (char= (char text (1+ colon)) #\:)))
         (package (cond ((null colon) *session-package*)
                        ((zerop colon) (find-package "KEYWORD"))
                        (t (find-package (string-upcase (subseq text 0 colon))))))
         (prefix (string-upcase (if colon (string-left-trim ":" (subseq text colon)) text)))
         (qualifier (cond ((null colon) "")
                          ((zerop colon) ":")
                          (t (concatenate 'string (subseq text 0 colon) (if double "::" ":")))))
         (names '()))
    (when package
      (flet ((consider (symbol)
               (let ((name (symbol-name symbol)))
                 (when (and (<= (length prefix) (length name))
                            (string= prefix name :end2 (length prefix)))
                   (pushnew (string-downcase name) names :test #'string=)))))
        (cond ((null colon) (do-symbols (s package) (consider s)))
              (double (do-symbols (s package) (when (eq (symbol-package s) package) (consider s))))
              (t (do-external-symbols (s package) (consider s))))))
    (setf names (sort names (lambda (a b) (or (< (length a) (length b))
                                              (and (= (length a) (length b)) (string< a b))))))
    (ok-reply request
              "completions" (mapcar (lambda (n) (concatenate 'string qualifier n))
                                    (subseq names 0 (min limit (length names))))
              "total" (length names))))

(define-operation "complete" :service #'complete)

(defun arglist (request)
  (let* ((symbol (find-symbol-designator (or (getf request :name) "")))
         (text (and symbol (fboundp symbol) (lambda-list-text symbol))))
    (ok-reply request
              "name" (if symbol (let ((*package* *session-package*)) (prin1-to-string symbol)) :null)
              "kind" (cond ((null symbol) "unknown")
                           ((special-operator-p symbol) "special-operator")
                           ((macro-function symbol) "macro")
                           ((and (fboundp symbol) (typep (fdefinition symbol) 'generic-function))
                            "generic-function")
                           ((fboundp symbol) "function")
                           (t "unbound"))
              "lambda_list" (or text :null))))

(define-operation "arglist" :service #'arglist)

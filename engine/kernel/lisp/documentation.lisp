;;;; documentation: every docstring a name has (function, variable, type, setf,
;;;; compiler-macro, method-combination, and the package's when the name is a package's),
;;;; with its kinds and lambda list. ECL ships docstrings for the standard's symbols (in its
;;;; help file, read on demand by DOCUMENTATION); the user's come from their definitions.
;;;; Runs on the service thread: DOCUMENTATION is generic and a user's method on it runs
;;;; under the service time limit.

(in-package "LISP-DUET.KERNEL")

(defparameter *documentation-types*
  '(("function" . function) ("variable" . variable) ("type" . type) ("structure" . structure)
    ("setf" . setf) ("compiler-macro" . compiler-macro)
    ("method-combination" . method-combination))
  "The documentation types asked for a symbol, as the reply names them.")

(defun symbol-documentation (symbol)
  "(kind text) for each documentation type of SYMBOL that has a docstring; a function's and its
compiler macro's told apart (FUNCTION-DOCUMENTATION)."
  (multiple-value-bind (function compiler-macro) (function-documentation symbol)
    (loop for (kind . doc-type) in *documentation-types*
          for text = (case doc-type
                       (function function)
                       (compiler-macro compiler-macro)
                       (t (ignore-errors (documentation symbol doc-type))))
          when (and (stringp text) (plusp (length text)))
            collect (list kind (string-trim '(#\Newline #\Space) text)))))

(defun named-package (text)
  (let ((name (string-left-trim ":" text)))
    (and (plusp (length name))
         (not (find #\: name))
         (or (find-package name) (find-package (string-upcase name))))))

(defun documentation-op (request)
  (with-service-time-limit (request) (documentation-op-1 request)))

(defun documentation-op-1 (request)
  (let* ((text (string-trim " " (or (getf request :name) "")))
         (home (resolve-package (getf request :package)))
         (package (named-package text)))
    (when (zerop (length text))
      (return-from documentation-op-1
        (failed-reply (getf request :id) "BAD-REQUEST"
                      "documentation needs a symbol name in \"name\", e.g. \"mapcar\" or \"my-package:frob\".")))
    (unless home
      (return-from documentation-op-1
        (ok-reply request "found" :false
                  "message" (format nil "The package ~S does not exist." (getf request :package)))))
    (multiple-value-bind (symbol found) (parse-symbol-text text home)
      (let* ((*package* *session-package*)
             (docs (append (and found (symbol-documentation symbol))
                           (let ((doc (and package (ignore-errors (documentation package t)))))
                             (and (stringp doc) (list (list "package" doc)))))))
        (if (not (or found package))
            (ok-reply request "found" :false
                      "message" (format nil "No symbol named ~A is accessible in ~A, and no package has that name. Try apropos to find it."
                                        text (package-name home)))
            (ok-reply request
                      "found" t
                      "name" (if found (session-print symbol) (package-name package))
                      "package" (if (and found (symbol-package symbol))
                                    (package-name (symbol-package symbol))
                                    :null)
                      "standard" (if (and found (eq (symbol-package symbol) (find-package "CL"))) t :false)
                      "kinds" (append (and found (symbol-kinds symbol)) (and package (list "package")))
                      "lambda_list" (or (and found (fboundp symbol) (lambda-list-text symbol)) :null)
                      "documentation" (apply #'obj (loop for (kind doc) in docs append (list kind doc)))))))))

(define-operation "documentation" :service #'documentation-op)

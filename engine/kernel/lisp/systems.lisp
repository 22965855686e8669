;;;; load-system: ASDF systems, with ASDF itself loaded on first use (it costs ~265 ms at
;;;; start-up otherwise). Directories in LISP_DUET_SYSTEM_PATHS (colon-separated) are
;;;; searched, with their subdirectories, before ASDF's usual source registry.

(in-package "LISP-DUET.KERNEL")

(defvar *registry-paths* :unset "The LISP_DUET_SYSTEM_PATHS the source registry was built from.")

(defun asdf-symbol (name)
  (or (find-symbol name "ASDF") (error "ASDF has no ~A." name)))

(defun ensure-asdf ()
  (unless (find-package "ASDF")
    (let ((before (list-all-packages)))
      (let ((*standard-output* (make-broadcast-stream)) (*load-verbose* nil))
        (require :asdf))
      (setf *system-packages* (union *system-packages*
                                     (set-difference (list-all-packages) before)))))
  (let ((paths (or (ext:getenv "LISP_DUET_SYSTEM_PATHS") "")))
    (unless (equal paths *registry-paths*)
      (let ((directories (loop for start = 0 then (1+ end)
                               for end = (or (position #\: paths :start start) (length paths))
                               for part = (subseq paths start end)
                               when (plusp (length part))
                                 collect (list :tree (if (char= (char part (1- (length part))) #\/)
                                                         part
                                                         (concatenate 'string part "/")))
                               while (< end (length paths)))))
        (funcall (asdf-symbol "INITIALIZE-SOURCE-REGISTRY")
                 `(:source-registry ,@directories :inherit-configuration))
        (setf *registry-paths* paths)))))

(defun system-version (system)
  (let ((version (ignore-errors (funcall (asdf-symbol "COMPONENT-VERSION") system))))
    (if (and (stringp version) (plusp (length version))) version nil)))

(defun load-system-op (request)
  (let ((name (string-downcase (string-trim " " (or (getf request :system) ""))))
        (force (eq (getf request :force) t))
        (verbose (eq (getf request :verbose) t))
        (compiler-output "")
        (load-warnings '()))
    (run-job request
             (lambda ()
               (ensure-asdf)
               (let ((before (list-all-packages)))
                 (setf compiler-output
                       (with-output-to-string (log)
                         (let ((*standard-output* (if verbose log (make-broadcast-stream)))
                               (*error-output* (if verbose log (make-broadcast-stream)))
                               (*compile-verbose* verbose) (*compile-print* verbose)
                               (*load-verbose* verbose))
                           (let ((system (funcall (asdf-symbol "FIND-SYSTEM") name nil)))
                             (unless system
                               (error (asdf-symbol "MISSING-COMPONENT") :requires name)))
                           (handler-bind ((warning (lambda (c)
                                                     (push (warning-text c) load-warnings)
                                                     (muffle-warning c))))
                             (funcall (asdf-symbol "LOAD-SYSTEM") name :force force)))))
                 (setf *system-packages* (union *system-packages*
                                                (set-difference (list-all-packages) before))))
               (let ((system (funcall (asdf-symbol "FIND-SYSTEM") name nil)))
                 (list "system" name
                       "version" (or (system-version system) :null)
                       "forced" (if force t :false)
                       "load_warnings" (reverse load-warnings)
                       "compiler_output" (if verbose compiler-output :null)
                       "source_file" (or (ignore-errors
                                          (namestring (funcall (asdf-symbol "SYSTEM-SOURCE-FILE") system)))
                                         :null)))))))

(define-operation "load-system" :worker #'load-system-op)

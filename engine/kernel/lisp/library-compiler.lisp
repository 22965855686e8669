;;;; Libraries at once (issue 39), part 2: the background compiler process. An engine that
;;;; loaded a library as bytecode starts `lisp-duet-engine --compile-library REQUEST` (niced;
;;;; it ends with the engine, PR_SET_PDEATHSIG), which boots the same ECL and kernel and runs
;;;; LIBRARY-COMPILER-MAIN instead of the supervisor: plain ASDF compiling the system natively,
;;;; with the compiler flags for libraries below.
;;;;
;;;; Each process writes into a folder of its own beside each of ASDF's output folders
;;;; (.lisp-duet-build-PID/: same file system), seeded with hard links to the native files
;;;; the cache already has (their dates are what ASDF compares), and puts each file it
;;;; compiled into ASDF's cache atomically (a hard link under a temporary name, then rename:
;;;; %PUBLISH-FILE), the .o before the .fas, as soon as it is compiled. Two processes (a second
;;;; Lisp Duet, plain ECL) never see a half-written file, and ASDF's cache stays ASDF's own:
;;;; plain ECL loads what we compiled. A file that does not compile natively ends the system's
;;;; compile (the files after it were compiled against it): the session keeps them bytecode.
;;;;
;;;; What it says, one form a line on its standard output, read by library-native.lisp:
;;;;   (:lisp-duet :plan SYSTEM N)            N files to compile
;;;;   (:lisp-duet :compiled SYSTEM SOURCE K N)
;;;;   (:lisp-duet :failed SYSTEM SOURCE REASON)   SOURCE may be NIL
;;;;   (:lisp-duet :done SYSTEM)

(in-package "LISP-DUET.KERNEL")

(defvar *compiler-report-stream* nil "Where the compiler process says what it did.")
(defvar *private-build-directories* '() "The folders of our own this process made.")
(defvar *compiled-count* 0)
(defvar *files-to-compile* 0)
(defvar *compiling-system* nil)

(defun report-compiler (&rest form)
  (with-standard-io-syntax
    (let ((*print-readably* nil))
      (prin1 (list* :lisp-duet form) *compiler-report-stream*)))
  (terpri *compiler-report-stream*)
  (force-output *compiler-report-stream*))

;;; The compiler flags for libraries (measured: tests/bench, bench_libraries). gcc is 70-90 %
;;; of a native compile. A precompiled ecl.h, no -g and -O1: cl-ppcre's compile went from
;;; 13.1 to 7.4 s of CPU and its scan loop ran as fast. The session's own definitions keep
;;; (debug 3) and their own gcc line (native-compiler.lisp); these are libraries, compiled at
;;; ECL's default policy as ASDF always compiled them.

(defun without-words (text unwanted)
  (format nil "~{~A~^ ~}" (remove-if (lambda (word) (member word unwanted :test #'string=)) (words text))))

(defun use-library-compiler-flags ()
  (setf (symbol-value (c-symbol "*USE-PRECOMPILED-HEADERS*")) t
        (symbol-value (c-symbol "*CC-OPTIMIZE*")) "-O1"
        (symbol-value (c-symbol "*CC-FLAGS*"))
        (without-words (symbol-value (c-symbol "*CC-FLAGS*")) '("-g" "-O2" "-O3"))))

;;; Our own folder beside each of ASDF's.

(defun private-build-directory (directory)
  (format nil "~A.lisp-duet-build-~D/" directory (%process-id)))

(defun build-directory-owner (name)
  "The process id in NAME when NAME is one a compiler process makes, .lisp-duet-build-PID (PID
all digits), else NIL: a folder that merely starts the same way is never taken for one (the
sweep of native-compiler.lisp took a test's lisp-duet-native-9Lbnwt for process 9's)."
  (let ((start (length ".lisp-duet-build-")))
    (when (and (> (length name) start) (every #'digit-char-p (subseq name start)))
      (parse-integer name :start start))))

(defun sweep-dead-build-directories (directory)
  "Removes the folders of compiler processes that were killed (a process that ends normally
removes its own)."
  (dolist (folder (ignore-errors (directory (concatenate 'string directory ".lisp-duet-build-*/"))))
    (let ((pid (build-directory-owner (car (last (pathname-directory folder))))))
      (when (and pid (/= pid (%process-id)) (not (ext:file-kind (format nil "/proc/~D" pid) nil)))
        (remove-native-directory folder)))))

(defun private-twin (shared)
  "Where this process keeps SHARED (a native output file in ASDF's cache): in its own folder
beside it, seeded with a hard link to SHARED when that exists."
  (let* ((directory (directory-namestring shared))
         (folder (private-build-directory directory))
         (twin (concatenate 'string folder (file-namestring shared))))
    (unless (member folder *private-build-directories* :test #'string=)
      (ensure-directories-racing folder)
      (sweep-dead-build-directories directory)
      (push folder *private-build-directories*))
    (when (and (probe-file shared) (not (probe-file twin)))
      (mp:without-interrupts (%publish-file shared twin)))
    twin))

(defvar *twins* (make-hash-table :test #'equal))

(defvar *publishing-method* nil "Our PERFORM :around that publishes what was compiled.")

(defun private-output-files (files)
  "Our own folder's twins of FILES, while the method that publishes them is in force (a
library's method on the same classes would replace it: library-tiers.lisp); FILES otherwise."
  (if (not (asdf-method-in-force-p *publishing-method* "PERFORM"))
      files
      (private-twins files)))

(defun private-twins (files)
  (mapcar (lambda (file)
            (let ((shared (namestring file)))
              (pathname (or (gethash shared *twins*)
                            (setf (gethash shared *twins*) (private-twin shared))))))
          files))

(defun shared-twin (private)
  (block found
    (maphash (lambda (shared twin) (when (string= twin (namestring private)) (return-from found shared)))
             *twins*)))

(defun publish-compiled (operation component)
  "Puts the files COMPONENT's compile made into ASDF's cache, the object before the .fas (ASDF
wants both; a .fas alone would be reloaded, an .o alone recompiled)."
  (dolist (private (reverse (funcall (asdf-symbol "OUTPUT-FILES") operation component)))
    (let ((shared (shared-twin private)))
      (when shared
        (ensure-directories-racing shared)
        (let ((problem (mp:without-interrupts (%publish-file (namestring private) shared))))
          (when problem
            (error "Could not put ~A into ASDF's cache: ~A" shared problem))))))
  (report-compiler :compiled *compiling-system* (component-source component)
                   (incf *compiled-count*) (max *compiled-count* *files-to-compile*)))

(defun lisp-source-file-p (component)
  (typep component (asdf-symbol "CL-SOURCE-FILE")))

(defun install-private-outputs ()
  ;; SOURCE-FILE: asdf-flv, loaded here with FiveAM, replaced our methods on CL-SOURCE-FILE
  ;; (library-tiers.lisp), and the files compiled after it were never published.
  (eval `(defmethod ,(asdf-symbol "OUTPUT-FILES") :around ((operation ,(asdf-symbol "COMPILE-OP"))
                                                           (component ,(asdf-symbol "SOURCE-FILE")))
           (if (lisp-source-file-p component)
               (private-output-files (call-next-method))
               (call-next-method))))
  (setf *publishing-method*
        (eval `(defmethod ,(asdf-symbol "PERFORM") :around ((operation ,(asdf-symbol "COMPILE-OP"))
                                                            (component ,(asdf-symbol "SOURCE-FILE")))
                 (if (lisp-source-file-p component)
                     (handler-bind ((error (lambda (condition)
                                             (report-compiler :failed *compiling-system* (component-source component)
                                                              (one-line (condition-message condition)))
                                             (throw 'compile-failed 1))))
                       (multiple-value-prog1 (call-next-method)
                         (publish-compiled operation component)))
                     (call-next-method)))))
  (eval `(defmethod ,(asdf-symbol "PERFORM-PLAN") :around ((steps list) &key force &allow-other-keys)
           (setf *files-to-compile* (or (ignore-errors (count-files-to-compile steps force)) 0))
           (report-compiler :plan *compiling-system* *files-to-compile*)
           (call-next-method))))

(defun remove-private-build-directories ()
  (dolist (folder *private-build-directories*)
    (remove-native-directory folder)))

;;; The request, written by the engine: a plist read with the standard syntax, no #. .

(defun read-compile-request (file)
  (with-open-file (in file)
    (with-standard-io-syntax
      (let ((*read-eval* nil)) (read in)))))

(defun compile-library-request (request)
  (let ((system (getf request :system)))
    (setf *compiling-system* system)
    (let ((*standard-output* (make-broadcast-stream))
          (*error-output* (make-broadcast-stream))
          (*load-verbose* nil) (*compile-verbose* nil) (*compile-print* nil)
          ;; A file without IN-PACKAGE is read in CL-USER, as ASDF in plain ECL and our
          ;; bytecode (library-tiers.lisp) read it: in the kernel's package, its .fas named
          ;; LISP-DUET.KERNEL, and plain ECL could not load it from the shared cache.
          (*package* (find-package "COMMON-LISP-USER")))
      (require :asdf)
      (require :cmp)
      (use-library-compiler-flags)
      (let ((features (getf request :features)))
        (when features (setf *features* (union *features* features))))
      (funcall (asdf-symbol "INITIALIZE-SOURCE-REGISTRY") (getf request :registry))
      (dolist (asd (getf request :asd-files))
        (ignore-errors (funcall (asdf-symbol "LOAD-ASD") asd)))
      (install-private-outputs)
      (let ((failure (find-symbol "*COMPILE-FILE-FAILURE-BEHAVIOUR*" "UIOP")))
        ;; A file ECL compiled with errors (a form replaced by a call to ERROR) is a failure.
        (progv (list failure) (list :error)
          (funcall (asdf-symbol "LOAD-SYSTEM") system))))
    (report-compiler :done system)
    0))

(defun library-compiler-main ()
  "The compiler process's whole life; returns its exit code."
  (setf *compiler-report-stream* *standard-output*)
  (let ((request-file (second (member "--compile-library" ext:*command-args* :test #'string=)))
        (request nil))
    (unwind-protect
         (catch 'compile-failed
           (handler-case (progn (setf request (read-compile-request request-file))
                                (compile-library-request request))
             (serious-condition (condition)
               (report-compiler :failed (getf request :system) nil
                                (format nil "~A: ~A" (condition-type-name condition)
                                        (one-line (condition-message condition))))
               1)))
      (remove-private-build-directories))))

;;;; load-system: ASDF systems, with ASDF itself loaded on first use (it costs ~265 ms at
;;;; start-up otherwise). The project root (project-root) and the directories in
;;;; LISP_DUET_SYSTEM_PATHS (colon-separated) are searched, with their subdirectories, before
;;;; ASDF's usual source registry.

(in-package "LISP-DUET.KERNEL")

(defvar *registry-paths* :unset
  "The LISP_DUET_SYSTEM_PATHS and project root the source registry was built from.")
(defvar *project-root* nil
  "The project's root directory (a string ending in /), set by the project-root operation:
ASDF searches it with its subdirectories, and it is *DEFAULT-PATHNAME-DEFAULTS*.")

(defun asdf-symbol (name)
  (or (find-symbol name "ASDF") (error "ASDF has no ~A." name)))

(defun directory-text (text)
  (if (char= (char text (1- (length text))) #\/) text (concatenate 'string text "/")))

(defun registry-directories (paths)
  "The (:tree dir) entries of the source registry: the project root first, then the
directories of LISP_DUET_SYSTEM_PATHS (colon-separated)."
  (append (when *project-root* (list (list :tree *project-root*)))
          (loop for start = 0 then (1+ end)
                for end = (or (position #\: paths :start start) (length paths))
                for part = (subseq paths start end)
                when (plusp (length part))
                  collect (list :tree (directory-text part))
                while (< end (length paths)))))

;;; The project's own systems are compiled for debugging. At ECL's default policy natively
;;; compiled functions push no frame: an error in the person's project, loaded with ASDF,
;;; showed one frame in the debugger, the built-in that failed (`(* ...)`), and no locals.
;;; Compiled at (debug 3) they keep their frames, arguments and locals. Libraries (outside the
;;; project root) keep ECL's default: their speed is not the person's to trade. A file's own
;;; (declaim (optimize (debug 0))) still wins, since it is declared inside the compilation.

(defconstant +project-debug-level+ 3)

(defun project-component-p (component)
  "True when COMPONENT's file or folder is under the project root."
  (let ((path (and *project-root*
                   (ignore-errors (namestring (funcall (asdf-symbol "COMPONENT-PATHNAME") component))))))
    (and path
         ;; ASDF's pathnames are truenames: a root reached through a symbolic link differs.
         (some (lambda (root) (and root (eql 0 (search root path))))
               (list *project-root* (ignore-errors (namestring (truename *project-root*))))))))

(defun debugging-compilation (inner-hook)
  "An ASDF around-compile hook: INNER-HOOK (the component's own, or NIL) run with ECL's
compiler policy at +PROJECT-DEBUG-LEVEL+."
  (lambda (compile)
    (unless (find-symbol "*DEBUG*" "C") ; the native compiler, loaded on its first use
      (require-native-compiler))
    (progv (list (find-symbol "*DEBUG*" "C")) (list +project-debug-level+)
      (if inner-hook
          (funcall (find-symbol "CALL-FUNCTION" "UIOP") inner-hook compile)
          (funcall compile)))))

(defvar *project-debugging* nil
  "True once ASDF compiles the project's components through DEBUGGING-COMPILATION.")

;;; Progress of a long load: a library's first load compiles every file with gcc (alexandria
;;; ~10 s, larger systems minutes). While a job runs, each file ASDF compiles is announced:
;;;   {"event":"progress","id":JOB,"operation":"compile-file","current":K,"total":N,
;;;    "file":PATH,"component":"system/name","message":"compiling file K of N: name.lisp"}
;;; N counts the files of the plan that need compiling (ASDF's own test of their dates).

(defvar *load-progress* nil "(CURRENT . TOTAL) of the plan ASDF performs, bound per plan.")

(defun count-files-to-compile (steps force)
  (let ((compile-op (find-class (asdf-symbol "COMPILE-OP") nil))
        (source-file (find-class (asdf-symbol "CL-SOURCE-FILE") nil))
        (stamp (asdf-symbol "COMPUTE-ACTION-STAMP")))
    (count-if (lambda (step)
                (and (consp step)
                     (typep (car step) compile-op)
                     (typep (cdr step) source-file)
                     (or force (not (ignore-errors (nth-value 1 (funcall stamp nil (car step) (cdr step))))))))
              steps)))

(defun call-counting-plan (steps force next)
  (let ((*load-progress* (cons 0 (or (ignore-errors (count-files-to-compile steps force)) 0))))
    (funcall next)))

(defun announce-file-compile (component)
  (when (and *running-job* *load-progress*)
    (let* ((current (incf (car *load-progress*)))
           (total (max current (cdr *load-progress*)))
           (file (ignore-errors (namestring (funcall (asdf-symbol "COMPONENT-PATHNAME") component))))
           (name (or (and file (file-namestring file))
                     (ignore-errors (funcall (asdf-symbol "COMPONENT-NAME") component))
                     "?")))
      (ignore-errors
       (send-event "progress" "id" *running-job* "operation" "compile-file"
                   "current" current "total" total
                   "file" (or file :null)
                   "component" (or (ignore-errors (format nil "~{~A~^/~}"
                                                          (funcall (asdf-symbol "COMPONENT-FIND-PATH") component)))
                                   :null)
                   "message" (format nil "compiling file ~D of ~D: ~A" current total name))))))

(defun install-load-progress ()
  (without-noting-definitions
    (eval `(defmethod ,(asdf-symbol "PERFORM-PLAN") :around ((steps list) &key force &allow-other-keys)
             ;; Library files not yet native in ASDF's cache load as bytecode (library-tiers.lisp).
             (call-with-library-tiers steps force
                                      (lambda () (call-counting-plan steps force #'call-next-method)))))
    (eval `(defmethod ,(asdf-symbol "PERFORM") :before ((operation ,(asdf-symbol "COMPILE-OP"))
                                                        (component ,(asdf-symbol "CL-SOURCE-FILE")))
             (announce-file-compile component)))))

(defun install-project-debugging ()
  "Makes ASDF compile the project's components through DEBUGGING-COMPILATION, and announce
the files it compiles."
  (install-load-progress)
  (install-library-tiers)
  (without-noting-definitions
    (eval `(defmethod ,(asdf-symbol "AROUND-COMPILE-HOOK") :around ((component ,(asdf-symbol "COMPONENT")))
             (let ((inner (call-next-method)))
               (if (project-component-p component) (debugging-compilation inner) inner)))))
  (setf *project-debugging* t))

(defun debug-project-compilation ()
  "Called before each job: once ASDF is loaded, by our tools or by the person's own (require
:asdf), the project's systems compile for debugging and ASDF searches our folders."
  (unless *project-debugging*
    (when (asdf-loaded-p)
      (install-project-debugging)
      (hook-source-registry))))

(defun library-directories ()
  "The (:tree dir) entries for the folders where Lisp programmers keep libraries, those that
exist: ~/common-lisp/, ~/.local/share/common-lisp/source/ and Debian's
/usr/share/common-lisp/source/. ASDF's defaults name them too, unless XDG_DATA_HOME or
XDG_DATA_DIRS say otherwise; listed here, they are searched whatever the environment says.
(A project's ocicl/ folder is under the project root, which is searched with its subfolders.)"
  (let ((home (ignore-errors (namestring (user-homedir-pathname)))))
    (loop for directory in (list (and home (concatenate 'string (directory-text home) "common-lisp/"))
                                 (and home (concatenate 'string (directory-text home) ".local/share/common-lisp/source/"))
                                 "/usr/share/common-lisp/source/")
          when (and directory (eq (ext:file-kind directory t) :directory))
            collect (list :tree directory))))

(defun lisp-duet-source-registry ()
  "Our part of ASDF's configuration, consulted first among its defaults: whatever the person's
own code (the init file, Quicklisp's setup.lisp) gives INITIALIZE-SOURCE-REGISTRY with
:INHERIT-CONFIGURATION keeps the project root and the library folders, and a new root does
not undo what that code registered."
  `(:source-registry ,@(registry-directories (or (ext:getenv "LISP_DUET_SYSTEM_PATHS") ""))
                     ,@(library-directories)
                     :inherit-configuration))

(defvar *source-registry-hooked* nil)

(defun rebuild-source-registry ()
  "Builds ASDF's registry again with the parameter last given to INITIALIZE-SOURCE-REGISTRY
(the person's, if their code gave one): CLEAR-SOURCE-REGISTRY would forget it, since ASDF
builds a cleared registry with none."
  (funcall (asdf-symbol "INITIALIZE-SOURCE-REGISTRY")
           (symbol-value (find-symbol "*SOURCE-REGISTRY-PARAMETER*" "ASDF/SOURCE-REGISTRY"))))

(defun hook-source-registry ()
  (unless *source-registry-hooked*
    (let ((defaults (find-symbol "*DEFAULT-SOURCE-REGISTRIES*" "ASDF/SOURCE-REGISTRY")))
      (pushnew 'lisp-duet-source-registry (symbol-value defaults))
      (setf *source-registry-hooked* t)
      ;; A registry ASDF already built without us is built again, with us.
      (when (funcall (find-symbol "SOURCE-REGISTRY-INITIALIZED-P" "ASDF/SOURCE-REGISTRY"))
        (rebuild-source-registry)))))

(defun ensure-asdf ()
  (unless (asdf-loaded-p)
    (let ((before (list-all-packages)))
      (let ((*standard-output* (make-broadcast-stream)) (*load-verbose* nil))
        (require :asdf))
      (setf *system-packages* (union *system-packages*
                                     (set-difference (list-all-packages) before)))))
  (debug-project-compilation)
  (hook-source-registry)
  (let ((key (cons (or (ext:getenv "LISP_DUET_SYSTEM_PATHS") "") *project-root*)))
    (unless (equal key *registry-paths*)
      (rebuild-source-registry)
      (setf *registry-paths* key))))

(defun find-system-anew (name)
  "The system NAME, or NIL. ASDF scans the registry's trees once: a system whose .asd
appeared since (the person just wrote it) is found after a new scan."
  (let ((*load-verbose* nil)) ; ";;; Loading x.asd" says nothing useful here
    (or (funcall (asdf-symbol "FIND-SYSTEM") name nil)
        (progn (setf *registry-paths* :unset)
               (ensure-asdf)
               (funcall (asdf-symbol "FIND-SYSTEM") name nil)))))

(defun system-version (system)
  (let ((version (ignore-errors (funcall (asdf-symbol "COMPONENT-VERSION") system))))
    (if (and (stringp version) (plusp (length version))) version nil)))

(defun compiler-message-place (condition)
  "(file . offset) of an ECL compiler message (its FILE and POSITION slots), or NIL."
  (let* ((slots (ignore-errors (mapcar #'clos:slot-definition-name (clos:class-slots (class-of condition)))))
         (file (find "FILE" slots :key #'symbol-name :test #'string=))
         (position (find "POSITION" slots :key #'symbol-name :test #'string=)))
    (when (and file position (slot-boundp condition file) (slot-boundp condition position)
               (slot-value condition file) (integerp (slot-value condition position)))
      (cons (slot-value condition file) (slot-value condition position)))))

(defun line-of-offset (file offset)
  "The 1-based line of the form at byte OFFSET in FILE, or NIL. ECL's offset is where the reader
started: before the blank lines and comments in front of the form."
  (ignore-errors
   (with-open-file (in file :element-type '(unsigned-byte 8))
     (let ((line (1+ (loop repeat offset for byte = (read-byte in nil) while byte count (= byte 10)))))
       (loop for byte = (read-byte in nil)
             do (case byte
                  ((32 9 13) nil)
                  (10 (incf line))
                  (59 (loop for b = (read-byte in nil) until (or (null b) (= b 10)))
                   (incf line))
                  (t (return))))
       line))))

(defun load-warning-text (condition)
  "A load warning as people read it: ECL says where the form is as \"position 2041\" (a file
offset); the line is what an editor shows."
  (let* ((text (warning-text condition))
         (place (compiler-message-place condition))
         (mark (and place (format nil "position ~D" (cdr place))))
         (at (and mark (search mark text)))
         (line (and at (line-of-offset (car place) (cdr place)))))
    (if line
        (concatenate 'string (subseq text 0 at) (format nil "line ~D" line) (subseq text (+ at (length mark))))
        text)))

(defun muffle-missing-static-file (warning)
  "ASDF warns on every test-op, and on every load after the first, that a library's static file
is missing (Debian strips trivial-backtrace's COPYING and esrap's README.org): noise about
someone else's package, not about the code."
  (when (search "completed without its input file" (or (ignore-errors (princ-to-string warning)) ""))
    (muffle-warning warning)))

(defun load-system-op (request)
  (let ((name (string-downcase (string-trim " " (or (getf request :system) ""))))
        (force (eq (getf request :force) t))
        (verbose (eq (getf request :verbose) t))
        (compiler-output "")
        (load-warnings '())
        (*job-libraries* '()))
    (run-job request
             (lambda ()
               (ensure-asdf)
               ;; What the library loads is compiled by ASDF: its definitions and
               ;; proclamations are not the session's own (native.lisp).
               (let ((*noting-definitions* nil))
               (let ((before (list-all-packages)))
                 (setf compiler-output
                       (with-output-to-string (log)
                         (let ((*standard-output* (if verbose log (make-broadcast-stream)))
                               (*error-output* (if verbose log (make-broadcast-stream)))
                               ;; cffi-toolchain writes its gcc command lines to *debug-io*.
                               (*debug-io* (make-two-way-stream (make-concatenated-stream)
                                                                (if verbose log (make-broadcast-stream))))
                               (*compile-verbose* verbose) (*compile-print* verbose)
                               (*load-verbose* verbose))
                           (let ((system (find-system-anew name)))
                             (unless system
                               (error (asdf-symbol "MISSING-COMPONENT") :requires name)))
                           (handler-bind ((warning (lambda (c)
                                                     (muffle-missing-static-file c)
                                                     (push (load-warning-text c) load-warnings)
                                                     (muffle-warning c))))
                             (funcall (asdf-symbol "LOAD-SYSTEM") name :force force)))))
                 (setf *system-packages* (union *system-packages*
                                                (set-difference (list-all-packages) before)))))
               (let ((system (funcall (asdf-symbol "FIND-SYSTEM") name nil)))
                 (list "system" name
                       "version" (or (system-version system) :null)
                       "forced" (if force t :false)
                       "load_warnings" (reverse load-warnings)
                       "compiler_output" (if verbose compiler-output :null)
                       ;; What each library of the plan runs as: native, or bytecode for now
                       ;; (library-native.lisp).
                       "libraries" (library-objects *job-libraries*)
                       "source_file" (or (ignore-errors
                                          (namestring (funcall (asdf-symbol "SYSTEM-SOURCE-FILE") system)))
                                         :null)))))))

(define-operation "load-system" :worker #'load-system-op)

;;; project-root: where the person's project lives. It runs on the worker, in order with the
;;; jobs and never beside one, so ASDF's registry is never rebuilt under a running load.

(defun set-project-root (request)
  (let* ((text (getf request :root))
         (directory (and (stringp text) (plusp (length text)) (directory-text text))))
    (cond ((null directory)
           (failed-reply (getf request :id) "BAD-REQUEST"
                         "project-root needs the absolute path of a directory in \"root\"."))
          ((not (and (char= (char directory 0) #\/) (eq (ext:file-kind directory t) :directory)))
           (failed-reply (getf request :id) "BAD-REQUEST"
                         (format nil "The project root ~A is not an existing absolute directory: give the absolute path of one." text)))
          (t
           (setf *project-root* directory
                 *default-pathname-defaults* (pathname directory))
           ;; With ASDF loaded the registry follows now, so that (asdf:load-system "x") finds the
           ;; project's systems; otherwise when ENSURE-ASDF or the user loads ASDF: CL_SOURCE_REGISTRY
           ;; is what ASDF reads when it builds its registry.
           (if (asdf-loaded-p)
               (ensure-asdf)
               (ext:setenv "CL_SOURCE_REGISTRY"
                           (with-standard-io-syntax
                             (prin1-to-string
                              `(:source-registry
                                ,@(registry-directories (or (ext:getenv "LISP_DUET_SYSTEM_PATHS") ""))
                                :inherit-configuration)))))
           (ok-reply request "root" directory)))))

(define-operation "project-root" :worker #'set-project-root)

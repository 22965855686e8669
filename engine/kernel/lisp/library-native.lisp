;;;; Libraries at once (issue 39), part 3: native code in the background. A library loaded as
;;;; bytecode (library-tiers.lisp) is queued here (loaded again with its native files current
;;;; in ASDF's cache, it goes straight to the swap); threads of this engine, at most one per
;;;; processor but one, each run a compiler process (library-compiler.lisp) for the next
;;;; system whose dependencies are not waiting, read what it says, and hand a compiled system
;;;; to the swap (library-swap.lisp). What each library is in this engine goes to the host
;;;; (the event "libraries", the operations "libraries" and "library-warmup", load-system's
;;;; reply).

(in-package "LISP-DUET.KERNEL")

(defstruct library
  name
  (state :native)  ; :native, :queued, :compiling, :swapping, :partial, :bytecode
  (compiled 0)     ; files the compiler process compiled...
  (total 0)        ; ...of those it had to compile
  reason           ; why (part of) it stays bytecode, or NIL
  pid              ; the compiler process while it runs
  warm-up          ; queued by library-warmup: idle priority, nothing of it is loaded here
  depends-on       ; the names of the systems it depends on, transitively
  (since 0))       ; Unix ms of the latest state

(defvar *libraries* (make-hash-table :test #'equal) "System name -> LIBRARY, those this engine loaded.")
(defvar *library-queue* '() "System names waiting for a compiler process, oldest first.")
(defvar *library-lock* (mp:make-lock :name "lisp-duet libraries"))
(defvar *library-compilers* '() "The threads that run compiler processes.")
(defvar *library-native-off-reason* nil)

(defconstant +compiler-niceness+ 10 "A compiler process yields the processors to the session.")
(defconstant +warm-up-niceness+ 19 "A warm-up compiles only when nothing else wants the processors.")

(defun library-compiler-limit ()
  "Compiler processes at once: one per processor but one (at least one); LISP_DUET_LIBRARY_COMPILERS
overrides it."
  (let ((given (ignore-errors (parse-integer (or (ext:getenv "LISP_DUET_LIBRARY_COMPILERS") "")))))
    (if (and given (plusp given)) given (max 1 (1- (%processor-count))))))

(defun library-native-switched-off ()
  (let ((variable (ext:getenv "LISP_DUET_LIBRARY_NATIVE")))
    (and variable (member (string-downcase variable) '("0" "off" "no" "false") :test #'string=)
         (format nil "Compiling libraries in the background is off (LISP_DUET_LIBRARY_NATIVE=~A): libraries loaded as bytecode stay bytecode in this engine." variable))))

(defun library-native-problem ()
  "Why libraries cannot become native in the background here, or NIL."
  (or (and (not *native-enabled*) "Native compilation is off: libraries loaded as bytecode stay bytecode.")
      (library-native-switched-off)
      *native-toolchain-problem*
      *library-native-off-reason*))

;;; What the host hears.

(defun library-object (library)
  (let ((files (library-files-of (library-name library))))
    (obj "system" (library-name library)
         "state" (string-downcase (symbol-name (library-state library)))
         "compiled" (library-compiled library)
         "total" (library-total library)
         "bytecode_files" (count :bytecode files :key #'library-file-state)
         "native_files" (count :native files :key #'library-file-state)
         "deferred" (loop for file in files
                          unless (member (library-file-state file) '(:native :bytecode))
                            collect (obj "file" (library-file-source file)
                                         "reason" (or (library-file-reason file) :null)))
         "reason" (or (library-reason library) :null)
         "warm_up" (if (library-warm-up library) t :false)
         "pid" (or (library-pid library) :null)
         "since_ms" (library-since library))))

(defun library-objects (&optional names)
  (let ((libraries '()))
    (mp:with-lock (*library-lock*)
      (maphash (lambda (name library)
                 (when (or (null names) (member name names :test #'string=)) (push library libraries)))
               *libraries*))
    (mapcar #'library-object (sort libraries #'string< :key #'library-name))))

(defun send-libraries-event (&rest names)
  (ignore-errors (send-event "libraries" "libraries" (library-objects names)
                             "compilers" (length *library-compilers*))))

(defun set-library-state (library state &optional reason)
  (setf (library-state library) state
        (library-reason library) reason
        (library-since library) (%wall-clock-ms))
  library)

;;; Queueing.

(defun transitive-dependencies (name)
  (let ((seen '()))
    (labels ((visit (system-name)
               (let ((system (ignore-errors (funcall (asdf-symbol "FIND-SYSTEM") system-name nil))))
                 (when system
                   (dolist (dependency (dependency-names system))
                     (unless (member dependency seen :test #'string=)
                       (push dependency seen)
                       (visit dependency)))))))
      (visit name))
    seen))

(defun queue-library (name warm-up)
  "Queues NAME for a compiler process unless it is queued or compiling already."
  (let ((library (or (gethash name *libraries*)
                     (setf (gethash name *libraries*) (make-library :name name)))))
    (unless (member (library-state library) '(:queued :compiling))
      (setf (library-compiled library) 0
            (library-total library) 0
            (library-warm-up library) warm-up
            (library-depends-on library) (transitive-dependencies name))
      (set-library-state library :queued)
      (setf *library-queue* (append *library-queue* (list name))))
    library))

(defun native-files-current-p (name)
  "True when every file of NAME loaded as bytecode has its native file in ASDF's cache, no older
than its source (ASDF's own test, file by file): loaded as bytecode again, it needs the swap
only. A source changed since (the person's edit) needs a compiler process."
  (every (lambda (file)
           (or (eq (library-file-tier file) :native) ; ASDF compiled it natively on the worker
               (let ((native (ignore-errors (file-write-date (library-file-native file))))
                     (source (ignore-errors (file-write-date (library-file-source file)))))
                 (and native source (>= native source)))))
         (library-files-of name)))

(defun compiler-process-needed-p (name compiling)
  "True when NAME, whose bytecode a plan loaded, needs a compiler process: it waits for one or
has one already, a native file of it is not current, or a system it depends on compiles
(COMPILING: those queued by the same plan): its native files were compiled against that one's."
  (flet ((compiles-p (system)
           (let ((library (gethash system *libraries*)))
             (and library (member (library-state library) '(:queued :compiling))))))
    (or (compiles-p name)
        (not (native-files-current-p name))
        (some (lambda (dependency)
                (or (member dependency compiling :test #'string=) (compiles-p dependency)))
              (transitive-dependencies name)))))

(defun libraries-loaded (bytecode-systems systems)
  "Called after an ASDF plan that loaded SYSTEMS (libraries), BYTECODE-SYSTEMS of them with
bytecode files: those go to the compiler processes, or straight to the swap when their native
files are current (loaded again: a compiler process would compile nothing); the others run
native."
  (note-job-libraries systems)
  (let ((problem (library-native-problem))
        (compiling '())
        (current '()))
    (mp:with-lock (*library-lock*)
      (dolist (name systems)
        (let ((library (or (gethash name *libraries*)
                           (setf (gethash name *libraries*) (make-library :name name :since (%wall-clock-ms))))))
          (when (member name bytecode-systems :test #'string=)
            (cond (problem (set-library-state library :bytecode problem))
                  ((compiler-process-needed-p name compiling)
                   (queue-library name nil)
                   (push name compiling))
                  (t (push library current)))))))
    (when compiling
      ;; The worker listens for the swap's requests (library-swap.lisp) until they are done.
      (%expect-worker-posts t)
      (ensure-library-compilers))
    (dolist (library (reverse current))
      (library-compiled-natively library))
    (apply #'send-libraries-event systems)))

(defun next-library-to-compile ()
  "The first queued system none of whose dependencies waits or compiles; taken off the queue."
  (let ((name (find-if (lambda (name)
                         (let ((library (gethash name *libraries*)))
                           (notany (lambda (dependency)
                                     (let ((other (gethash dependency *libraries*)))
                                       (and other (member (library-state other) '(:queued :compiling)))))
                                   (library-depends-on library))))
                       *library-queue*)))
    (when name
      (setf *library-queue* (remove name *library-queue* :test #'string=))
      (gethash name *libraries*))))

(defun ensure-library-compilers ()
  (mp:with-lock (*library-lock*)
    (setf *library-compilers* (remove-if-not #'mp:process-active-p *library-compilers*))
    (loop while (< (length *library-compilers*) (library-compiler-limit))
          do (push (mp:process-run-function "lisp-duet library compiler" #'library-compiler-loop)
                   *library-compilers*))))

(defun library-compiler-loop ()
  "Runs compiler processes while systems are ready to compile, then ends: an idle thread is
not free in ECL (every garbage collection stops each thread with a signal; a workload that
conses ran 1.2x slower beside an idle one on this VM)."
  (let ((*standard-output* (make-broadcast-stream))
        (*error-output* (make-broadcast-stream)))
    (loop
      (let ((library (mp:with-lock (*library-lock*)
                       (let ((next (next-library-to-compile)))
                         (unless next
                           ;; A system waiting for a dependency is taken by the thread that
                           ;; compiles the dependency, when it comes back here.
                           (setf *library-compilers* (remove mp:*current-process* *library-compilers*))
                           (return-from library-compiler-loop nil))
                         (set-library-state next :compiling)
                         next))))
        (send-libraries-event (library-name library))
        (handler-case (compile-library-in-background library)
          (serious-condition (condition)
            (set-library-state library :bytecode
                               (format nil "The background compile failed: ~A" (one-line (condition-message condition))))))
        (mp:with-lock (*library-lock*)
          (setf (library-pid library) nil))
        (send-libraries-event (library-name library))))))

;;; One compiler process.

(defun asd-files-for (name)
  (loop for system-name in (cons name (transitive-dependencies name))
        for system = (ignore-errors (funcall (asdf-symbol "FIND-SYSTEM") system-name nil))
        for file = (and system (ignore-errors (funcall (asdf-symbol "SYSTEM-SOURCE-FILE") system)))
        when file collect (namestring file)))

(defun write-compile-request (library)
  (let ((file (format nil "~Alibrary-~A-~D.request" (native-directory)
                      (substitute-if #\_ (lambda (c) (not (alphanumericp c))) (library-name library))
                      (%monotonic-us))))
    (with-open-file (out file :direction :output :if-exists :supersede)
      (with-standard-io-syntax
        (let ((*print-readably* nil))
          (prin1 (list :system (library-name library)
                       ;; dependencies first: ASDF finds each from its .asd
                       :asd-files (reverse (asd-files-for (library-name library)))
                       :registry (lisp-duet-source-registry)
                       :features (remove-if-not #'keywordp *features*))
                 out))))
    file))

(defun engine-program ()
  (namestring (truename "/proc/self/exe")))

(defun start-compiler-process (request-file niceness)
  (let ((nice (find-on-path "nice"))
        (arguments (list "--compile-library" request-file)))
    (if nice
        (ext:run-program nice (list* "-n" (princ-to-string niceness) (engine-program) arguments)
                         :input nil :output :stream :error :output :wait nil)
        (ext:run-program (engine-program) arguments :input nil :output :stream :error :output :wait nil))))

(defun compiler-line (line)
  "The form of a line the compiler process reported, or NIL for its other output."
  (when (eql 0 (search "(:LISP-DUET" line))
    (ignore-errors
     (with-standard-io-syntax
       (let ((*read-eval* nil)) (read-from-string line))))))

(defun compile-library-in-background (library)
  (let* ((request-file (write-compile-request library))
         (outcome nil)
         (noise '()))
    (multiple-value-bind (stream code process)
        (start-compiler-process request-file (if (library-warm-up library) +warm-up-niceness+ +compiler-niceness+))
      (declare (ignore code))
      (setf (library-pid library) (ignore-errors (ext:external-process-pid process)))
      (unwind-protect
           (loop for line = (and stream (read-line stream nil nil))
                 while line
                 do (let ((form (compiler-line line)))
                      (case (second form)
                        (:plan (setf (library-total library) (fourth form)))
                        (:compiled (setf (library-compiled library) (fifth form)
                                         (library-total library) (sixth form))
                         (send-libraries-event (library-name library)))
                        ((:failed :done) (setf outcome form))
                        ((nil) (push line noise)
                         (when (> (length noise) 20) (setf noise (subseq noise 0 20)))))))
        (ignore-errors (close stream))
        (ignore-errors (delete-file request-file)))
      (multiple-value-bind (status exit-code) (ext:external-process-wait process t)
        (case (second outcome)
          (:done (library-compiled-natively library))
          (:failed
           (set-library-state library :bytecode
                              (if (fourth outcome)
                                  (format nil "~A does not compile natively (~A): it runs as bytecode, and the files after it too."
                                          (file-namestring (fourth outcome)) (fifth outcome))
                                  (format nil "The background compile failed: ~A" (fifth outcome)))))
          (t
           (set-library-state library :bytecode
                              (format nil "The background compiler process ended (~(~A~) ~A) before it finished: it stays bytecode in this session.~@[ It said: ~A~]"
                                      status exit-code (and noise (one-line (first noise)))))))))))

;;; The operations.

(defvar *job-libraries* :none
  "Bound to a list by load-system: the library systems its plans loaded, for its reply.")

(defun note-job-libraries (systems)
  (when (listp *job-libraries*)
    (setf *job-libraries* (union *job-libraries* systems :test #'string=))))

(defun libraries-op (request)
  "libraries: what each library loaded in this engine runs as."
  (ok-reply request "libraries" (library-objects)
                    "compilers" (length *library-compilers*)
                    "compiler_limit" (library-compiler-limit)
                    "available" (if (library-native-problem) :false t)
                    "reason" (or (library-native-problem) :null)))

(define-operation "libraries" :service #'libraries-op)

(defun systems-to-warm (request)
  "The systems REQUEST names and those its dependencies_of depend on, but not the project's own:
they compile at (debug 3) when they load (systems.lisp), never with the library flags."
  (let ((names (mapcar #'string-downcase (remove-if-not #'stringp (getf request :systems))))
        (owners (remove-if-not #'stringp (getf request :dependencies_of))))
    (dolist (owner owners)
      (let ((system (find-system-anew (string-downcase owner))))
        (when system
          (setf names (union names (transitive-dependencies (funcall (asdf-symbol "COMPONENT-NAME") system))
                             :test #'string=)))))
    (remove-if (lambda (name)
                 (let ((system (ignore-errors (funcall (asdf-symbol "FIND-SYSTEM") name nil))))
                   (and system (project-component-p system))))
               names)))

(defun files-to-compile (name)
  "How many of NAME's files (with its dependencies) ASDF would compile natively now, or NIL
when there is no such system."
  (let ((system (find-system-anew name)))
    (when system
      (let* ((operation (funcall (asdf-symbol "MAKE-OPERATION") (asdf-symbol "LOAD-OP")))
             (plan (funcall (asdf-symbol "MAKE-PLAN") nil operation system)))
        (count-files-to-compile (funcall (asdf-symbol "PLAN-ACTIONS") plan) nil)))))

(defun library-warmup-op (request)
  "library-warmup: compiles \"systems\" (and the dependencies of \"dependencies_of\") natively
in the background at idle priority, loading nothing into the session."
  (let ((queued '()) (native '()) (unknown '()))
    (run-job request
             (lambda ()
               (ensure-asdf)
               (let ((*noting-definitions* nil) (problem (library-native-problem)))
                 (when problem (error "~A" problem))
                 (dolist (name (systems-to-warm request))
                   (let ((count (ignore-errors (files-to-compile name))))
                     (cond ((null count) (push name unknown))
                           ((zerop count) (push name native))
                           (t (mp:with-lock (*library-lock*) (queue-library name t))
                              (push name queued)))))
                 (when queued
                   (ensure-library-compilers)
                   (apply #'send-libraries-event queued)))
               (list "queued" (reverse queued) "native" (reverse native) "unknown" (reverse unknown))))))

(define-operation "library-warmup" :worker #'library-warmup-op)

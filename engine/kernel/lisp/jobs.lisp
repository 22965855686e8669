;;;; Jobs that run user code (evaluating, timing, compiling, loading a system, expanding a
;;;; macro) all run through RUN-JOB: the same captured streams, warning records, error
;;;; reports, interrupt catch and reply. The job state the supervisor and the host's
;;;; interrupts share lives here too.

(in-package "LISP-DUET.KERNEL")

(defvar *session-package* (find-package "CL-USER"))
;; Defaults for requests that do not say; the host's configure-limits sets them (set-limits).
(defvar *default-print-length* 100)
(defvar *default-print-level* 10)
(defvar *default-max-output-chars* 100000)
(defvar *running-job* nil
  "Id of the job the worker is running, set only while its JOB-ABORT catch is active, so
that an interrupt for that id can always throw there.")
(defvar *interrupt-lock* (mp:make-lock :name "lisp-duet interrupts"))
(defvar *abortable-job* nil
  "Id of the job whose JOB-ABORT catch encloses the code running now, bound (per thread)
inside that catch. An interrupt throws only when it finds its job here: *RUNNING-JOB* is
global and is cleared by a cleanup form, so an interrupt that ran while a job's stack was
being unwound could still see it set once no catch was left, and its THROW then failed
outside every handler (tst_faults' interrupt storm, about one run in ten under load).")
(defvar *interrupted-before-start* nil
  "Id of a job the host interrupted while it still waited in the worker's mailbox.")

(defun begin-job (id)
  "Marks job ID as running, or throws to JOB-ABORT if it was interrupted while queued.
With the lock, INTERRUPT-JOB either sees the job running or leaves the id for this check."
  (when (mp:with-lock (*interrupt-lock*)
          (setf *running-job* id)
          (eql *interrupted-before-start* id))
    (throw 'job-abort :interrupted)))

(defun option (options key default)
  (let ((value (getf options key :absent)))
    (if (or (eq value :absent) (null value)) default value)))

(defun resolve-package (name)
  (if (or (null name) (and (stringp name) (zerop (length name))))
      *session-package*
      (or (find-package name) (find-package (string-upcase name)))))

;; The stages of StageClock.h that Lisp marks, for bench_stdio_roundtrip's engine figures.
(defconstant +stage-job-begun+ 3)
(defconstant +stage-evaluated+ 4)
(defconstant +stage-printed+ 5)

(defvar *job-warnings* '() "The warnings of the running job, newest first.")
(defvar *noting-definitions* t
  "NIL while the kernel itself defines a method or function with EVAL (ASDF's hooks...): the
background compiler (native.lisp) notes only the session's own definitions.")

(defmacro without-noting-definitions (&body body)
  `(let ((*noting-definitions* nil)) ,@body))

;;; ECL's compiler is loaded by whoever needs it first (native-compiler.lisp says who). Its
;;; module is in *MODULES* before its load has finished, so a plain (REQUIRE :CMP) in one
;;; thread returned while another was still loading it, and the caller met a half-loaded
;;; compiler ("The function C::MAKE-INLINE-INFORMATION is undefined" from compile-form right
;;; after a DEFUN started the background compiler). The loader holds this lock throughout:
;;; every REQUIRE of it goes through REQUIRE-NATIVE-COMPILER, which waits for it.
(defvar *compiler-load-lock* (mp:make-lock :name "lisp-duet native compiler load" :recursive t))

(defconstant +compiler-load-wait-s+ 10
  "How long a thread waits for another's load of the compiler (0.3-1 s as a rule) before it
goes on without the lock: a thread that holds MP:+LOAD-COMPILE-LOCK+ here while the loader
needs it would otherwise wait for ever.")

(defun require-native-compiler ()
  (let ((held nil))
    (unwind-protect
         (progn
           (loop repeat (* 100 +compiler-load-wait-s+)
                 until (mp:without-interrupts
                         (setf held (mp:get-lock *compiler-load-lock* nil)))
                 do (sleep 0.01))
           (let ((*load-verbose* nil))
             (require :cmp)))
      (when held
        (mp:giveup-lock *compiler-load-lock*)))))
(defvar *job-phase* "eval" "What the running job does (read, eval or print): errors say it.")
(defvar *job-final-package* nil "*PACKAGE* where the running job's code ended or failed.")

(defmacro define-record (name-and-options &rest slots)
  "A record in a simple vector: MAKE-NAME takes every slot as a keyword argument (each slot is
NAME or (NAME INITIAL-FORM)), NAME-SLOT reads one and SETF writes it. DEFSTRUCT would do as
much, but ECL makes every structure a CLOS class when the engine starts: millions of
instructions for each, paid by every start. The accessors are inline, unless NAME-AND-OPTIONS
is (NAME :INLINE NIL): each inline function's expansion is read when the engine starts,
about 50,000 instructions each (measured with the editor's record of 11 slots: 1.1 million)."
  (destructuring-bind (name &key (inline t)) (if (consp name-and-options) name-and-options (list name-and-options))
  (let* ((slots (mapcar (lambda (slot) (if (consp slot) slot (list slot nil))) slots))
         (accessors (mapcar (lambda (slot) (intern (format nil "~A-~A" name (first slot)))) slots)))
    `(progn
       ,@(when inline `((declaim (inline ,@accessors))))
       (defun ,(intern (format nil "MAKE-~A" name)) (&key ,@slots)
         (vector ,@(mapcar #'first slots)))
       ,@(loop for accessor in accessors
               for i from 0
               collect `(defun ,accessor (record) (svref record ,i))
               collect `(defun (setf ,accessor) (value record) (setf (svref record ,i) value)))))))

(defvar *editor-request* nil
  "The editor's request the running job serves, or NIL. Bound by every job, so that a job
nested in a debugger level of an editor's job is not taken for it.")

;; What the debugger needs of a job that asked for it (the request's "debug"): its id, the
;; IHS index its frames start above, its output streams, the restarts that were there before
;; it began (not its own), and the catch tags its ABORT and RETRY restarts throw to (fresh
;; objects, so that they land in this job even when another job runs nested above it).
(define-record job-debug
  id base streams
  (origin nil)  ; who asked, when the host said ("origin": "claude-code"), for the editor's list
  (outer-restarts si::*restart-clusters*)
  (abort-tag (list :abort))
  (retry-tag (list :retry))
  (retryable nil))

(defvar *job-debug* nil
  "The running job's JOB-DEBUG when it asked for the debugger, else NIL. Bound by such a job,
and to NIL in a debugger level, so that a job nested there without the debugger sees NIL.")

(declaim (inline request-field))
(defun request-field (request key)
  "The value of KEY in the REQUEST plist, or NIL. A plain walk: GETF first checks the whole
list is proper, which costs more than the rest of this test on every job. (Every CAR and CDR
here is of a cons just tested: safety 0 only lets them be inlined.)"
  (declare (optimize (speed 3) (safety 0)))
  (loop for tail = request then (cddr tail)
        while (and (consp tail) (consp (cdr tail)))
        when (eq (car tail) key) return (cadr tail)))

(declaim (inline debugging-p))
(defun debugging-p (request)
  "True when REQUEST asks for the debugger."
  (request-field request :debug))


(defun note-job-warning (text)
  (push text *job-warnings*))

(defun job-failed (condition &key (phase *job-phase*) (message (condition-message condition))
                                  (backtrace nil backtrace-p) base)
  "Ends the running job with CONDITION as its error; called from the job's handlers."
  (setf *job-final-package* *package*)
  (throw 'job-abort
    (error-object (condition-type-name condition) message phase
                  (if backtrace-p backtrace (capture-backtrace condition base)))))

(defun package-error-reply (id name)
  (job-reply id "error" :package (package-name *session-package*)
             :error (error-object "PACKAGE-ERROR"
                                  (format nil "The package ~S does not exist. Known packages include: ~{~A~^, ~}."
                                          name (sort (mapcar #'package-name (list-all-packages)) #'string<))
                                  "setup")))

(defun run-job (request body &key keep-package)
  "Runs BODY, a function of no arguments, as the job of REQUEST: in the session package (or
the request's), with the standard streams captured under the output budget, warnings
recorded, errors and interrupts turned into the reply. BODY returns a plist of extra reply
fields; a \"values\" field among them replaces the empty one. Whatever happens, returns one
reply. With KEEP-PACKAGE, a change of *PACKAGE* by the job's code (IN-PACKAGE) becomes the
session package, even when a later form fails. A request with \"editor_request\" runs what
the person's editor asked for instead (editor.lisp)."
  (let ((editor-request (request-field request :editor_request)))
    (if editor-request
        (run-editor-job request body keep-package editor-request)
        (run-job-for request body keep-package nil))))

(defun run-job-for (request body keep-package editor)
  "RUN-JOB's work; EDITOR is the editor's request the job serves, or NIL."
  (let* ((id (getf request :id))
         (limit (option (getf request :options) :max_output_chars *default-max-output-chars*))
         (package (resolve-package (getf request :package))))
    (unless package
      (return-from run-job-for (package-error-reply id (getf request :package))))
    (debug-project-compilation)
    (install-pending-dispatchers) ; native-dispatch.lisp: between jobs, on the worker
    (let* ((streams (job-streams id limit))
           (*job-warnings* '())
           (*job-phase* "eval")
           (fields '())
           (*job-final-package* package)
           (start (%monotonic-us))
           (run-start (%run-time-us))
           (base (si::ihs-top))
           (outcome
             (macrolet ((guarded (serious-condition-handler)
                          `(let ((*abortable-job* id)
                                 (*editor-request* editor))
                             (unwind-protect
                                (progn
                                  (begin-job id)
                                  (with-job-streams (package streams)
                                    (handler-bind
                                        ((warning (lambda (c)
                                                    (note-job-warning (warning-text c))
                                                    (muffle-warning c)))
                                         (serious-condition ,serious-condition-handler))
                                      (%stage +stage-job-begun+)
                                      (setf fields (funcall body)
                                            *job-final-package* *package*)))
                                  :ok)
                             (setf *running-job* nil)))))
               (catch 'job-abort
                 (if (debugging-p request)
                     ;; A job with the debugger parks on an error (PARK-OR-FAIL) instead of
                     ;; throwing; its ABORT restart throws to its own tag. A job without it
                     ;; runs exactly as before: nothing of the debugger is made for it.
                     (let ((*job-debug* (make-job-debug :id id :base base :streams streams
                                                        :origin (request-field request :origin))))
                       (catch (job-debug-abort-tag *job-debug*)
                         (guarded #'park-or-fail)))
                     (guarded (lambda (c) (job-failed c :base base)))))))
           (status (cond ((eq outcome :ok) "ok")
                         ((eq outcome :interrupted) "interrupted")
                         ((consp outcome) "error")
                         (t "interrupted"))))
      (flush-job-streams streams)
      (let ((final *job-final-package*))
        (when (and keep-package (not (eq final package)) (packagep final) (package-name final))
          (setf *session-package* final)))
      (restore-heap-limit)
      (let ((printed (loop for (key value) on fields by #'cddr
                           when (equal key "values") return value)))
        (nconc (job-reply id status
                           :package (package-name *session-package*)
                           :values printed
                           :warnings (reverse *job-warnings*)
                           :error (and (consp outcome) outcome)
                           :output-dropped (budget-dropped (job-streams-budget streams))
                           :real-us (- (%monotonic-us) start)
                           :run-us (- (%run-time-us) run-start))
                (loop for (key value) on fields by #'cddr
                      unless (equal key "values") append (list key value))
                (take-ledger-facts)
                (take-native-facts))))))

(defun session-print (object &optional (limit 300))
  "OBJECT printed as the session would show it, briefly, relative to the session package."
  (let ((*package* *session-package*))
    (with-brief-printing
      (handler-case (print-limited (lambda (s) (prin1 object s)) limit)
        (serious-condition () "#<unprintable object>")))))

(defun parse-symbol-text (text package)
  "The symbol TEXT names, read from PACKAGE, without interning anything: (values symbol found)."
  (let* ((colon (position #\: text))
         (home (cond ((null colon) package)
                     ((zerop colon) (find-package "KEYWORD"))
                     (t (find-package (string-upcase (subseq text 0 colon))))))
         (raw (if colon (string-left-trim ":" (subseq text colon)) text))
         (name (if (and (> (length raw) 1) (char= (char raw 0) #\|)
                        (char= (char raw (1- (length raw))) #\|))
                   (subseq raw 1 (1- (length raw)))
                   (string-upcase raw))))
    (if home
        (multiple-value-bind (symbol status) (find-symbol name home)
          (values symbol (and status t) home))
        (values nil nil nil))))

;;; Service operations print user values, and printing can run user code (a PRINT-OBJECT
;;; method) that never returns. The service thread must keep answering, so such an
;;; operation runs under a watchdog that interrupts it after a few seconds.

(defvar *watch-token* nil "Bound, on the watched thread, while its time limit applies.")

(defun call-with-service-time-limit (request seconds thunk)
  (let* ((token (list :watch))
         (me mp:*current-process*)
         (done nil)
         (result
           (catch token
             (let ((*watch-token* token))
               (mp:process-run-function
                "lisp-duet watchdog"
                (lambda ()
                  (loop repeat (ceiling seconds 0.05)
                        until done do (sleep 0.05))
                  (unless done
                    (ignore-errors
                     (mp:interrupt-process me (lambda ()
                                                ;; Only while the same call still runs.
                                                (when (eq *watch-token* token)
                                                  (throw token :timed-out))))))))
               (unwind-protect (funcall thunk) (setf done t))))))
    (if (eq result :timed-out)
        (failed-reply (getf request :id) "SERVICE-TIMEOUT"
                      (format nil "This question did not finish within ~D s: printing a value probably ran a PRINT-OBJECT method that does not return. Nothing was changed; the session is fine." seconds))
        result)))

(defmacro with-service-time-limit ((request &optional (seconds 5)) &body body)
  `(call-with-service-time-limit ,request ,seconds (lambda () ,@body)))

;;;; The supervisor and the threads it keeps. The host's requests are read and routed in C++
;;;; (RequestRouter.cpp) by the thread each operation registered with DEFINE-OPERATION: the
;;;; worker runs user code, one job at a time; the service thread answers questions that run
;;;; no user code; the supervisor takes quick settings, pings and interrupts while a job runs,
;;;; and never runs user code itself, so it always answers. An idle worker reads the requests
;;;; itself and runs those quick ones inline. Idle threads wait in C++ (%NEXT-REQUEST),
;;;; outside ECL's wait queues.

(in-package "LISP-DUET.KERNEL")

(defvar *worker* nil)
(defvar *service* nil)

(defun on-worker-p ()
  "True on the thread that runs the session's jobs."
  (eq mp:*current-process* *worker*))

(defun failure-reply (request condition)
  (failed-reply (getf request :id)
                (ignore-errors (condition-type-name condition))
                (or (ignore-errors (condition-message condition)) "internal error")))

(defun run-operation (request function)
  "Runs one request on this thread; whatever happens, at most one reply is sent (none when
FUNCTION returns NIL: an interrupt is answered by the job it stops)."
  (let ((reply (handler-case (funcall function request)
                 (serious-condition (c) (failure-reply request c)))))
    (when reply
      (handler-case (send reply)
        (serious-condition (c) (send (failure-reply request c)))))))

(defun unknown-operation (request)
  (failed-reply (getf request :id) "PROTOCOL-ERROR"
                (format nil "Unknown operation ~S~@[: ~A~]" (getf request :op) (getf request :error))))

(defun operation-function (request)
  (let* ((op (getf request :op))
         (entry (and (stringp op) (gethash op *operations*))))
    (if entry (cdr entry) #'unknown-operation)))

(defun thread-ended-reply (request)
  (let ((id (getf request :id)))
    (nconc (job-reply id "error" :package (package-name *session-package*)
                      :error (error-object "LISP-DUET:THREAD-ENDED"
                                           "The thread that ran this evaluation was ended while it ran (MP:EXIT-PROCESS or MP:PROCESS-KILL, by the code itself or from another thread, such as an editor's thread list). A new thread took its place; definitions made before remain."
                                           "eval"))
           (unwound-fields id))))

(defun bind-every-special-once ()
  "Binds every special variable of the image once in this thread, before any interrupt can
reach it. ECL 21.2.1 gives a variable its slot in a thread at its first binding there, and
registers a finalizer for it under the garbage collector's lock without deferring interrupts:
an interrupt that lands inside that deadlocks the thread on the lock (the worker hung on the
first LOOP a job expanded, in tst_faults' interrupt storm). Specials defined later still
take that path at their first binding; those of the Lisp system and the kernel no longer do."
  (let ((bound '()) (unbound '()))
    (do-all-symbols (symbol)
      (when (and (si:specialp symbol) (not (constantp symbol)))
        (if (boundp symbol) (pushnew symbol bound) (pushnew symbol unbound))))
    (progv bound (mapcar #'symbol-value bound)
      (progv unbound '() nil))))

(defun job-loop (queue &optional handed-over)
  ;; The global package is what threads outside our jobs see (those user code starts, and
  ;; Swank's): the session's, not the kernel's, which loading the kernel left there. The boot
  ;; thread has *PACKAGE* bound (its evaluation binds it); this one, new, sets the global.
  (setf *package* *session-package*)
  (bind-every-special-once)
  (if (eq queue :worker)
      (serve-queue queue handed-over)
      ;; The service thread runs no user code: the person's global printer settings and
      ;; *BREAK-ON-SIGNALS* are not for it.
      (with-standard-printing (serve-queue queue handed-over))))

(defconstant +large-request-characters+ 65536)

(defun large-request-p (request)
  (let ((code (getf request :code)))
    (and (stringp code) (> (length code) +large-request-characters+))))

(defun serve-queue (queue handed-over)
  "Serves QUEUE's requests, HANDED-OVER first (the request a thread ended before it ran)."
  (let ((request nil)
        (retried nil)
        (*job-began* nil)
        (*job-streams* nil))
    (unwind-protect
         (loop
           ;; Waiting in C++ with interrupts deferred; taken inside, so that the request is
           ;; answered even if an interrupt ends this thread right after.
           (mp:without-interrupts
             (setf request (if handed-over (car handed-over) (%next-request queue))
                   retried (and handed-over t)
                   handed-over nil))
           ;; A stray interrupt that arrives between jobs finds no JOB-ABORT catch; the outer
           ;; catch keeps the loop alive.
           (catch 'job-abort
             (run-operation request (operation-function request)))
           (when (large-request-p request)
             ;; Its frames left pointers to what it read where the next jobs' frames do not
             ;; write: the collector would keep all of it (%SCRUB-STACK).
             (%scrub-stack))
           (setf request nil))
      ;; Only a thread ended under it gets here (the loop never returns). A request whose
      ;; user code had not begun (the thread was killed while it waited: a kill is deferred
      ;; until a request arrives) is run by the next thread; one that had begun is answered.
      (unless request
        ;; Killed after the request left the queue but before it reached this loop.
        (setf request (ignore-errors (mp:without-interrupts (%lost-request queue)))
              retried nil))
      (let ((pass (and request (not retried)
                       (not (and (eq queue :worker) (eql *job-began* (getf request :id))))
                       (list request))))
        (when (and request (not pass))
          (when (job-streams-p *job-streams*)
            (ignore-errors (flush-job-streams *job-streams*)))
          (ignore-errors (send (thread-ended-reply request))))
        (let ((next (mp:process-run-function (mp:process-name mp:*current-process*) #'job-loop queue pass)))
          (if (eq queue :worker) (setf *worker* next) (setf *service* next)))))))

;;; Nothing may ever open ECL's interactive debugger on stdin: BREAK and errors outside our
;;; handlers (for example in a thread the user started) come here, whatever the person set:
;;; *INVOKE-DEBUGGER-HOOK* and *DEBUGGER-HOOK* of their own that return, *BREAK-ON-SIGNALS*.

(defun break-on-signals-p (condition)
  "True for the break SIGNAL makes because of *BREAK-ON-SIGNALS*."
  (and (typep condition 'simple-condition)
       (let ((control (simple-condition-format-control condition)))
         (and (stringp control) (search "*BREAK-ON-SIGNALS*" control) t))))

(defun go-on-from-break (condition setting)
  "Returns from the break *BREAK-ON-SIGNALS* (SETTING) made, so that the signal goes on to its
handlers (an evaluation without the debugger: nobody could answer it). The job says so, once."
  (let ((note (format nil "*BREAK-ON-SIGNALS* (~A) stopped at a signal, but this evaluation has no debugger: it went on as if it were NIL."
                      (let ((*package* *session-package*)) (brief setting)))))
    (when (and *running-job* (not (member note *job-warnings* :test #'string=)))
      (note-job-warning note)))
  (let ((continue (find-restart 'continue condition)))
    (if continue (invoke-restart continue) (continue))))

(defun debugger-hook (condition hook)
  (declare (ignore hook))
  (let* ((setting *break-on-signals*)
         (*break-on-signals* nil))
    (cond ((and (break-on-signals-p condition) (not *job-debug*))
           (go-on-from-break condition setting))
          (t (debugger-hook-1 condition)))))

(defun default-debugger-refused (condition)
  "ECL's terminal debugger (SI::DEFAULT-DEBUGGER), reached only when the person's own hooks
returned: it would read /dev/null and print banners until the host killed the engine."
  (debugger-hook condition nil))

(defun install-debugger-guards ()
  (setf ext:*invoke-debugger-hook* #'debugger-hook
        *debugger-hook* #'debugger-hook)
  (let ((si::*ignore-package-locks* t))
    (setf (fdefinition 'si::default-debugger) #'default-debugger-refused)))

(defun debugger-hook-1 (condition)
  (cond (*job-debug*
         ;; BREAK, INVOKE-DEBUGGER in a job that asked for the debugger (debugger.lisp).
         (park condition))
        ((eql *running-job* nil)
         (format *error-output* "~&;; Lisp Duet: unhandled ~A in thread ~A: ~A~%"
                 (ignore-errors (condition-type-name condition))
                 (ignore-errors (mp:process-name mp:*current-process*))
                 (ignore-errors (condition-message condition)))
         (let ((abort (find-restart 'abort)))
           (if abort (invoke-restart abort) (mp:exit-process))))
        (t
         ;; The job's handlers turn this into its error reply. Should none be active (code
         ;; running outside them), this hook must still not return: ECL's own debugger would
         ;; then read /dev/null and print to stderr forever, and the job would never answer.
         (signal 'debugger-unavailable
                 :what (if (typep condition 'error) "INVOKE-DEBUGGER" "BREAK")
                 :reason (ignore-errors (condition-message condition)))
         (format *error-output* "~&;; Lisp Duet: ~A outside a job's handlers in thread ~A: ~A~%"
                 (ignore-errors (condition-type-name condition))
                 (ignore-errors (mp:process-name mp:*current-process*))
                 (ignore-errors (condition-message condition)))
         (let ((abort (find-restart 'abort)))
           (if abort (invoke-restart abort) (mp:exit-process))))))

(defvar *interrupt-queued* nil
  "(ID . SENT-AT-US) of the interrupt on its way to the worker: queued by MP:INTERRUPT-PROCESS,
not yet run there. Cleared by the interrupt itself when it runs.")

(defconstant +interrupt-resend-us+ 500000
  "An interrupt for the same job is sent again only after this long (a lost one is retried).")

(defun interrupt-on-its-way-p (target)
  (let ((queued *interrupt-queued*))
    (and queued (eql (car queued) target)
         (< (- (%monotonic-us) (cdr queued)) +interrupt-resend-us+))))

(defun interrupt-job (request)
  ;; The host may interrupt a job the worker has not taken yet (an interrupt right after the
  ;; request): BEGIN-JOB then finds its id and stops it before it runs. No reply: the job
  ;; answers "interrupted" itself. With "break", a job that asked for the debugger parks
  ;; where it was instead (the host hears "parked"); any other job stops as usual.
  ;; One interrupt at a time per job: while one is on its way (queued in the worker, not run
  ;; yet), more for the same job are dropped, so a client that cancels in a loop queues one
  ;; closure per job, not hundreds; one that seems lost is sent again after half a second.
  (let ((target (getf request :target))
        (break (getf request :break))
        (by (getf request :by)))
    (mp:with-lock (*interrupt-lock*)
      (cond ((and target (eql *running-job* target) *worker*)
             (unless (interrupt-on-its-way-p target)
               (setf *interrupt-queued* (cons target (%monotonic-us)))
               (mp:interrupt-process *worker*
                                     (lambda ()
                                       (setf *interrupt-queued* nil)
                                       (when (and (eql *running-job* target) (eql *abortable-job* target))
                                         (if (and break *job-debug* (eql (job-debug-id *job-debug*) target))
                                             (break-job by)
                                             (throw 'job-abort :interrupted)))))))
            (target
             (setf *interrupted-before-start* target)))))
  nil)

(define-operation "interrupt" :supervisor #'interrupt-job)

(defun ping (request)
  (ok-reply request "pong" t))

(define-operation "ping" :supervisor #'ping)

(defun run-supervisor ()
  (install-debugger-guards)
  (init-native)
  (setf *worker* (mp:process-run-function "lisp-duet worker" #'job-loop :worker)
        *service* (mp:process-run-function "lisp-duet service" #'job-loop :service))
  (route-operations)
  (send-event "ready" "version" (lisp-implementation-version)
              "implementation" (lisp-implementation-type)
              "package" (package-name *session-package*)
              "pid" (%process-id)
              "native" (apply #'obj (native-status-fields)))
  (%start-reading)
  (with-standard-printing (supervise)))

(defun supervise ()
  (loop
    (let ((request (mp:without-interrupts (%next-request :supervisor))))
      (when (eq request :eof)
        (return))
      ;; Quick settings run here, so they take effect before the next request is routed.
      (handler-case (run-operation request (operation-function request))
        (serious-condition (c)
          (ignore-errors (send (failure-reply request c))))))))

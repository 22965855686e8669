;;;; The supervisor: reads requests from the host, hands jobs to the worker (user code) or
;;;; the service thread (questions that run no user code), and interrupts the worker on
;;;; request. It never runs user code itself, so it always answers.

(in-package "LISP-DUET.KERNEL")

(defvar *worker* nil)
(defvar *service* nil)
(defvar *worker-jobs* (mp:make-mailbox))
(defvar *service-jobs* (mp:make-mailbox))

(define-operation "eval" :worker #'evaluate)
(define-operation "complete" :service #'complete)
(define-operation "arglist" :service #'arglist)

(defun failure-reply (request condition)
  (obj "id" (or (getf request :id) :null) "status" "failed"
       "error" (obj "type" (ignore-errors (condition-type-name condition))
                    "message" (or (ignore-errors (condition-message condition)) "internal error")
                    "phase" "kernel" "backtrace" nil)))

(defun run-operation (request function)
  "Runs one request on this thread; whatever happens, exactly one reply is sent."
  (let ((reply (handler-case (funcall function request)
                 (serious-condition (c) (failure-reply request c)))))
    (handler-case (send reply)
      (serious-condition (c) (send (failure-reply request c))))))

(defun thread-ended-reply (request)
  (obj "id" (or (getf request :id) :null) "status" "error" "values" nil "warnings" nil
       "package" (package-name *session-package*)
       "error" (obj "type" "LISP-DUET:THREAD-ENDED"
                    "message" "The code ended the thread that ran it (MP:EXIT-PROCESS or MP:PROCESS-KILL). A new thread took its place; definitions made before remain."
                    "phase" "eval" "backtrace" nil)))

(defun job-loop (mailbox)
  (let ((job nil))
    (unwind-protect
         (loop
           (setf job (mp:mailbox-read mailbox))
           ;; A stray interrupt that arrives between jobs finds no JOB-ABORT catch; the outer
           ;; catch keeps the loop alive.
           (catch 'job-abort
             (run-operation (car job) (cdr job)))
           (setf job nil))
      ;; Only user code that ends this very thread gets here (the loop never returns): answer
      ;; its job and put a fresh thread in its place, or every later request would go unread.
      (when job
        (ignore-errors (send (thread-ended-reply (car job)))))
      (let ((next (mp:process-run-function (mp:process-name mp:*current-process*) #'job-loop mailbox)))
        (if (eq mailbox *worker-jobs*) (setf *worker* next) (setf *service* next))))))

;;; Nothing may ever open ECL's interactive debugger on stdin: BREAK and errors outside our
;;; handlers (for example in a thread the user started) come here.
(defun debugger-hook (condition hook)
  (declare (ignore hook))
  (cond ((eql *running-job* nil)
         (format *error-output* "~&;; Lisp Duet: unhandled ~A in thread ~A: ~A~%"
                 (ignore-errors (condition-type-name condition))
                 (ignore-errors (mp:process-name mp:*current-process*))
                 (ignore-errors (condition-message condition)))
         (let ((abort (find-restart 'abort)))
           (if abort (invoke-restart abort) (mp:exit-process))))
        (t
         (error 'debugger-unavailable
                :what (if (typep condition 'error) "INVOKE-DEBUGGER" "BREAK")
                :reason (ignore-errors (condition-message condition))))))

(defun interrupt-job (target)
  ;; The host may interrupt a job the worker has not taken yet (an interrupt right after the
  ;; request): BEGIN-JOB then finds its id and stops it before it runs.
  (mp:with-lock (*interrupt-lock*)
    (cond ((and target (eql *running-job* target) *worker*)
           (mp:interrupt-process *worker*
                                 (lambda ()
                                   (when (eql *running-job* target)
                                     (throw 'job-abort :interrupted))))
           t)
          (target
           (setf *interrupted-before-start* target)
           nil))))

(defun dispatch (request)
  (let* ((op (getf request :op))
         (entry (and (stringp op) (gethash op *operations*))))
    (cond ((equal op "interrupt")
           (interrupt-job (getf request :target)))
          ((equal op "ping")
           (send (obj "id" (getf request :id) "status" "ok" "pong" t)))
          ((null entry)
           (send (obj "id" (or (getf request :id) :null) "status" "failed"
                      "error" (obj "type" "PROTOCOL-ERROR"
                                   "message" (format nil "Unknown operation ~S~@[: ~A~]"
                                                     op (getf request :error))
                                   "phase" "kernel" "backtrace" nil))))
          ((eq (car entry) :worker)
           (mp:mailbox-send *worker-jobs* (cons request (cdr entry))))
          ;; Quick settings that must take effect before the next request is even read.
          ((eq (car entry) :supervisor)
           (run-operation request (cdr entry)))
          (t
           (mp:mailbox-send *service-jobs* (cons request (cdr entry)))))))

(defun run-supervisor ()
  (setf ext:*invoke-debugger-hook* #'debugger-hook
        *debugger-hook* #'debugger-hook)
  (setf *worker* (mp:process-run-function "lisp-duet worker" #'job-loop *worker-jobs*)
        *service* (mp:process-run-function "lisp-duet service" #'job-loop *service-jobs*))
  (send-event "ready" "version" (lisp-implementation-version)
              "implementation" (lisp-implementation-type)
              "package" (package-name *session-package*)
              "pid" (%process-id))
  (loop
    (let ((request (%read-request)))
      (when (eq request :eof)
        (return))
      (handler-case (dispatch request)
        (serious-condition (c)
          (ignore-errors (send (failure-reply request c))))))))

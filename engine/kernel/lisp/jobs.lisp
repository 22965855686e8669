;;;; Worker jobs other than plain evaluation (loading a system, compiling, expanding a
;;;; macro) run user code too: they get the same captured streams, warning records, error
;;;; reports and interrupt catch as EVALUATE, through RUN-JOB.

(in-package "LISP-DUET.KERNEL")

(defun run-job (request body)
  "Runs BODY, a function of no arguments that returns a plist of extra reply fields, as the
job of REQUEST. Whatever happens, returns one reply."
  (let* ((id (getf request :id))
         (options (getf request :options))
         (limit (option options :max_output_chars *default-max-output-chars*))
         (package (resolve-package (getf request :package))))
    (unless package
      (return-from run-job (package-error-result id (getf request :package))))
    (let* ((budget (make-budget :remaining limit))
           (stdout (make-capture id "stdout" budget))
           (stderr (make-capture id "stderr" budget))
           (warnings '())
           (fields '())
           (error-info nil)
           (start (%monotonic-us))
           (run-start (%run-time-us))
           (base (si::ihs-top))
           (status
             (catch 'job-abort
               (unwind-protect
                    (progn
                      (begin-job id)
                      (with-job-streams (package stdout stderr)
                        (handler-bind
                            ((warning (lambda (c)
                                        (push (warning-text c) warnings)
                                        (muffle-warning c)))
                             (serious-condition
                               (lambda (c)
                                 (setf error-info (error-object c "eval" (capture-backtrace c base)))
                                 (throw 'job-abort "error"))))
                          (setf fields (funcall body))))
                      "ok")
                 (setf *running-job* nil)))))
      (unless (stringp status)
        (setf status "interrupted"))
      (flush-capture stdout)
      (flush-capture stderr)
      (restore-heap-limit)
      (append (obj "id" id
                   "status" status
                   "values" nil
                   "warnings" (reverse warnings)
                   "error" (or error-info :null)
                   "package" (package-name *session-package*)
                   "output_dropped" (budget-dropped budget)
                   "real_us" (- (%monotonic-us) start)
                   "run_us" (- (%run-time-us) run-start))
              fields))))

(defun ok-reply (request &rest fields)
  (apply #'obj "id" (getf request :id) "status" "ok" fields))

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
        (obj "id" (getf request :id) "status" "failed"
             "error" (obj "type" "SERVICE-TIMEOUT"
                          "message" (format nil "This question did not finish within ~D s: printing a value probably ran a PRINT-OBJECT method that does not return. Nothing was changed; the session is fine." seconds)
                          "phase" "kernel" "backtrace" nil))
        result)))

(defmacro with-service-time-limit ((request &optional (seconds 5)) &body body)
  `(call-with-service-time-limit ,request ,seconds (lambda () ,@body)))

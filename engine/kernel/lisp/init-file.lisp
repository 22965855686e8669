;;;; load-init: the person's init file (the host passes it: ~/.config/lisp-duet/init.lisp, or
;;;; ~/.eclrc when the person asks), loaded as a job before any other, in every new engine.
;;;; An init file that signals, loops or quits must not cost the person their session: its
;;;; error is the job's reply (the host shows it and tells the agents), QUIT is refused as
;;;; anywhere, and one that runs past its time limit is interrupted through the same path as
;;;; the person's Interrupt. (Code inside WITHOUT-INTERRUPTS cannot be interrupted: the host's
;;;; own time limit for the job, a little longer, then restarts the engine.)

(in-package "LISP-DUET.KERNEL")

(defconstant +default-init-time-limit-ms+ 10000)

(defun call-with-job-time-limit (id milliseconds timed-out thunk)
  "Calls THUNK; if job ID still runs after MILLISECONDS, sets the CAR of TIMED-OUT and
interrupts the job (INTERRUPT-JOB, as the host's interrupt does)."
  (let ((done nil))
    (mp:process-run-function
     "lisp-duet init time limit"
     (lambda ()
       (loop with deadline = (+ (%monotonic-us) (* 1000 milliseconds))
             until (or done (>= (%monotonic-us) deadline))
             do (sleep 0.01))
       (unless done
         (setf (car timed-out) t)
         (interrupt-job (list :target id)))))
    (unwind-protect (funcall thunk) (setf done t))))

(defun reply-field (reply key)
  (loop for (k v) on (cdr reply) by #'cddr when (equal k key) return v))

(defun init-file-problem (file)
  "Why FILE must not be loaded as the person's init file, or NIL: it runs as the person, in
their session, so only the person may be able to change it (its owner is this user, and
neither group nor others may write it; a link is judged by the file it leads to)."
  (multiple-value-bind (mode mine) (file-mode-and-owner file)
    (cond ((null mode) nil) ; it vanished meanwhile: LOAD says so
          ((not mine)
           (format nil "Not loaded: ~A belongs to another user, who could put any code in it to run as you in this session. Use an init file of your own."
                   file))
          ((plusp (logand mode #o022))
           (format nil "Not loaded: other users can change ~A (mode ~3,'0O), and whatever they wrote would run as you in this session. Make it yours alone (chmod go-w ~A); the next engine loads it."
                   file (logand mode #o777) file)))))

(defun load-init (request)
  (let* ((id (getf request :id))
         (file (getf request :file))
         (limit (getf request :time_limit_ms +default-init-time-limit-ms+))
         (timed-out (list nil)))
    (cond ((not (and (stringp file) (plusp (length file)) (char= (char file 0) #\/)
                     (integerp limit) (plusp limit)))
           (failed-reply id "BAD-REQUEST"
                         "load-init needs the absolute path of the init file in \"file\" (and a positive \"time_limit_ms\", if any)."))
          ((not (eq (ext:file-kind file t) :file))
           ;; Nothing to load is not an error: most people have no init file.
           (nconc (job-reply id "ok" :package (package-name *session-package*))
                  (list "file" file "loaded" :false "timed_out" :false)))
          ((init-file-problem file)
           (nconc (failed-reply id "INIT-FILE-UNSAFE" (init-file-problem file))
                  (list "file" file "loaded" :false "timed_out" :false)))
          (t
           ;; The debugger is off: nobody is there to answer it while the session starts.
           (let ((reply (run-job (list* :debug nil request)
                                 (lambda ()
                                   (call-with-job-time-limit
                                    id limit timed-out (lambda () (load file :verbose nil :print nil)))
                                   (list "values" '())))))
             (nconc reply (list "file" file
                                "loaded" (if (equal (reply-field reply "status") "ok") t :false)
                                "timed_out" (if (car timed-out) t :false))))))))

(define-operation "load-init" :worker #'load-init)

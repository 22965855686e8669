;;;; Evaluating the user's code: read and evaluate each form in turn in the session package,
;;;; with the standard streams captured, warnings recorded and muffled, errors turned into
;;;; a result, and the values printed with the session's print settings.

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

(defun print-value (value print-length print-level limit)
  (let ((*print-length* print-length) (*print-level* print-level)
        (*print-circle* t) (*print-pretty* t) (*print-readably* nil) (*print-escape* t))
    (handler-case (print-limited (lambda (s) (prin1 value s)) limit)
      (serious-condition (c)
        (format nil "#<error printing a ~A: ~A: ~A>"
                (brief (type-of value)) (condition-type-name c)
                (one-line (condition-message c)))))))

;;; ECL's reader recurses on the C stack without checking it: about 25,000 nested parentheses
;;; end the whole engine with SIGSEGV. Code nested deeper than this is refused before reading.
(defconstant +max-read-depth+ 10000)

(define-condition lisp-duet:nesting-too-deep (reader-error)
  ((depth :initarg :depth :reader nesting-too-deep-depth))
  (:report (lambda (c s)
             (format s "The code nests parentheses ~D deep; Lisp Duet reads at most ~D levels ~
                        (deeper nesting would overflow the reader's stack)."
                     (nesting-too-deep-depth c) +max-read-depth+))))

(defun nesting-depth (code)
  "How deep parentheses nest in CODE, skipping strings, comments, |escapes| and #\\ characters.
Close enough for a safety limit."
  (let ((depth 0) (deepest 0) (i 0) (n (length code)))
    (flet ((skip-to (end-char)
             (loop do (incf i)
                   while (< i n)
                   until (char= (char code i) end-char)
                   do (when (char= (char code i) #\\) (incf i)))))
      (loop while (< i n)
            do (case (char code i)
                 (#\( (setf deepest (max deepest (incf depth))))
                 (#\) (when (plusp depth) (decf depth)))
                 (#\" (skip-to #\"))
                 (#\| (skip-to #\|))
                 (#\; (loop while (and (< i n) (char/= (char code i) #\Newline)) do (incf i)))
                 (#\\ (incf i))
                 (#\# (when (< (1+ i) n)
                        (case (char code (1+ i))
                          (#\\ (incf i 2))
                          (#\| (let ((level 1))
                                 (incf i 2)
                                 (loop while (and (< (1+ i) n) (plusp level))
                                       do (cond ((and (char= (char code i) #\|) (char= (char code (1+ i)) #\#))
                                                 (decf level) (incf i))
                                                ((and (char= (char code i) #\#) (char= (char code (1+ i)) #\|))
                                                 (incf level) (incf i)))
                                          (incf i))))))))
               (incf i)))
    deepest))

(defun check-nesting (code stream)
  ;; COUNT is compiled and fast: most code never needs the scan.
  (when (> (count #\( code) +max-read-depth+)
    (let ((depth (nesting-depth code)))
      (when (> depth +max-read-depth+)
        (error 'lisp-duet:nesting-too-deep :stream stream :depth depth)))))

(defun resolve-package (name)
  (if (or (null name) (and (stringp name) (zerop (length name))))
      *session-package*
      (or (find-package name) (find-package (string-upcase name)))))

(defun error-object (condition phase backtrace)
  (obj "type" (condition-type-name condition)
       "message" (condition-message condition)
       "phase" phase
       "backtrace" backtrace))

(defun package-error-result (id name)
  (obj "id" id "status" "error" "values" nil "warnings" nil
       "package" (package-name *session-package*)
       "error" (obj "type" "PACKAGE-ERROR"
                    "message" (format nil "The package ~S does not exist. Known packages include: ~{~A~^, ~}."
                                      name (sort (mapcar #'package-name (list-all-packages)) #'string<))
                    "phase" "setup" "backtrace" nil)))

(defun evaluate (request)
  (let* ((id (getf request :id))
         (code (or (getf request :code) ""))
         (options (getf request :options))
         (print-length (option options :print_length *default-print-length*))
         (print-level (option options :print_level *default-print-level*))
         (limit (option options :max_output_chars *default-max-output-chars*))
         (package (resolve-package (getf request :package))))
    (unless package
      (return-from evaluate (package-error-result id (getf request :package))))
    (let* ((budget (make-budget :remaining limit))
           (stdout (make-capture id "stdout" budget))
           (stderr (make-capture id "stderr" budget))
           (warnings '())
           (results '())
           (printed '())
           (error-info nil)
           (phase "read")
           (form-start 0)
           (final-package package)
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
                                 (setf error-info (if (equal phase "read")
                                                      (obj "type" (condition-type-name c)
                                                           "message" (read-error-message c code form-start)
                                                           "phase" phase "backtrace" nil)
                                                      (error-object c phase (capture-backtrace c base)))
                                       final-package *package*)
                                 (throw 'job-abort "error"))))
                          (with-input-from-string (in code)
                            (check-nesting code in)
                            (loop with eof = in
                                  for form = (progn (setf phase "read" form-start (file-position in))
                                                    (read in nil eof))
                                  until (eq form eof)
                                  do (setf phase "eval")
                                     (dolist (w (form-style-warnings form)) (push w warnings))
                                     (setf results (multiple-value-list (eval form))
                                           final-package *package*)
                                     (note-definition form id))
                            (setf phase "print"
                                  printed (mapcar (lambda (v)
                                                    (print-value v print-length print-level limit))
                                                  results)))))
                      "ok")
                 (setf *running-job* nil)))))
      (unless (stringp status)
        (setf status "interrupted"))
      (flush-capture stdout)
      (flush-capture stderr)
      (when (and (not (eq final-package package)) (packagep final-package)
                 (package-name final-package))
        (setf *session-package* final-package))
      (restore-heap-limit)
      (let ((result-id (and (equal status "ok") results (remember-result (first results)))))
        (append
         (obj "id" id
             "status" status
             "values" printed
             "warnings" (reverse warnings)
             "error" (or error-info :null)
             "package" (package-name *session-package*)
             "output_dropped" (budget-dropped budget)
             "real_us" (- (%monotonic-us) start)
             "run_us" (- (%run-time-us) run-start))
         (and result-id (list "result_id" result-id)))))))

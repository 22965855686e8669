;;;; Streams that stand in for the standard streams while a job runs: output is streamed to
;;;; the host in chunks as it is produced and dropped past the job's budget (so 100 MB of
;;;; output never piles up in memory); input streams refuse to wait for a person. The output
;;;; streams are written in C (OutputStreams.cpp): Gray streams cost a generic function call
;;;; per write.

(in-package "LISP-DUET.KERNEL")

;;; Input that refuses: READ, READ-LINE, Y-OR-N-P and the debugger get a clear error
;;; instead of waiting forever for a person who cannot answer.

(defclass refusing-input-stream (gray:fundamental-character-input-stream)
  ((what :initarg :what :reader refusing-what)))

(defmethod gray:stream-read-char ((stream refusing-input-stream))
  (error 'interactive-input-unavailable :what (refusing-what stream)))

(defmethod gray:stream-unread-char ((stream refusing-input-stream) char)
  (declare (ignore char))
  nil)

(defmethod gray:stream-listen ((stream refusing-input-stream))
  nil)

(defmethod gray:stream-read-char-no-hang ((stream refusing-input-stream))
  nil)

;;; A string sink with a ceiling, for printing values: printing a 100-million-character
;;; string must not build a 400 MB copy first. The stream is C (OutputStreams.cpp); it throws
;;; to LIMITED-STRING-FULL once the limit is reached.

(defun print-limited (function limit)
  "Calls FUNCTION with a stream; returns what it wrote, cut at LIMIT characters with a note."
  (let ((stream (%make-limited-output limit)))
    (if (catch 'limited-string-full (funcall function stream) t)
        (get-output-stream-string stream)
        (format nil "~A ... [cut: the printed form is longer than ~:D characters]"
                (get-output-stream-string stream) limit))))

;; Refusing streams hold no state: one of each serves every job.
(defparameter *refusing-standard-input*
  (make-instance 'refusing-input-stream :what "Reading from *standard-input*"))
(defparameter *refusing-query-input*
  (make-instance 'refusing-input-stream :what "A question on *query-io* (such as Y-OR-N-P)"))
(defparameter *refusing-debugger-input* (make-instance 'refusing-input-stream :what "The debugger"))
(defparameter *refusing-terminal-input*
  (make-instance 'refusing-input-stream :what "Reading from *terminal-io*"))

(defun make-budget ()
  "The output budget of a job, shared by its two captures: characters still allowed, and
characters dropped. The captures (OutputStreams.cpp) count in it as they write."
  (make-array 2 :element-type 'fixnum :initial-element 0))

(defun reset-budget (budget limit)
  (setf (aref budget 0) (max 0 (min limit most-positive-fixnum))
        (aref budget 1) 0)
  budget)

(defun budget-dropped (budget)
  (aref budget 1))

(defstruct (job-streams (:constructor %make-job-streams))
  budget stdout stderr query-io debug-io terminal-io)

(defvar *job-streams* :none
  "The job streams of this thread, reused job after job while they are open: JOB-LOOP binds
it per thread (to NIL until the first job); elsewhere (:NONE) every job makes its own.")

(defun job-streams (id limit)
  "Streams for job ID: stdout and stderr captured under a budget of LIMIT characters, output
sent to the host in chunks (C code, at most every 50 ms or 8 KiB), and the interactive
streams' input refused."
  (let ((streams *job-streams*))
    (cond ((and (job-streams-p streams) (job-streams-open-p streams))
           (reset-budget (job-streams-budget streams) limit)
           (%reuse-capture (job-streams-stdout streams) id)
           (%reuse-capture (job-streams-stderr streams) id))
          (t
           (let* ((budget (reset-budget (make-budget) limit))
                  (stdout (%make-capture id "stdout" budget))
                  (stderr (%make-capture id "stderr" budget)))
             (setf streams (%make-job-streams
                            :budget budget :stdout stdout :stderr stderr
                            :query-io (make-two-way-stream *refusing-query-input* stdout)
                            :debug-io (make-two-way-stream *refusing-debugger-input* stderr)
                            :terminal-io (make-two-way-stream *refusing-terminal-input* stdout)))
             (unless (eq *job-streams* :none)
               (setf *job-streams* streams)))))
    streams))

(defun job-streams-open-p (streams)
  "False once the code of a job closed one of them (CLOSE *STANDARD-OUTPUT*): then the next
job gets new ones."
  (and (open-stream-p (job-streams-stdout streams))
       (open-stream-p (job-streams-stderr streams))
       (open-stream-p (job-streams-query-io streams))
       (open-stream-p (job-streams-debug-io streams))
       (open-stream-p (job-streams-terminal-io streams))))

(defun flush-job-streams (streams)
  (%flush-capture (job-streams-stdout streams))
  (%flush-capture (job-streams-stderr streams)))

(defmacro with-job-streams ((package streams) &body body)
  "The dynamic environment of every job that runs user code: the session package, output to
the job's captures, interactive input refused, the printer's limits left to the user."
  (let ((s (gensym "STREAMS")))
    `(let* ((,s ,streams)
            (*package* ,package)
            (*standard-output* (job-streams-stdout ,s))
            (*error-output* (job-streams-stderr ,s))
            (*trace-output* (job-streams-stderr ,s))
            (*standard-input* *refusing-standard-input*)
            (*query-io* (job-streams-query-io ,s))
            (*debug-io* (job-streams-debug-io ,s))
            (*terminal-io* (job-streams-terminal-io ,s))
            (*print-length* nil)
            (*print-level* nil))
       ,@body)))

;;; Programs a job runs (EXT:RUN-PROGRAM, under UIOP:RUN-PROGRAM): ECL hands the child the file
;;; descriptor of the stream it is given, or of *STANDARD-OUTPUT* for T (UIOP's :INTERACTIVE),
;;; and the job's captures have none ("does not have a file handle": cffi-grovel's compiler
;;; runs, and anything loaded with its output discarded). Such a stream gets the child's output
;;; through a pipe instead, read as the program writes it (Gray streams too: ECL's own thread
;;; for them races with the wait). A job's input is nobody's: the child reads /dev/null.

(defvar *ecl-run-program* (fdefinition 'ext:run-program))
(defvar *engine-stderr* nil "The engine's own stderr (shown by the host), for programs left running.")

(defun stream-descriptor (stream output)
  "The descriptor ECL would give a child for STREAM (as its ecl_stream_to_handle finds it), or NIL."
  (loop repeat 16
        do (typecase stream
             (synonym-stream (setf stream (symbol-value (synonym-stream-symbol stream))))
             (two-way-stream (setf stream (if output
                                              (two-way-stream-output-stream stream)
                                              (two-way-stream-input-stream stream))))
             (file-stream (return (ignore-errors (ext:file-stream-fd stream))))
             (t (return nil)))))

(defun piped-stream-p (value output)
  (and (streamp value) (not (stream-descriptor value output))))

(defun pump-streams (pairs)
  "Copies each (from to input-p) until FROM ends, as the data comes; closes TO when it is the
program's input."
  (loop while pairs
        do (let ((moved nil))
             (dolist (pair pairs)
               (destructuring-bind (from to input) pair
                 (loop for char = (if (open-stream-p from) (read-char-no-hang from nil :eof) :eof)
                       while (characterp char)
                       do (write-char char to) (setf moved t)
                       finally (when (eq char :eof)
                                 (setf pairs (remove pair pairs))
                                 (if input (close to) (finish-output to))))))
             (unless moved (sleep 0.002)))))

(defun run-program-piped (command argv &rest options
                          &key (input :stream) (output :stream) (error :output) (wait t)
                          &allow-other-keys)
  (let* ((input (if (eq input t) *standard-input* input))
         (input (if (typep input 'refusing-input-stream) nil input))
         (output (if (eq output t) *standard-output* output))
         (error (if (eq error t) *error-output* error))
         (pipe-input (piped-stream-p input nil))
         (pipe-output (piped-stream-p output t))
         (pipe-error (and (not (eq error :output)) (piped-stream-p error t))))
    (unless (or pipe-input pipe-output pipe-error)
      (return-from run-program-piped
        (apply *ecl-run-program* command argv :input input :output output :error error options)))
    (unless wait
      ;; Left running, it may write after the job is over: to the engine's own stderr.
      (let ((stderr (or *engine-stderr* (setf *engine-stderr* (ext:make-stream-from-fd 2 :output)))))
        (return-from run-program-piped
          (apply *ecl-run-program* command argv
                 :input (if pipe-input nil input)
                 :output (if pipe-output stderr output)
                 :error (if pipe-error stderr error)
                 options))))
    (multiple-value-bind (stream code process)
        (apply *ecl-run-program* command argv
               :input (if pipe-input :stream input) :output (if pipe-output :stream output)
               :error (if pipe-error :stream error) :wait nil options)
      (declare (ignore stream code))
      (pump-streams (append (and pipe-input (list (list input (ext:external-process-input process) t)))
                            (and pipe-output (list (list (ext:external-process-output process) output nil)))
                            (and pipe-error (list (list (ext:external-process-error-stream process) error nil)))))
      (values nil (nth-value 1 (ext:external-process-wait process t)) process))))

(setf (fdefinition 'ext:run-program) #'run-program-piped)

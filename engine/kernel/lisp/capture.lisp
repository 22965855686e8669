;;;; Streams that stand in for the standard streams while a job runs: output is streamed to
;;;; the host in chunks as it is produced and dropped past the job's budget (so 100 MB of
;;;; output never piles up in memory); input streams refuse to wait for a person.

(in-package "LISP-DUET.KERNEL")

(defconstant +chunk-characters+ 8192)
(defparameter *chunk-interval* (floor internal-time-units-per-second 20)) ; 50 ms

(defstruct budget
  (remaining 100000 :type integer)
  (dropped 0 :type integer))

(defclass capture-stream (gray:fundamental-character-output-stream)
  ((job :initarg :job :reader capture-job)
   (name :initarg :name :reader capture-name)
   (budget :initarg :budget :reader capture-budget)
   (buffer :initform (make-string-output-stream) :reader capture-buffer)
   (pending :initform 0 :accessor capture-pending)
   (column :initform 0 :accessor capture-column)
   (last-flush :initform (get-internal-real-time) :accessor capture-last-flush)))

(defun make-capture (job name budget)
  (make-instance 'capture-stream :job job :name name :budget budget))

(defun flush-capture (stream)
  (let ((text (get-output-stream-string (capture-buffer stream))))
    (setf (capture-pending stream) 0
          (capture-last-flush stream) (get-internal-real-time))
    (when (plusp (length text))
      (send-event "output" "id" (capture-job stream) "stream" (capture-name stream)
                  "text" text))))

(defun maybe-flush-capture (stream)
  (when (or (>= (capture-pending stream) +chunk-characters+)
            (>= (- (get-internal-real-time) (capture-last-flush stream)) *chunk-interval*))
    (flush-capture stream)))

(defun capture-text (stream string start end)
  "Keeps what fits in the budget, counts the rest as dropped, tracks the column."
  (let* ((budget (capture-budget stream))
         (wanted (- end start))
         (kept (min wanted (max 0 (budget-remaining budget)))))
    (when (plusp kept)
      (write-string string (capture-buffer stream) :start start :end (+ start kept))
      (decf (budget-remaining budget) kept)
      (incf (capture-pending stream) kept))
    (incf (budget-dropped budget) (- wanted kept))
    (let ((newline (position #\Newline string :start start :end end :from-end t)))
      (if newline
          (setf (capture-column stream) (- end newline 1))
          (incf (capture-column stream) wanted)))
    (maybe-flush-capture stream)))

(defmethod gray:stream-write-char ((stream capture-stream) char)
  (capture-text stream (string char) 0 1)
  char)

(defmethod gray:stream-write-string ((stream capture-stream) string &optional (start 0) end)
  (capture-text stream string start (or end (length string)))
  string)

(defmethod gray:stream-line-column ((stream capture-stream))
  (capture-column stream))

;; PRINT and the pretty printer force output after every call; sending each piece would
;; flood the host, so forcing only flushes once the chunk interval has passed. The evaluator
;; flushes what remains when the job ends.
(defmethod gray:stream-force-output ((stream capture-stream))
  (maybe-flush-capture stream)
  nil)

(defmethod gray:stream-finish-output ((stream capture-stream))
  (maybe-flush-capture stream)
  nil)

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

(defun make-refusing-io (what output)
  (make-two-way-stream (make-instance 'refusing-input-stream :what what) output))

;;; A string sink with a ceiling, for printing values: printing a 100-million-character
;;; string must not build a 400 MB copy first.

(defclass limited-string-stream (gray:fundamental-character-output-stream)
  ((limit :initarg :limit :reader limited-limit)
   (count :initform 0 :accessor limited-count)
   (column :initform 0 :accessor limited-column)
   (buffer :initform (make-string-output-stream) :reader limited-buffer)))

(defmethod gray:stream-write-char ((stream limited-string-stream) char)
  (gray:stream-write-string stream (string char))
  char)

(defmethod gray:stream-write-string ((stream limited-string-stream) string &optional (start 0) end)
  (let* ((end (or end (length string)))
         (room (- (limited-limit stream) (limited-count stream)))
         (kept (min room (- end start))))
    (write-string string (limited-buffer stream) :start start :end (+ start kept))
    (incf (limited-count stream) kept)
    (let ((newline (position #\Newline string :start start :end (+ start kept) :from-end t)))
      (if newline
          (setf (limited-column stream) (- (+ start kept) newline 1))
          (incf (limited-column stream) kept)))
    (when (< kept (- end start))
      (throw 'limited-string-full nil)))
  string)

(defmethod gray:stream-line-column ((stream limited-string-stream))
  (limited-column stream))

(defun print-limited (function limit)
  "Calls FUNCTION with a stream; returns what it wrote, cut at LIMIT characters with a note."
  (let ((stream (make-instance 'limited-string-stream :limit limit)))
    (if (catch 'limited-string-full (funcall function stream) t)
        (get-output-stream-string (limited-buffer stream))
        (format nil "~A ... [cut: the printed form is longer than ~:D characters]"
                (get-output-stream-string (limited-buffer stream)) limit))))

(defmacro with-job-streams ((package stdout stderr) &body body)
  "The dynamic environment of every job that runs user code: the session package, output to
the job's captures, interactive input refused, the printer's limits left to the user."
  `(let ((*package* ,package)
         (*standard-output* ,stdout)
         (*error-output* ,stderr)
         (*trace-output* ,stderr)
         (*standard-input* (make-instance 'refusing-input-stream
                                          :what "Reading from *standard-input*"))
         (*query-io* (make-refusing-io "A question on *query-io* (such as Y-OR-N-P)" ,stdout))
         (*debug-io* (make-refusing-io "The debugger" ,stderr))
         (*terminal-io* (make-refusing-io "Reading from *terminal-io*" ,stdout))
         (*print-length* nil)
         (*print-level* nil))
     ,@body))

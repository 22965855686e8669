;;;; Evaluating the user's code: read and evaluate each form in turn, then print the values
;;;; with the session's print settings. RUN-JOB (jobs.lisp) provides the rest: the session
;;;; package, captured streams, warnings, errors and interrupts.

(in-package "LISP-DUET.KERNEL")

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
  ;; Code shorter than the limit cannot nest deeper; COUNT is compiled and fast: most code
  ;; never needs the scan.
  (when (and (> (length code) +max-read-depth+) (> (count #\( code) +max-read-depth+))
    (let ((depth (nesting-depth code)))
      (when (> depth +max-read-depth+)
        (error 'lisp-duet:nesting-too-deep :stream stream :depth depth)))))

(defun read-next-form (in code eof)
  "The next form of CODE from IN, or EOF; a reader error ends the job with its position."
  (let ((*job-phase* "read")
        (start (file-position in)))
    (handler-bind ((serious-condition
                     (lambda (c)
                       (job-failed c :message (read-error-message c code start) :backtrace nil))))
      (when (zerop start)
        (check-nesting code in))
      (read in nil eof))))

(defvar *timing* nil
  "While a time job runs, where its figures add up (timing.lisp); NIL for any other job.")

(defun evaluate-form (form)
  "FORM's values as a list; a time job measures them (TIMED-EVALUATION)."
  (if *timing*
      (timed-evaluation form)
      (multiple-value-list (eval form))))

(defun evaluate-retryably (form debug)
  "FORM's values; while it runs, the debugger's RETRY restart (debugger.lisp) evaluates it
again from the start, in the session as it is by then."
  (setf (job-debug-retryable debug) t)
  (unwind-protect
       (loop
         (catch (job-debug-retry-tag debug)
           (return (evaluate-form form))))
    (setf (job-debug-retryable debug) nil)))

(defun compiled-variable-name (text)
  "The symbol a natively compiled frame's variable record names (\"SHAPES::SIDE\", written
in full when it was compiled), or NIL. Interns nothing."
  (let* ((colon (position #\: text))
         (package (and colon (plusp colon) (find-package (subseq text 0 colon))))
         (name (and package (string-left-trim ":" (subseq text colon)))))
    (and name (find-symbol name package))))

(defun frame-variable-records (environment)
  "The (NAME . VALUE) records of the lexical variables in a frame's ENVIRONMENT, innermost
first, one per name (the innermost shadows the others), without the compiler's own gensyms.
For a bytecoded frame each record is the binding's storage itself; a frame compiled at
(debug 3) names its variables by text, and its records are copies of the values."
  (let ((seen '()) (records '()))
    (dolist (record (if (listp environment) environment (ignore-errors (si::decode-ihs-env environment))))
      (when (and (consp record) (stringp (car record)))
        (let ((symbol (compiled-variable-name (car record))))
          (setf record (and symbol (cons symbol (cdr record))))))
      (when (and (consp record) (symbolp (car record)) (car record) (symbol-package (car record))
                 (not (member (car record) seen :test #'eq)))
        (push (car record) seen)
        (push record records)))
    (nreverse records)))

(defun in-frame-form (form environment)
  "FORM with the frame's lexical variables in reach: each name stands for its binding's own
record, so reading sees the frame's value and SETQ changes it. (SI:EVAL-WITH-ENV misplaces
variables when the frame also holds a block or a tag, as RESTART-CASE makes.)"
  (let ((records (frame-variable-records environment)))
    (if records
        `(symbol-macrolet ,(loop for record in records
                                 collect `(,(car record) (cdr (quote ,record))))
           ,form)
        form)))

(defun evaluate-forms (request &optional (environment nil in-frame))
  "The body of an eval job: each form of the code read and evaluated in turn, then the
values of the last one printed with the request's print settings. With ENVIRONMENT (a parked
frame's lexical environment, possibly NIL), the forms are evaluated there instead and
define nothing for the session's records."
  (let* ((id (getf request :id))
         (code (or (getf request :code) ""))
         (options (getf request :options))
         (debug *job-debug*)
         (results '()))
    (with-input-from-string (in code)
      (loop for start = (file-position in)
            for form = (read-next-form in code in)
            until (eq form in)
            do (dolist (w (form-style-warnings form)) (note-job-warning w))
               (if in-frame
                   (setf results (multiple-value-list (eval (in-frame-form form environment))))
                   (let ((before (definition-before form))
                         (*top-level-form* form))
                     (setf results (if debug
                                       (evaluate-retryably form debug)
                                       (evaluate-form form)))
                     (note-definition form id)
                     (note-ledger-definition form start (file-position in) before)))))
    (%stage +stage-evaluated+)
    (when *editor-request*
      ;; The editor prints them itself, as Swank would have (editor.lisp).
      (setf (editor-request-values *editor-request*) results))
    (let ((*job-phase* "print")
          (print-length (option options :print_length *default-print-length*))
          (print-level (option options :print_level *default-print-level*))
          (limit (option options :max_output_chars *default-max-output-chars*)))
      (let ((printed (mapcar (lambda (v) (print-value v print-length print-level limit))
                             results))
            (result-id (and results (remember-result (first results)))))
        (%stage +stage-printed+)
        (list* "values" printed (and result-id (list "result_id" result-id)))))))

(defun evaluate (request)
  (run-job request (lambda () (evaluate-forms request)) :keep-package t))

(define-operation "eval" :worker #'evaluate)

;;;; The shared debugger. A job that asked for it ("debug" in its request) does not unwind
;;;; when an error reaches the job's handler: it parks where the error happened. The host
;;;; hears "parked" (the condition, the restarts, the frames) and the worker thread serves,
;;;; right there, in the parked job's dynamic environment, a nested loop of requests: a
;;;; level. Evaluations from the person and the agents run nested in it (SLIME's recursive
;;;; levels; another error parks one level up), debugger-eval evaluates in one of its frames,
;;;; invoke-restart continues. A level ends when control leaves it (a restart, a throw); the
;;;; host then hears "unparked". debugger-frame is answered by the service thread from the
;;;; frames kept at park time, even while a nested evaluation runs.
;;;;
;;;; Every parked job also offers the session's own restarts, as SLIME does: RETRY (evaluate
;;;; the failed top-level form again) and ABORT (end the job with its error, as without the
;;;; debugger). They are made when the job parks, never before: an evaluation that does not
;;;; fail pays nothing for them.

(in-package "LISP-DUET.KERNEL")

(defun interrupted-condition (by)
  "The condition of a break, LISP-DUET:EVALUATION-INTERRUPTED. Its class is made at the first
break, not at every start of the engine (a condition class costs millions of instructions)."
  (unless (find-class 'lisp-duet:evaluation-interrupted nil)
    (without-noting-definitions
     (eval '(define-condition lisp-duet:evaluation-interrupted (condition)
            ((by :initarg :by :initform nil))
            (:report (lambda (c s)
                       (format s "~A interrupted this evaluation to look at it: it waits where it was. ~
                                  CONTINUE resumes it; ABORT ends it."
                               (or (slot-value c 'by) "Someone"))))))))
  (make-condition 'lisp-duet:evaluation-interrupted :by by))

(define-record level
  job-id      ; the parked job's request id
  number      ; 1 for the outermost level
  restarts    ; its own restarts, in the order shown (RETRY and ABORT last)
  frames      ; (TEXT FUNCTION ENVIRONMENT) of BACKTRACE-FRAMES, innermost first
  package     ; *PACKAGE* where it parked: restart arguments are read there
  ended-by    ; the restart an invoke-restart request chose, for the "unparked" event
  chosen-by   ; who chose it, as the host said ("by"), for the person's editor
  condition   ; what it parked on
  origin      ; who asked for the parked job, when the host said
  (watchers '())) ; functions of the level, called when it closes (the editors' SLDBs on it)

(defvar *levels* '() "The worker's open levels, innermost first (bound per level).")
(defvar *parked* '() "Every open level, innermost first, for the service thread.")
(defvar *parked-lock* (mp:make-lock :name "lisp-duet parked levels"))
(defvar lisp-duet:*debugger-condition* nil
  "In a debugger level, the condition it waits on (as SLIME's *SWANK-DEBUGGER-CONDITION*).")
(defvar *request-answered* nil
  "Set by an operation that answered its request itself before control left it.")

;;; Parking

(defun watch-level (level watcher)
  "Calls WATCHER with LEVEL when the level closes (from the worker, as control leaves it);
NIL, calling nothing, when it has closed already."
  (mp:with-lock (*parked-lock*)
    (unless (eq (level-watchers level) :closed)
      (push watcher (level-watchers level))
      t)))

(defun unwatch-level (level watcher)
  (mp:with-lock (*parked-lock*)
    (unless (eq (level-watchers level) :closed)
      (setf (level-watchers level) (remove watcher (level-watchers level) :test #'eq)))))

(defun parked-levels ()
  "Every open level, outermost first (a copy, for any thread)."
  (mp:with-lock (*parked-lock*) (reverse *parked*)))

(defun parkable-p (condition)
  ;; A stack or heap exhausted leaves no room to serve a nested loop where it happened.
  (and (typep condition 'error) (not (typep condition 'storage-condition))))

(defun park-or-fail (condition)
  "The serious-condition handler of a job with the debugger."
  (if (parkable-p condition)
      (park condition)
      (job-failed condition :base (job-debug-base *job-debug*))))

(defun own-restarts (condition debug)
  "The restarts of CONDITION established inside the job of DEBUG (not those of the levels
and jobs around it), innermost first."
  (let ((own (loop for tail on si::*restart-clusters*
                   until (eq tail (job-debug-outer-restarts debug))
                   append (car tail))))
    (remove-if-not (lambda (restart) (member restart own :test #'eq))
                   (compute-restarts condition))))

(defun restart-text (restart)
  (let ((*package* *session-package*))
    (or (ignore-errors (one-line (with-brief-printing (princ-to-string restart))))
        (string (restart-name restart)))))

(defun restart-name-text (restart)
  (let ((name (restart-name restart)))
    (if name (symbol-name name) "(anonymous)")))

(defun park (condition &key break-p)
  "Parks the running job of *JOB-DEBUG* on CONDITION: tells the host and serves a level
until control leaves it. Called from the job's handler or the debugger hook, in the
dynamic environment of the signal."
  (let* ((debug *job-debug*)
         (frames (backtrace-frames condition (job-debug-base debug) :top-level t))
         (failure (error-object (condition-type-name condition) (condition-message condition)
                                *job-phase* (numbered-frames frames))))
    (setf *job-final-package* *package*)
    (restart-bind ((lisp-duet:retry
                     (lambda () (throw (job-debug-retry-tag debug) nil))
                     :test-function (lambda (c) (declare (ignore c)) (job-debug-retryable debug))
                     :report-function
                     (lambda (s) (write-string "Evaluate the top-level form again from its start, in the session as it is now." s)))
                   (abort
                     (lambda () (throw (job-debug-abort-tag debug) (if break-p :interrupted failure)))
                     :report-function
                     (lambda (s) (write-string (if break-p
                                                   "End this evaluation as interrupted."
                                                   "End this evaluation with its error, as without the debugger.")
                                               s))))
      (let* ((own (own-restarts condition debug))
             (session (subseq own 0 (if (eq (restart-name (first own)) 'lisp-duet:retry) 2 1)))
             (level (make-level :job-id (job-debug-id debug)
                                :number (1+ (length *levels*))
                                :restarts (append (nthcdr (length session) own) session)
                                :frames frames
                                :package *package*
                                :condition condition
                                :origin (job-debug-origin debug))))
        (serve-parked level debug condition failure break-p)))))

(defun parked-event (level condition failure break-p)
  (obj "event" "parked"
       "id" (level-job-id level)
       "level" (level-number level)
       "condition_type" (condition-type-name condition)
       "message" (condition-message condition)
       "restarts" (loop for restart in (level-restarts level)
                        for i from 0
                        collect (obj "index" i "name" (restart-name-text restart)
                                     "description" (restart-text restart)))
       "frames" (loop for (text function environment) in (level-frames level)
                      for i from 0
                      collect (obj "index" i "text" text
                                   "locals" (if (frame-variables-kind function environment) t :false)))
       "error" failure
       "package" (package-name (level-package level))
       "break" (if break-p t :false)))

(defun serve-parked (level debug condition failure break-p
                     &aux (editor *editor-request*)) ; the person's editor opens its debugger too
  (mp:with-lock (*interrupt-lock*)
    ;; While parked the job is not running: an interrupt for it must not throw into it.
    (setf *running-job* nil))
  (mp:with-lock (*parked-lock*) (push level *parked*))
  (unwind-protect
       (let ((*levels* (cons level *levels*))
             ;; Jobs nested here get streams of their own: the parked job's are in use.
             (*job-streams* nil)
             ;; ...and are not the parked job: only one that asks for the debugger has one.
             (*job-debug* nil)
             ;; ...nor timed, when a time job parked.
             (*timing* nil)
             (lisp-duet:*debugger-condition* condition))
         (flush-job-streams (job-debug-streams debug))
         (send (parked-event level condition failure break-p))
         (when editor (editor-job-parked editor level condition))
         (serve-level))
    (let ((watchers (mp:with-lock (*parked-lock*)
                      (setf *parked* (remove level *parked* :test #'eq))
                      (shiftf (level-watchers level) :closed))))
      (dolist (watcher watchers) (ignore-errors (funcall watcher level))))
    (setf *running-job* (job-debug-id debug))
    (ignore-errors
     (send-event "unparked" "id" (level-job-id level) "level" (level-number level)
                 "restart" (or (level-ended-by level) :null)))
    (when editor (editor-job-unparked editor level))))

(defun serve-level ()
  "The nested loop of a level: every request for the worker, until control leaves."
  (loop
    (serve-nested (mp:without-interrupts (%next-request :worker)))))

(defun unwound-reply (request)
  (append (job-reply (getf request :id) "error"
                     :package (package-name *session-package*)
                     :error (error-object "LISP-DUET:UNWOUND"
                                          "This ran in a debugger level and was cut short when control left the level (a restart chosen for an evaluation parked below it, or a throw). It has no values; what it defined before remains."
                                          "eval"))
          (list "unwound" t)))

(defun serve-nested (request)
  "Serves one request inside a level. If control leaves the level while the request is
served, it is answered on the way out (\"unwound\"), so that every request gets its reply."
  (let ((*request-answered* nil)
        (finished nil))
    (unwind-protect
         (progn
           (catch 'job-abort (run-operation request (operation-function request)))
           (setf finished t))
      (unless (or finished *request-answered*)
        (ignore-errors (when (job-streams-p *job-streams*) (flush-job-streams *job-streams*)))
        (ignore-errors (send (unwound-reply request)))))))

;;; A break: the person's Interrupt (or a client's cancellation) of a job with the debugger.

(defun break-job (by)
  "Parks the running job where an interrupt found it, with a CONTINUE restart that resumes it."
  (with-simple-restart (continue "Continue the interrupted evaluation from where it was.")
    (park (interrupted-condition by) :break-p t)))

;;; Finding levels, frames and restarts for a request

(defun find-level (request)
  "The worker's open level of the request's \"target\" job (and \"level\", when given)."
  (let ((target (getf request :target))
        (number (getf request :level)))
    (find-if (lambda (level)
               (and (eql (level-job-id level) target)
                    (or (not (integerp number)) (eql (level-number level) number))))
             *levels*)))

(defun find-parked (request)
  "The same, from any thread."
  (let ((target (getf request :target))
        (number (getf request :level)))
    (mp:with-lock (*parked-lock*)
      (find-if (lambda (level)
                 (and (eql (level-job-id level) target)
                      (or (not (integerp number)) (eql (level-number level) number))))
               *parked*))))

(defun not-parked-reply (request)
  (failed-reply (getf request :id) "NOT-PARKED"
                (format nil "Evaluation ~A is not parked in the debugger~@[ at level ~A~] (it continued, ended, or never parked)."
                        (getf request :target) (getf request :level))))

(defun level-frame (level index)
  "(values frame problem)."
  (let ((count (length (level-frames level))))
    (if (and (integerp index) (<= 0 index) (< index count))
        (values (nth index (level-frames level)) nil)
        (values nil (if (zerop count)
                        (format nil "There is no frame ~A: ECL kept no frame for this error (it happened in the evaluated form itself, or in natively compiled code). debugger-eval without a frame evaluates in the parked thread's dynamic environment." index)
                        (format nil "There is no frame ~A: this debugger has frames 0 to ~D." index (1- count)))))))

(defun find-level-restart (level designator)
  "(values restart problem): DESIGNATOR is the restart's index or its name (without package)."
  (let* ((restarts (level-restarts level))
         (found (cond ((integerp designator)
                       (and (<= 0 designator) (< designator (length restarts)) (nth designator restarts)))
                      ((stringp designator)
                       (let ((name (string-upcase (string-trim " " (subseq designator (1+ (or (position #\: designator :from-end t) -1)))))))
                         (find name restarts :key #'restart-name-text :test #'string=))))))
    (if found
        (values found nil)
        (values nil (format nil "This debugger has no restart ~S. Its restarts: ~{~A~^, ~}."
                            designator
                            (loop for r in restarts for i from 0
                                  collect (format nil "~D ~A" i (restart-name-text r))))))))

(defun restart-arity-problem (restart values)
  "What is wrong with giving VALUES to RESTART, for the standard restarts whose arity is known."
  (let ((name (restart-name restart)))
    (cond ((and (member name '(use-value store-value)) (/= (length values) 1))
           (format nil "~A takes exactly one value: pass it in \"arguments\" as Lisp text, e.g. [\"42\"]." name))
          ((and (member name '(continue abort muffle-warning lisp-duet:retry)) values)
           (format nil "~A takes no values; call it without \"arguments\"." (symbol-name name))))))

(defun read-restart-arguments (level texts)
  "(values objects problem): each text read in the level's package, without #. evaluation."
  (let ((*package* (level-package level))
        (*read-eval* nil)
        (values '()))
    (dolist (text (if (listp texts) texts (list texts)) (values (nreverse values) nil))
      (handler-case
          (multiple-value-bind (object end) (read-from-string (princ-to-string text))
            (when (find-if-not (lambda (c) (member c '(#\Space #\Tab #\Newline #\Return)))
                               (princ-to-string text) :start end)
              (return (values nil (format nil "The argument ~S holds more than one Lisp object: give one value per argument." text))))
            (push object values))
        (error (c)
          (return (values nil (format nil "The argument ~S does not read as Lisp: ~A"
                                      text (one-line (condition-message c))))))))))

;;; Operations

(defun invoke-restart-op (request)
  "Continues a parked job with one of its restarts. The reply goes out first, with
\"continuing\": control then leaves the level, and the host hears \"unparked\" and, later,
the job's own reply or its next parking."
  (let ((level (find-level request)))
    (unless level
      (return-from invoke-restart-op (not-parked-reply request)))
    (multiple-value-bind (restart problem) (find-level-restart level (getf request :restart))
      (when problem
        (return-from invoke-restart-op (failed-reply (getf request :id) "NO-SUCH-RESTART" problem)))
      (multiple-value-bind (values problem) (read-restart-arguments level (getf request :arguments))
        (let ((problem (or problem (restart-arity-problem restart values))))
          (when problem
            (return-from invoke-restart-op (failed-reply (getf request :id) "BAD-ARGUMENTS" problem))))
        (setf (level-ended-by level) (restart-name-text restart)
              (level-chosen-by level) (getf request :by))
        (send (ok-reply request "restart" (restart-name-text restart)
                        "level" (level-number level) "continuing" t))
        (setf *request-answered* t)
        ;; A restart made with RESTART-BIND may run a function that returns, or fails, without
        ;; leaving the level: then the job still waits, and the host must hear it.
        (let ((problem (handler-case (progn (apply #'invoke-restart restart values) nil)
                         (serious-condition (c) c))))
          (setf (level-ended-by level) nil
                (level-chosen-by level) nil)
          (send-event "still-parked" "id" (level-job-id level) "level" (level-number level)
                      "restart" (restart-name-text restart)
                      "message" (if problem
                                    (format nil "~A failed: ~A: ~A" (restart-name-text restart)
                                            (condition-type-name problem) (one-line (condition-message problem)))
                                    (format nil "~A returned without leaving the level." (restart-name-text restart))))
          nil)))))

(define-operation "invoke-restart" :worker #'invoke-restart-op)

(defun debugger-eval (request)
  "Evaluates code in a frame of a parked job: in its lexical environment when ECL keeps one
(bytecoded functions; for a frame compiled at (debug 3), copies of its values), else in the
parked thread's dynamic environment; read in the frame's package (FRAME-PACKAGE). An error
here is reported, not parked."
  (let ((level (find-level request)))
    (unless level
      (return-from debugger-eval (not-parked-reply request)))
    ;; Without a frame (or frame -1), in the parked thread's dynamic environment only.
    (multiple-value-bind (frame problem) (if (member (getf request :frame) '(nil -1))
                                             (values nil nil)
                                             (level-frame level (getf request :frame)))
      (when problem
        (return-from debugger-eval (failed-reply (getf request :id) "NO-SUCH-FRAME" problem)))
      (run-job (list* :package (package-name (frame-package frame level)) :debug nil request)
               (lambda () (evaluate-forms request (third frame)))))))

(defun frame-package (frame level)
  "Where code evaluated in FRAME is read: for a frame compiled at (debug 3), the package of
its variables (the file's package: a project function's variables are rarely CL-USER's), else
the package the job parked in."
  (let* ((function (second frame))
         (environment (third frame))
         (variable (and frame (eq (frame-variables-kind function environment) :compiled)
                        (car (first (frame-variable-records environment))))))
    (or (and variable (symbol-package variable))
        (level-package level))))

(define-operation "debugger-eval" :worker #'debugger-eval)

(defun frame-variables (function environment)
  "(values arguments locals) of a frame that keeps its variables, each a list of (NAME .
VALUE): the arguments in lambda-list order, the other variables outermost first."
  (let* ((variables (frame-variable-records environment))
         (name (frame-function-name function))
         (lambda-list (and name (ignore-errors (ext:function-lambda-list name))))
         (parameters (loop for item in lambda-list
                           unless (member item lambda-list-keywords)
                             collect (cond ((atom item) item)
                                           ((consp (first item)) (second (first item)))
                                           (t (first item)))))
         ;; (A LET that rebinds a parameter's name shadows it: the value shown is the one the
         ;; code sees.)
         (arguments (loop for parameter in parameters
                          for cell = (find parameter variables :key #'car)
                          when cell collect cell))
         (locals (reverse (remove-if (lambda (cell) (member cell arguments :test #'eq)) variables))))
    (values arguments locals)))

(defun variable-entries (cells)
  (loop for (name . value) in cells
        collect (let ((id (remember-result value)))
                  (append (obj "name" (session-print name) "value" (session-print value 1000))
                          (and id (list "result_id" id))))))

(defun debugger-frame (request)
  (with-service-time-limit (request)
    (let ((level (find-parked request)))
      (unless level
        (return-from debugger-frame (not-parked-reply request)))
      (multiple-value-bind (frame problem) (level-frame level (getf request :frame))
        (when problem
          (return-from debugger-frame (failed-reply (getf request :id) "NO-SUCH-FRAME" problem)))
        (destructuring-bind (text function environment) frame
          (let ((name (frame-function-name function))
                (kind (frame-variables-kind function environment)))
            (multiple-value-bind (arguments locals)
                (if kind (frame-variables function environment) (values nil nil))
              (ok-reply request
                        "found" t
                        "target" (level-job-id level)
                        "level" (level-number level)
                        "frame" (getf request :frame)
                        "text" text
                        "function" (if name (session-print name) :null)
                        "locals_available" (if kind t :false)
                        "note" (cond ((eq kind :bytecoded) :null)
                                     ((and (eq kind :compiled) (symbolp name) name
                                           (native-since-text name))
                                      (format nil "Compiled to native code in the background (~A), at (debug 3) so that its frame keeps its variables: the values are those they had when it stopped. debugger-eval reads them; a SETQ there does not change the running code."
                                              (native-since-text name)))
                                     ((eq kind :compiled)
                                      "Compiled for debugging (the project's systems are compiled at (debug 3)): the values are those the variables had when it stopped. debugger-eval reads them; a SETQ there does not change the running code.")
                                     ((null function)
                                      "A call of a compiled built-in function, rebuilt from the condition: ECL keeps no frame for it, so its arguments are those shown and it has no locals.")
                                     (t "This function is compiled to native code: ECL keeps no arguments or locals for it. Evaluating in this frame uses the parked thread's dynamic environment (special variables), not its lexical variables."))
                        "arguments" (variable-entries arguments)
                        "locals" (variable-entries locals)
                        "source" (or (and (symbolp name) name
                                          (let ((*package* *session-package*))
                                            (source-location name "function")))
                                     :null)
                        "package" (package-name (level-package level))))))))))

(define-operation "debugger-frame" :service #'debugger-frame)

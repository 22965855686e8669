;;;; run-tests: a system's tests, loaded through ASDF and run in the worker as a job (time
;;;; limits and interrupts as for evaluations). When the tests use FiveAM, every check's
;;;; result comes back in structure: FiveAM hands its result objects to EXPLAIN, and a
;;;; failed check goes through PROCESS-FAILURE with the values it compared; the kernel
;;;; listens at both places (hooks installed once FiveAM is loaded, active only while
;;;; run-tests runs). Any other framework runs through ASDF's test-op with its output.
;;;; FiveAM is not a dependency of the kernel: its symbols are looked up at run time.

(in-package "LISP-DUET.KERNEL")

;;; A capture of what the tests print, for the reply: a string with a ceiling, so that a
;;; test printing in a loop never piles up memory. Past the ceiling it counts and drops.

(defclass capped-output (gray:fundamental-character-output-stream)
  ((text :initform (make-array 256 :element-type 'character :adjustable t :fill-pointer 0)
         :reader capped-text)
   (room :initarg :room :accessor capped-room)
   (dropped :initform 0 :accessor capped-dropped)
   (column :initform 0 :accessor capped-column)))

(defmethod gray:stream-write-char ((stream capped-output) char)
  (setf (capped-column stream) (if (char= char #\Newline) 0 (1+ (capped-column stream))))
  (if (plusp (capped-room stream))
      (progn (vector-push-extend char (capped-text stream))
             (decf (capped-room stream)))
      (incf (capped-dropped stream)))
  char)

(defmethod gray:stream-line-column ((stream capped-output))
  (capped-column stream))

(defun capped-output-string (stream)
  (let ((text (coerce (capped-text stream) 'simple-string)))
    (if (plusp (capped-dropped stream))
        (format nil "~A~&... [~:D more characters not kept: the output budget is spent]"
                text (capped-dropped stream))
        text)))

;;; FiveAM, seen from outside.

(defun fiveam-package ()
  (find-package "IT.BESE.FIVEAM"))

(defun fiveam-function (name)
  (let ((symbol (find-symbol name (fiveam-package))))
    (unless (and symbol (fboundp symbol))
      (error "This FiveAM has no ~A: Lisp Duet knows FiveAM 1.4." name))
    (fdefinition symbol)))

(defun fiveam-call (name &rest arguments)
  (apply (fiveam-function name) arguments))

(defvar *fiveam-listening* nil
  "True while run-tests runs FiveAM tests: the hooks below record only then.")
(defvar *explained-results* '()
  "Each list of results FiveAM's EXPLAIN was given during this run, newest first.")
(defvar *explain-count* 0 "How often EXPLAIN was called during this run.")
(defvar *failure-values* '()
  "(test-expr expected actual) of every failed check of this run, newest first, from
PROCESS-FAILURE's arguments: FiveAM's failure objects keep only the reason text.")
(defvar *hooked-explain* nil "The EXPLAIN generic function our :AROUND method is on.")
(defvar *failure-recorder* nil "Our wrapper of PROCESS-FAILURE, while it is in place.")

(defvar *explaining* nil
  "True inside EXPLAIN: FiveAM explains a FOR-ALL failure's own results from within, and
those are already among the outer results.")

(defun call-explained (results next)
  (if *explaining*
      (funcall next)
      (let ((*explaining* t))
        (when *fiveam-listening*
          (incf *explain-count*)
          (push results *explained-results*))
        (funcall next))))

(defun compared-values (reason-format arguments)
  "Expected and actual values of a failed IS check, from FiveAM's default reason arguments:
(actual-form actual predicate expected) for (predicate expected actual), (form value
predicate) for (predicate value). Null when the check gave its own reason."
  (cond ((not (and (stringp reason-format) (search " evaluated to " reason-format)))
         (values :none :none))
        ((= (length arguments) 4) (values (fourth arguments) (second arguments)))
        ((= (length arguments) 3) (values :none (second arguments)))
        (t (values :none :none))))

(defun make-failure-recorder (original)
  (lambda (test-expr &optional reason-format &rest arguments)
    (when *fiveam-listening*
      (multiple-value-bind (expected actual) (compared-values reason-format arguments)
        (push (list test-expr expected actual) *failure-values*)))
    (apply original test-expr reason-format arguments)))

(defun install-fiveam-hooks ()
  "Puts the listeners in place, once per FiveAM image (again if FiveAM was reloaded)."
  (let ((explain (find-symbol "EXPLAIN" (fiveam-package)))
        (process-failure (find-symbol "PROCESS-FAILURE" (fiveam-package))))
    (unless (and explain (fboundp explain) process-failure (fboundp process-failure))
      (error "This FiveAM has no EXPLAIN or PROCESS-FAILURE: Lisp Duet knows FiveAM 1.4."))
    (unless (eq *hooked-explain* (fdefinition explain))
      ;; FiveAM was not there when the kernel was compiled: the method is made now.
      (let ((*package* (find-package "LISP-DUET.KERNEL")))
        (eval `(defmethod ,explain :around (explainer results &optional stream depth)
                 (declare (ignore explainer stream depth))
                 (call-explained results (lambda () (call-next-method))))))
      (setf *hooked-explain* (fdefinition explain)))
    (unless (and *failure-recorder* (eq (fdefinition process-failure) *failure-recorder*))
      (setf *failure-recorder* (make-failure-recorder (fdefinition process-failure))
            (fdefinition process-failure) *failure-recorder*))))

;;; Turning FiveAM's results into the reply.

(defun printed-in (object package &optional (limit 2000))
  "OBJECT printed readably-ish, briefly, with symbols relative to PACKAGE."
  (let ((*package* (or package *session-package*)))
    (with-brief-printing
      (handler-case (print-limited (lambda (s) (prin1 object s)) limit)
        (serious-condition () "#<unprintable object>")))))

(defun squeeze-whitespace (text)
  "FiveAM's reasons are laid out over blank lines for a terminal: one line reads better."
  (with-output-to-string (out)
    (let ((pending nil) (started nil))
      (loop for char across text
            do (if (member char '(#\Space #\Newline #\Tab #\Return #\Page))
                   (setf pending started)
                   (progn (when pending (write-char #\Space out))
                          (write-char char out)
                          (setf pending nil started t)))))))

(defun result-test-case (result)
  (ignore-errors (fiveam-call "TEST-CASE" result)))

(defun test-case-package (test-case)
  (and test-case (ignore-errors (fiveam-call "RUNTIME-PACKAGE" test-case))))

(defun test-case-name (test-case)
  (let ((name (and test-case (ignore-errors (fiveam-call "NAME" test-case)))))
    (if name (printed-in name (test-case-package test-case) 300) :null)))

(defun take-failure-values (test-expr unclaimed)
  "The recorded (expected actual) of the first unclaimed failure of TEST-EXPR, claiming it.
UNCLAIMED is a one-element list holding the recorded entries, oldest first."
  (let ((entry (find test-expr (car unclaimed) :key #'first :test #'eq)))
    (when entry
      (setf (car unclaimed) (remove entry (car unclaimed) :test #'eq :count 1)))
    (if entry (values (second entry) (third entry)) (values :none :none))))

(defun failure-object (result unclaimed)
  (let* ((test-case (result-test-case result))
         (package (test-case-package test-case))
         (expr (ignore-errors (fiveam-call "TEST-EXPR" result)))
         (condition (and (typep result (find-symbol "UNEXPECTED-TEST-FAILURE" (fiveam-package)))
                         (ignore-errors (fiveam-call "ACTUAL-CONDITION" result))))
         (reason (ignore-errors (fiveam-call "REASON" result))))
    (multiple-value-bind (expected actual) (if condition
                                               (values :none :none)
                                               (take-failure-values expr unclaimed))
      (obj "test" (test-case-name test-case)
           "form" (if expr (printed-in expr package) :null)
           "expected" (if (eq expected :none) :null (printed-in expected package 500))
           "actual" (if (eq actual :none) :null (printed-in actual package 500))
           "reason" (cond (condition
                           (format nil "error: ~A: ~A" (condition-type-name condition)
                                   (one-line (condition-message condition))))
                          ((stringp reason) (squeeze-whitespace reason))
                          (t "no reason given"))))))

(defun fiveam-fields (results)
  "Counts of checks and the failures, in the order they happened."
  (let ((passed 0) (failed 0) (skipped 0) (failures '())
        (unclaimed (list (reverse *failure-values*)))
        (passed-class (find-symbol "TEST-PASSED" (fiveam-package)))
        (failure-class (find-symbol "TEST-FAILURE" (fiveam-package)))
        (skipped-class (find-symbol "TEST-SKIPPED" (fiveam-package))))
    (dolist (result results)
      (cond ((typep result passed-class) (incf passed))
            ((typep result failure-class)
             (incf failed)
             (push (failure-object result unclaimed) failures))
            ((typep result skipped-class) (incf skipped))))
    (list "passed" passed "failed" failed "skipped" skipped "failures" (nreverse failures))))

;;; Which systems hold the tests, and loading them.

(defun test-op-systems (system)
  "The systems SYSTEM's test-op depends on (:in-order-to ((test-op (test-op \"x/tests\")))),
and SYSTEM itself."
  (let* ((test-op (asdf-symbol "TEST-OP"))
         (depends (ignore-errors
                   (funcall (asdf-symbol "COMPONENT-DEPENDS-ON")
                            (funcall (asdf-symbol "MAKE-OPERATION") test-op) system))))
    (cons system
          (loop for (operation . components) in depends
                when (or (eq operation test-op) (ignore-errors (typep operation test-op)))
                  append (loop for component in components
                               for found = (ignore-errors
                                            (funcall (asdf-symbol "FIND-SYSTEM") component nil))
                               when found collect found)))))

(defun load-quietly (systems)
  "Loads SYSTEMS with their compiler chatter and warnings kept out of the test output
(loading FiveAM the first time compiles it: tens of seconds)."
  (let ((before (list-all-packages)))
    (let ((*standard-output* (make-broadcast-stream))
          (*error-output* (make-broadcast-stream))
          (*compile-verbose* nil) (*compile-print* nil) (*load-verbose* nil))
      (handler-bind ((warning #'muffle-warning))
        (dolist (system systems)
          (funcall (asdf-symbol "LOAD-SYSTEM") system))))
    (setf *system-packages* (union *system-packages*
                                   (set-difference (list-all-packages) before)))))

(defun muffle-missing-static-file (warning)
  "ASDF warns on every test-op that a library's static file (Debian's trivial-backtrace lacks
its COPYING) is missing: noise about someone else's package, not about the tests."
  (when (search "completed without its input file" (or (ignore-errors (princ-to-string warning)) ""))
    (muffle-warning warning)))

(defun find-fiveam-test (text)
  "The name (a symbol) of the FiveAM test or suite TEXT names: package-qualified, or a name
that one test or suite of any package has."
  (let* ((colon (position #\: text))
         (name (string-upcase (string-left-trim ":" (if colon (subseq text colon) text))))
         (names (fiveam-call "TEST-NAMES"))
         (matches (remove-if-not (lambda (symbol)
                                   (and (symbolp symbol) (string= (symbol-name symbol) name)
                                        (or (null colon)
                                            (eq (symbol-package symbol)
                                                (find-package (string-upcase (subseq text 0 colon)))))))
                                 names)))
    (cond ((= (length matches) 1) (first matches))
          ((null matches)
           (error "No FiveAM test or suite is named ~A. Known tests and suites: ~{~A~^, ~}."
                  text (let ((known (sort (mapcar #'prin1-to-string (remove-if-not (lambda (s) (and s (symbolp s))) names))
                                          #'string<)))
                         (subseq known 0 (min 30 (length known))))))
          (t (error "Several FiveAM tests are named ~A: ~{~S~^, ~}. Name one with its package, e.g. ~S."
                    text matches (first matches))))))

(defun fiveam-debug-variables ()
  "FiveAM's *ON-ERROR* and *ON-FAILURE* when the running job has the debugger, else none."
  (and *job-debug* (fiveam-package)
       (list (find-symbol "*ON-ERROR*" (fiveam-package)) (find-symbol "*ON-FAILURE*" (fiveam-package)))))

(defun run-tests-op (request)
  (let ((name (string-downcase (string-trim " " (or (getf request :system) ""))))
        (test (let ((text (getf request :test)))
                (and (stringp text) (plusp (length (string-trim " " text)))
                     (string-trim " " text))))
        (limit (option (getf request :options) :max_output_chars *default-max-output-chars*)))
    (when (zerop (length name))
      (return-from run-tests-op
        (failed-reply (getf request :id) "BAD-REQUEST"
                      "run-tests needs the name of an ASDF system in \"system\", e.g. \"shapes\".")))
    (run-job request
             (lambda ()
               (ensure-asdf)
               (let ((system (find-system-anew name)))
                 (unless system
                   (error (asdf-symbol "MISSING-COMPONENT") :requires name))
                 (load-quietly (test-op-systems system))
                 (when (and test (null (fiveam-package)))
                   (error "Running one test alone needs FiveAM, and the tests of ~A do not use it: ~
                           run the whole system's tests without \"test\"." name))
                 (when (fiveam-package)
                   (install-fiveam-hooks))
                 (let* ((capture (make-instance 'capped-output :room limit))
                        (*standard-output* (make-broadcast-stream *standard-output* capture))
                        (*error-output* (make-broadcast-stream *error-output* capture))
                        (*fiveam-listening* t)
                        (*explained-results* '())
                        (*explain-count* 0)
                        (*failure-values* '()))
                   ;; With the debugger, FiveAM lets the first error or failed check through
                   ;; to the job's handler, which parks it in its frame (debugger.lisp).
                   (progv (fiveam-debug-variables) '(:debug :debug)
                     (handler-bind ((warning #'muffle-missing-static-file))
                       (if test
                           (fiveam-call "RUN!" (find-fiveam-test test))
                           (funcall (asdf-symbol "TEST-SYSTEM") system))))
                   (append (list "system" name "test" (or test :null)
                                 "output" (capped-output-string capture))
                           (if (plusp *explain-count*)
                               (list* "framework" "fiveam"
                                      (fiveam-fields (reverse (apply #'append *explained-results*))))
                               ;; Unknown counts: ASDF's test-op only says what was printed.
                               (list "framework" "asdf" "passed" -1 "failed" -1 "skipped" -1
                                     "failures" '())))))))))

(define-operation "run-tests" :worker #'run-tests-op)

;;;; run-tests: a system's tests, loaded through ASDF and run in the worker as a job (time
;;;; limits and interrupts as for evaluations). When the tests use FiveAM, every check's
;;;; result comes back in structure: each check makes a TEST-RESULT object, and a failed
;;;; check goes through PROCESS-FAILURE with the values it compared; the kernel listens at
;;;; both places (hooks installed once FiveAM is loaded, active only while run-tests runs).
;;;; RT's and ptester's printed summaries are read (test-reports.lisp); any other framework
;;;; runs through ASDF's test-op with its output. FiveAM is not a dependency of the kernel:
;;;; its symbols are looked up at run time.

(in-package "LISP-DUET.KERNEL")

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

;; Each check FiveAM makes is a TEST-RESULT object; the kernel notes those of the tests the run
;; itself runs. FiveAM's own tests run tests inside their tests (RUN and RUN! within a test
;; body): the results of those inner tests are the inner tests' business, not the run's. A
;; method around RUN-TEST-LAMBDA (a generic function, so FiveAM's own calls reach it) tells
;; how deep the running test is.
(defvar *fiveam-listening* nil
  "True while run-tests runs tests: the hooks below record only then.")
(defvar *fiveam-test-depth* 0 "How many tests are running, one inside the other.")
(defvar *run-results* '() "The results of the run's own tests, newest first.")
(defvar *fiveam-ran* nil "True once the run ran a FiveAM test.")
(defvar *failure-values* '()
  "(test-expr expected actual) of every failed check of the run's own tests, newest first, from
PROCESS-FAILURE's arguments: FiveAM's failure objects keep only the reason text.")
(defvar *hooked-fiveam* nil "The RUN-TEST-LAMBDA generic function our methods are on.")
(defvar *failure-recorder* nil "Our wrapper of PROCESS-FAILURE, while it is in place.")

(defun run-result-list ()
  "FiveAM's list of the running run's results (its special RESULT-LIST), or :NONE."
  (let ((symbol (find-symbol "RESULT-LIST" (fiveam-package))))
    (if (and symbol (boundp symbol)) (symbol-value symbol) :none)))

(defun call-test-lambda (next)
  "Runs a test; for a test the run runs itself, notes the results it adds to the run's list
(not those of tests it runs inside, nor the trials of a FOR-ALL, which it sums up in one)."
  (if (or (not *fiveam-listening*) (plusp *fiveam-test-depth*))
      (let ((*fiveam-test-depth* (1+ *fiveam-test-depth*)))
        (funcall next))
      (let* ((before (run-result-list))
             (known (if (listp before) (length before) 0)))
        (setf *fiveam-ran* t)
        (multiple-value-prog1 (let ((*fiveam-test-depth* 1))
                                (funcall next))
          (let ((after (run-result-list)))
            (when (listp after)
              (dolist (result (nthcdr known after))
                (push result *run-results*))))))))

(defun note-fiveam-result (result)
  "A result made outside any test: the run's own skip of a test whose dependency failed."
  (when (and *fiveam-listening* (zerop *fiveam-test-depth*))
    (push result *run-results*)))

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
    (when (and *fiveam-listening* (= *fiveam-test-depth* 1))
      (multiple-value-bind (expected actual) (compared-values reason-format arguments)
        (push (list test-expr expected actual) *failure-values*)))
    (apply original test-expr reason-format arguments)))

(defun install-fiveam-hooks ()
  "Puts the listeners in place, once per FiveAM image (again if FiveAM was reloaded)."
  (let ((run-test-lambda (find-symbol "RUN-TEST-LAMBDA" (fiveam-package)))
        (test-result (find-symbol "TEST-RESULT" (fiveam-package)))
        (process-failure (find-symbol "PROCESS-FAILURE" (fiveam-package))))
    (unless (and run-test-lambda (fboundp run-test-lambda) test-result (find-class test-result nil)
                 process-failure (fboundp process-failure))
      (error "This FiveAM has no RUN-TEST-LAMBDA, TEST-RESULT or PROCESS-FAILURE: Lisp Duet knows FiveAM 1.4."))
    (unless (eq *hooked-fiveam* (fdefinition run-test-lambda))
      ;; FiveAM was not there when the kernel was compiled: the methods are made now.
      (let ((*package* (find-package "LISP-DUET.KERNEL"))
            (*noting-definitions* nil))
        (eval `(defmethod ,run-test-lambda :around (test)
                 (declare (ignore test))
                 (call-test-lambda (lambda () (call-next-method)))))
        (eval `(defmethod initialize-instance :after ((result ,test-result) &key)
                 (note-fiveam-result result))))
      (setf *hooked-fiveam* (fdefinition run-test-lambda)))
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
    (list "passed" passed "failed" failed "skipped" skipped "expected_failures" 0
          "failures" (nreverse failures))))

;;; A test-op that refuses failures: iterate's signals UNEXPECTED-FAILURES-ERROR once RT has
;;; printed its summary, anaphora's "test-op failed", many a FiveAM system's (unless (run! ...)
;;; (error ...)). The tests ran and said how they went: the run is reported with its counts and
;;; failures, and the error beside them, not as a job that failed with no counts.

(defun tests-reported-p (report)
  "True once the run's tests said how they went: a FiveAM test ran, or RT or ptester printed a
whole summary."
  (or *fiveam-ran* (plusp (report-summaries report))))

(defun call-refusing-test-op (report test-op)
  "Calls TEST-OP; returns the error that escaped it after the tests reported (REPORT), signalled
outside any test, or NIL. Any other error goes on to the job's handlers: a test-op that fails
before its tests ran, or an error FiveAM lets through from a test (the debug option)."
  (block run
    (handler-bind ((error (lambda (condition)
                            (when (and (zerop *fiveam-test-depth*) (tests-reported-p report))
                              (return-from run condition)))))
      (funcall test-op)
      nil)))

(defun refusal-fields (condition)
  (list "test_op_error" (if condition
                            (format nil "~A: ~A" (condition-type-name condition)
                                    (one-line (condition-message condition)))
                            :null)))

;;; Which systems hold the tests, and loading them.

(defun test-op-systems (system)
  "The systems SYSTEM's test-op depends on, whatever the operation (:in-order-to ((test-op
(test-op \"x/tests\"))) or cl+ssl's ((test-op (load-op :cl+ssl.test)))), and SYSTEM itself:
loaded before the run, so that FiveAM is there to be listened to and a test can be named."
  (let* ((test-op (asdf-symbol "TEST-OP"))
         (depends (ignore-errors
                   (funcall (asdf-symbol "COMPONENT-DEPENDS-ON")
                            (funcall (asdf-symbol "MAKE-OPERATION") test-op) system))))
    (cons system
          (loop for (nil . components) in depends
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
          ;; cffi-toolchain writes its gcc command lines there.
          (*debug-io* (make-two-way-stream (make-concatenated-stream) (make-broadcast-stream)))
          (*compile-verbose* nil) (*compile-print* nil) (*load-verbose* nil))
      (handler-bind ((warning #'muffle-warning))
        (dolist (system systems)
          (funcall (asdf-symbol "LOAD-SYSTEM") system))))
    (setf *system-packages* (union *system-packages*
                                   (set-difference (list-all-packages) before)))))

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

(defun test-op-defined-p (system)
  "True when SYSTEM's definition gives test-op work: another system's operation to do first,
or a perform method of its own (ASDF's default does nothing)."
  (let ((operation (funcall (asdf-symbol "MAKE-OPERATION") (asdf-symbol "TEST-OP")))
        (eql-specializer (find-class 'clos:eql-specializer nil)))
    (or (remove system (rest (test-op-systems system)))
        (some (lambda (method)
                (some (lambda (specializer) (and eql-specializer (typep specializer eql-specializer)))
                      (clos:method-specializers method)))
              (ignore-errors
               (compute-applicable-methods (fdefinition (asdf-symbol "PERFORM")) (list operation system)))))))

(defun project-root-p (directory)
  (declare (special *project-root*))
  (and *project-root*
       (or (equal (namestring directory) *project-root*)
           (equal (ignore-errors (namestring (truename directory)))
                  (ignore-errors (namestring (truename *project-root*)))))))

(defun scratch-directory (system)
  "Where a run of SYSTEM's tests writes the files it makes relative to *DEFAULT-PATHNAME-DEFAULTS*
(cffi's tests compile libtest.so and its .o files there): the project root for the system
whose .asd is there (the project's own tests run as from its directory), else the directory
ASDF gives SYSTEM's compiled files, so that a library's files stay out of the project."
  (let ((source (ignore-errors (funcall (asdf-symbol "SYSTEM-SOURCE-DIRECTORY") system))))
    (if (or (null source) (project-root-p source))
        *default-pathname-defaults*
        (or (ignore-errors
             (let ((directory (funcall (asdf-symbol "APPLY-OUTPUT-TRANSLATIONS") source)))
               (ensure-directories-exist directory)
               (pathname directory)))
            *default-pathname-defaults*))))

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
    (with-unwound-job-fields (request)
     (run-job request
             (lambda ()
               (ensure-asdf)
               (let* ((system (find-system-anew name))
                      (*default-pathname-defaults* (if system (scratch-directory system) *default-pathname-defaults*)))
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
                        (*fiveam-test-depth* 0)
                        (*run-results* '())
                        (*fiveam-ran* nil)
                        (*failure-values* '())
                        (rt-set-aside 0)
                        (refusal nil))
                   ;; Should the run end in an error, or end its thread, what it printed
                   ;; so far goes into that reply (the last test's output tells which).
                   (setf *unwound-job-fields* (list* (getf request :id) (lambda () (list "output" (capped-output-string capture)))))
                   ;; With the debugger, FiveAM lets the first error or failed check through
                   ;; to the job's handler, which parks it in its frame (debugger.lisp).
                   (progv (fiveam-debug-variables) '(:debug :debug)
                     (handler-bind ((warning #'muffle-missing-static-file))
                       (if test
                           (fiveam-call "RUN!" (find-fiveam-test test))
                           ;; RT's tests of other systems stay out of the run (rt-registry.lisp).
                           (setf rt-set-aside
                                 (nth-value 1 (call-with-own-rt-registry
                                               name (systems-tested-with system (test-op-systems system))
                                               (lambda ()
                                                 (setf refusal (call-refusing-test-op
                                                                (capped-report capture)
                                                                (lambda () (funcall (asdf-symbol "TEST-SYSTEM") system))))
                                                 nil)))))))
                   (let* ((report (finished-report capture))
                          (fields (if *fiveam-ran*
                                      (list* "framework" "fiveam" (fiveam-fields (reverse *run-results*)))
                                      (report-fields report)))
                          (failed (loop for (key value) on fields by #'cddr
                                        when (equal key "failed") return value))
                          ;; FiveAM's own tests print their inner runs' failures on purpose.
                          (alarming (and (not *fiveam-ran*) (report-alarming report))))
                     (append (list "system" name "test" (or test :null)
                                   "output" (capped-output-string capture)
                                   ;; How the tests went: ASDF's test-op alone says nothing,
                                   ;; unless the output tells of a failure or an unhandled error.
                                   "outcome" (cond ((or (plusp failed) alarming refusal) "failed")
                                                   ((minusp failed) "unknown")
                                                   (t "passed"))
                                   "test_op_defined" (if (or test (test-op-defined-p system)) t :false)
                                   "rt_tests_set_aside" rt-set-aside)
                             (refusal-fields refusal)
                             fields)))))))))

(define-operation "run-tests" :worker #'run-tests-op)

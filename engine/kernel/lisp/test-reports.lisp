;;;; What a test run prints: kept for the reply under a ceiling, and read line by line for the
;;;; summaries that test frameworks other than FiveAM print. RT prints a fixed summary ("No
;;;; tests failed." or "2 out of 40 total tests failed: A, B.", then, when the run names
;;;; expected failures, "No unexpected failures." or "1 unexpected failures: B.") and a block
;;;; for each failure, between the names of the tests that pass; ptester prints "Errors
;;;; detected in this test: 1" and "Successes this test:12". Lines are read as they are
;;;; written, so a summary past the output ceiling still counts.

(in-package "LISP-DUET.KERNEL")

(defstruct (printed-report (:conc-name report-))
  (framework nil)            ; "rt" or "ptester" once its lines are seen
  (passed 0) (failed 0)
  (expected 0)               ; RT: failures its *EXPECTED-FAILURES* named
  (pending 0)                ; RT: the tests the running DO-TESTS does
  (block-start 0)            ; RT: how many failures there were when the running DO-TESTS began
  (block-failed 0)           ; RT: the failures its "N out of M" line counted
  (names nil)                ; RT: the list of names being read (:failed or :unexpected)
  (names-text "")            ;     and its text so far, over as many lines as it takes
  (failures '())             ; plists, newest first
  (field nil)                ; the failure field that continuation lines extend
  (suite nil)                ; ptester: the name WITH-TESTS gave
  (summaries 0)              ; the summaries read whole: RT's "N out of M", ptester's successes
  (alarming nil))            ; a line that says a test failed or an error went unhandled

(defconstant +longest-kept-line+ 2000)

(defclass capped-output (gray:fundamental-character-output-stream)
  ((text :initform (make-array 256 :element-type 'character :adjustable t :fill-pointer 0)
         :reader capped-text)
   (room :initarg :room :accessor capped-room)
   (dropped :initform 0 :accessor capped-dropped)
   (column :initform 0 :accessor capped-column)
   (line :initform (make-array 80 :element-type 'character :adjustable t :fill-pointer 0)
         :reader capped-line)
   (report :initform (make-printed-report) :reader capped-report)))

(defmethod gray:stream-write-char ((stream capped-output) char)
  (cond ((char= char #\Newline)
         (setf (capped-column stream) 0)
         (read-report-line (capped-report stream) (capped-line stream))
         (setf (fill-pointer (capped-line stream)) 0))
        (t (incf (capped-column stream))
           (when (< (fill-pointer (capped-line stream)) +longest-kept-line+)
             (vector-push-extend char (capped-line stream)))))
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

(defun finished-report (stream)
  "The report once the run is over (a last line without a newline read too)."
  (let ((report (capped-report stream)))
    (when (plusp (fill-pointer (capped-line stream)))
      (read-report-line report (capped-line stream))
      (setf (fill-pointer (capped-line stream)) 0))
    report))

;;; Reading lines.

(defun starts-with (prefix line)
  (and (>= (length line) (length prefix)) (string= prefix line :end2 (length prefix))))

(defun after (prefix line)
  (string-trim " " (subseq line (length prefix))))

(defun leading-integer (text)
  (parse-integer text :junk-allowed t))

(defun new-failure (report &rest fields)
  (push fields (report-failures report))
  (setf (report-field report) nil))

(defparameter *value-columns* '((:form . 6) (:expected . 17) (:actual . 15))
  "Where RT starts each value of a failure (\"Expected values: \" is 17 wide): the lines after
the first are indented to there.")

(defun extend-failure-field (report line)
  "A continuation line of a multi-line value, indented under its field. RT's actual values
end with a period: after it, the lines are the names of the tests that pass, not the value."
  (let ((key (report-field report))
        (failure (first (report-failures report))))
    (when (and key failure (plusp (length line)) (char= (char line 0) #\Space))
      (let* ((column (or (and (equal (report-framework report) "rt") (cdr (assoc key *value-columns*)))
                         (length line)))
             (indent (or (position #\Space line :test-not #'char=) (length line)))
             (text (subseq line (min indent column))))
        (set-failure-field report key (concatenate 'string (getf failure key) (string #\Newline) text))
        t))))

(defun set-failure-field (report key text)
  "Sets a field of the newest failure; an RT actual value is whole once its period is read."
  (let ((failure (first (report-failures report))))
    (when failure
      (let ((whole (and (eq key :actual) (equal (report-framework report) "rt")
                        (or (zerop (length text)) (char= (char text (1- (length text))) #\.)
                            (string= text "#<error during printing>")))))
        (setf (getf (first (report-failures report)) key)
              (if (and whole (plusp (length text)) (char= (char text (1- (length text))) #\.))
                  (subseq text 0 (1- (length text)))
                  text)
              (report-field report) (if whole nil key))))))

(defun read-report-line (report line)
  (let ((line (string-right-trim '(#\Return) line)))
    (read-rt-line report line)
    (read-ptester-line report line)
    (when (or (search "UNEXPECTED TEST FAILURE" line)
              (search "An error occurred" line)
              (search "aborted by signalling an uncaught error" line)
              (search "unexpected error" line :test #'char-equal))
      (setf (report-alarming report) t))))

;; RT's summary of one DO-TESTS, after the blocks of the failures:
;;   Doing 271 pending tests of 271 tests total.
;;   10 out of 271 total tests failed: ITERATE.TEST::THEREIS.FINALLY,
;;      ITERATE.TEST::ALWAYS.FINALLY, ....
;;   No unexpected failures.            (or "1 unexpected failures: ITERATE.TEST::X.")
;; The last two lines come only when the run names expected failures; without them every
;; failure is unexpected. Lists of names go on over lines until their period.

(defun rt-names (text)
  "The names of RT's list TEXT (\"A, B, C.\"), as RT printed them."
  (let ((names '()))
    (loop for start = 0 then (1+ comma)
          for comma = (position #\, text :start start)
          do (let ((name (string-trim '(#\Space #\Newline #\.) (subseq text start comma))))
               (when (plusp (length name)) (push name names)))
          while comma)
    (nreverse names)))

(defun mark-expected-failures (report unexpected)
  "The failures of the running DO-TESTS that are not among UNEXPECTED (names, or :NONE for
\"No unexpected failures.\") were expected: counted apart."
  (let ((block (butlast (report-failures report) (report-block-start report)))
        (expected 0))
    (dolist (failure block)
      (unless (and (listp unexpected) (member (getf failure :test) unexpected :test #'string=))
        (nconc failure (list :expected-failure t))
        (incf expected)))
    ;; The "N out of M" line counted them as failures.
    (let ((moved (min expected (report-block-failed report))))
      (decf (report-failed report) moved)
      (incf (report-expected report) moved))))

(defun read-rt-names (report line)
  "A line of a list of names RT is printing; T when the line was one."
  (when (report-names report)
    (setf (report-names-text report) (concatenate 'string (report-names-text report) " " line))
    (when (and (plusp (length line)) (char= (char line (1- (length line))) #\.))
      (when (eq (report-names report) :unexpected)
        (mark-expected-failures report (rt-names (report-names-text report))))
      (setf (report-names report) nil))
    t))

(defun begin-rt-names (report kind text)
  (setf (report-names report) kind (report-names-text report) "")
  (read-rt-names report text))

(defun read-rt-line (report line)
  (cond ((and (starts-with "Doing " line) (search " pending test" line))
         (setf (report-framework report) "rt"
               (report-pending report) (or (leading-integer (after "Doing " line)) 0)
               (report-block-start report) (length (report-failures report))
               (report-block-failed report) 0
               (report-field report) nil))
        ((and (starts-with "Test " line) (>= (length line) 12)
              (string= " failed" line :start2 (- (length line) 7)))
         (new-failure report :test (subseq line 5 (- (length line) 7))))
        ((and (report-failures report) (starts-with "Form: " line))
         (set-failure-field report :form (after "Form: " line)))
        ((and (report-failures report) (starts-with "Expected value" line))
         (set-failure-field report :expected (after ":" (subseq line (position #\: line)))))
        ((and (report-failures report) (starts-with "Actual value" line))
         (set-failure-field report :actual (after ":" (subseq line (position #\: line)))))
        ((not (equal (report-framework report) "rt")) (extend-failure-field report line))
        ((read-rt-names report line))
        ((starts-with "No tests failed." line)
         (incf (report-summaries report))
         (incf (report-passed report) (report-pending report))
         (setf (report-pending report) 0))
        ((search " total tests failed" line)
         (let ((failed (or (leading-integer line) 0)))
           (incf (report-summaries report))
           (incf (report-failed report) failed)
           (incf (report-passed report) (max 0 (- (report-pending report) failed)))
           (setf (report-pending report) 0 (report-field report) nil
                 (report-block-failed report) failed)
           (let ((colon (search "failed:" line)))
             (when colon (begin-rt-names report :failed (subseq line (+ colon 7)))))))
        ((starts-with "No unexpected failures." line)
         (mark-expected-failures report :none))
        ((and (leading-integer line) (search " unexpected failures: " line))
         (begin-rt-names report :unexpected
                         (subseq line (+ (search " unexpected failures: " line) 22))))
        (t (extend-failure-field report line))))

(defun read-ptester-line (report line)
  (cond ((and (starts-with "Begin " line) (search " test" line))
         (setf (report-framework report) "ptester"
               (report-suite report) (subseq line 6 (search " test" line :from-end t))))
        ((starts-with "Test failed: " line)
         (new-failure report :test (or (report-suite report) "ptester")
                      :form (after "Test failed: " line)))
        ((and (report-failures report) (starts-with "Reason: " line))
         (set-failure-field report :reason (after "Reason: " line)))
        ((and (report-failures report) (starts-with "  wanted: " line))
         (set-failure-field report :expected (after "  wanted: " line)))
        ((and (report-failures report) (starts-with "     got: " line))
         (set-failure-field report :actual (after "     got: " line)))
        ((starts-with "Errors detected in this test: " line)
         ;; "Errors detected in this test: 0 UNEXPECTED: 1": a test aborted by an error counts.
         (let ((errors (or (leading-integer (after "Errors detected in this test: " line)) 0))
               (unexpected (let ((at (search "UNEXPECTED: " line)))
                             (or (and at (leading-integer (subseq line (+ at 12)))) 0))))
           (setf (report-framework report) "ptester")
           (incf (report-failed report) (max errors unexpected))))
        ((starts-with "Successes this test:" line)
         (incf (report-summaries report))
         (incf (report-passed report) (or (leading-integer (after "Successes this test:" line)) 0)))))

(defun report-fields (report)
  "The reply's counts and failures from a printed report; framework \"asdf\" and unknown
counts (-1) when no framework's lines were seen. RT's expected failures are counted apart
from \"failed\", which counts the unexpected ones (RT's own verdict)."
  (let ((framework (report-framework report)))
    (if (null framework)
        (list "framework" "asdf" "passed" -1 "failed" -1 "skipped" -1 "expected_failures" 0 "failures" '())
        (list "framework" framework
              "passed" (report-passed report) "failed" (report-failed report) "skipped" 0
              "expected_failures" (report-expected report)
              "failures" (loop for failure in (reverse (report-failures report))
                               collect (obj "test" (or (getf failure :test) :null)
                                            "form" (or (getf failure :form) :null)
                                            "expected" (or (getf failure :expected) :null)
                                            "actual" (or (getf failure :actual) :null)
                                            "expected_failure" (if (getf failure :expected-failure) t :false)
                                            "reason" (or (getf failure :reason)
                                                         (cond ((getf failure :expected-failure)
                                                                "an expected failure: the run's RT *expected-failures* names it")
                                                               ((equal framework "rt")
                                                                "the form's values differ from the expected ones")
                                                               (t "the test failed")))))))))

;;;; RT keeps one list of tests for the whole image (REGRESSION-TEST's *ENTRIES*, the tail
;;;; it appends at and the table from names to cells), and DO-TESTS runs all of it: in a
;;;; shared session, testing one RT system after another ran and counted both (alexandria
;;;; after iterate: 1,160 passed, 20 failed, where alexandria alone is 496/0; anaphora's
;;;; test-op refused its own run for the other system's failures). So the kernel notes which
;;;; system's file defined each test (ASDF loads every source file through PERFORM: the
;;;; :around method of ledger.lisp calls NOTING-RT-TESTS), and a run-tests run gets a
;;;; registry of its own: the tests of the systems it tests, and those its last run of the
;;;; same system had. The image's registry is back once the run ends, with the tests the run
;;;; defined added, as plain RT would have them.

(in-package "LISP-DUET.KERNEL")

(defvar *rt-test-system* (make-hash-table :test #'equal)
  "The name of an RT test -> the name of the system whose file defined it.")
(defvar *rt-run-tests* (make-hash-table :test #'equal)
  "The system a run-tests run tested -> the names of the tests that run had.")

(defun rt-symbol (name)
  (let ((package (find-package "REGRESSION-TEST")))
    (and package (find-symbol name package))))

(defun rt-registry-p ()
  "True when RT is loaded and has the registry this file knows (RT 1990, Debian's cl-rt)."
  (let ((entries (rt-symbol "*ENTRIES*")) (tail (rt-symbol "*ENTRIES-TAIL*"))
        (table (rt-symbol "*ENTRIES-TABLE*")) (name (rt-symbol "NAME")))
    (and entries tail table name (boundp entries) (boundp tail) (boundp table) (fboundp name)
         (consp (symbol-value entries)) (hash-table-p (symbol-value table)))))

(defun rt-entries ()
  "The image's (or the run's) tests, in the order they were defined."
  (cdr (symbol-value (rt-symbol "*ENTRIES*"))))

(defun rt-entry-name (entry)
  (funcall (rt-symbol "NAME") entry))

(defun noting-rt-tests (component next)
  "Calls NEXT (ASDF performing an operation on the source file COMPONENT) and notes the RT
tests it defined as COMPONENT's system's."
  (let* ((registry (and (rt-registry-p) (symbol-value (rt-symbol "*ENTRIES*"))))
         (known (length (cdr registry))))
    (multiple-value-prog1 (funcall next)
      (when (rt-registry-p)
        (let* ((entries (symbol-value (rt-symbol "*ENTRIES*")))
               ;; REM-ALL-TESTS makes a new list: every test in it is new then.
               (new (if (eq entries registry) (nthcdr known (cdr entries)) (cdr entries))))
          (when new
            (let ((system (ignore-errors
                           (funcall (asdf-symbol "COMPONENT-NAME")
                                    (funcall (asdf-symbol "COMPONENT-SYSTEM") component)))))
              (when (stringp system)
                (dolist (entry new)
                  (setf (gethash (rt-entry-name entry) *rt-test-system*) system))))))))))

(defun registry-of (entries)
  "RT's three variables' values for a registry holding ENTRIES: the list with its leading
dummy cell, its last cell, and the table from each name to the cell before its entry's."
  (let ((list (cons nil (copy-list entries)))
        (table (make-hash-table :test #'equal)))
    (loop for cell on list
          while (cdr cell)
          do (setf (gethash (rt-entry-name (cadr cell)) table) cell))
    (list list (last list) table)))

(defun add-to-image-registry (entries)
  "Puts the tests a run defined into the image's registry, as RT's ADD-ENTRY would: a new
name at the end, a known one in place."
  (let ((table (symbol-value (rt-symbol "*ENTRIES-TABLE*"))))
    (dolist (entry entries)
      (let ((before (gethash (rt-entry-name entry) table)))
        (if before
            (setf (cadr before) entry)
            (let ((tail (symbol-value (rt-symbol "*ENTRIES-TAIL*"))))
              (setf (gethash (rt-entry-name entry) table) tail
                    (cdr tail) (list entry)
                    (symbol-value (rt-symbol "*ENTRIES-TAIL*")) (cdr tail))))))))

(defun call-with-own-rt-registry (asked systems function)
  "Calls FUNCTION with RT's registry holding only the tests of SYSTEMS (names) and those the
last run of ASKED had, and returns its values and, as the last, how many tests of the image
were set aside. Without RT, just calls it (set aside: 0)."
  (if (not (rt-registry-p))
      (multiple-value-call #'values (funcall function) 0)
      (let* ((last-run (gethash asked *rt-run-tests*))
             (own '()) (aside 0))
        (dolist (entry (rt-entries))
          (let ((name (rt-entry-name entry)))
            (if (or (member (gethash name *rt-test-system*) systems :test #'equal)
                    (member name last-run :test #'equal))
                (push entry own)
                (incf aside))))
        (let ((variables (list (rt-symbol "*ENTRIES*") (rt-symbol "*ENTRIES-TAIL*")
                               (rt-symbol "*ENTRIES-TABLE*")))
              (ran :unknown))
          (unwind-protect
               (multiple-value-call #'values
                 (progv variables (registry-of (nreverse own))
                   (unwind-protect (funcall function)
                     (setf ran (or (ignore-errors (rt-entries)) '()))))
                 aside)
            ;; Also when the run was interrupted: the tests it defined are the image's too.
            (unless (eq ran :unknown)
              (setf (gethash asked *rt-run-tests*) (mapcar #'rt-entry-name ran))
              (add-to-image-registry ran)))))))

(defun systems-tested-with (system systems)
  "The names whose RT tests a run of SYSTEM counts: SYSTEMS (SYSTEM and those its test-op
depends on) and SYSTEM's secondary systems (\"anaphora/test\", which its test-op loads)."
  (let ((name (funcall (asdf-symbol "COMPONENT-NAME") system))
        (names (mapcar (lambda (s) (funcall (asdf-symbol "COMPONENT-NAME") s)) systems)))
    (loop for key being the hash-values of *rt-test-system*
          when (and (> (length key) (length name))
                    (string= name key :end2 (length name))
                    (char= (char key (length name)) #\/))
            do (pushnew key names :test #'equal))
    names))

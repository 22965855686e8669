;;;; time-execution (an evaluation with allocation and GC figures) and the limits the host's
;;;; configure-limits sets: print defaults, the output cap and the heap limit.

(in-package "LISP-DUET.KERNEL")

;; Boehm's own clock of collection time; it counts only once measurement has started.
(defvar *gc-time-function*
  (ignore-errors (si:find-foreign-symbol "GC_get_full_gc_total_time" :default :pointer-void 0)))
(ignore-errors
 (si:call-cfun (si:find-foreign-symbol "GC_start_performance_measurement" :default :pointer-void 0)
               :void nil nil))
;; Counting collections and bytes costs nothing measurable; turn it on for the whole life.
(si::gc-stats t)
;;; The person's (si:gc t) gives the memory it freed back to the system. Boehm keeps free
;;; blocks mapped until they have stayed free for several collections: an engine that had read
;;; one 16 MiB form (18 MB of text, 2.4 million numbers) was 140 MB larger after (si:gc t),
;;; and back within 4 MB of its start after eight collections that unmap (102 ms in all here;
;;; the 18 MB the reader had buffered are given back as the line is taken, ProtocolChannel).

(defvar *gc-and-unmap* (ignore-errors (si:find-foreign-symbol "GC_gcollect_and_unmap" :default :pointer-void 0)))
(defvar *gc-heap-size* (ignore-errors (si:find-foreign-symbol "GC_get_heap_size" :default :pointer-void 0)))
(defvar *original-gc* nil)
(defconstant +unmapping-collections+ 8)

(defun mapped-heap-bytes ()
  ;; GC_get_heap_size leaves out what is unmapped already (gc.h).
  (si:call-cfun *gc-heap-size* :unsigned-long nil nil))

(defun gc-giving-memory-back (&rest arguments)
  "SI:GC, and for a full collection, eight collections that unmap what stays free (three when
nothing was freed: a large live heap costs a full collection each time)."
  (multiple-value-prog1 (apply *original-gc* arguments)
    (when (and (first arguments) *gc-and-unmap* *gc-heap-size*)
      (let ((before (mapped-heap-bytes)))
        (loop for round from 1 to +unmapping-collections+
              do (si:call-cfun *gc-and-unmap* :void nil nil)
              until (and (= round 3) (>= (mapped-heap-bytes) before)))))))

(defun install-gc-giving-memory-back ()
  (unless *original-gc*
    (setf *original-gc* (fdefinition 'si:gc))
    (setf (fdefinition 'si:gc) #'gc-giving-memory-back)))

(defun gc-milliseconds ()
  (or (and *gc-time-function*
           (ignore-errors (si:call-cfun *gc-time-function* :unsigned-long nil nil)))
      0))

;;; time: by default the native version of the code, as a program compiled with ECL would run
;;; it. The session's definitions the code calls are given time to become native first (the
;;; background compiler, native.lisp), and each form is compiled before it runs; neither the
;;; waiting nor the compiling is in the figures ("settle_us", "compile_us" apart). With
;;; "as_typed" true the forms run as EVAL runs them, bytecoded. Either way the figures are the
;;; evaluation's alone: reading and printing the values are not in them.

(define-record timing
  native                ; compile each form first
  (real 0) (run 0) (bytes 0) (collections 0) (gc-ms 0) ; the evaluation
  (compile 0)           ; microseconds spent compiling the forms
  (interpreted 0)       ; forms that ran as typed although native was asked for
  note)                 ; why they did

(defun timed-call (thunk)
  "THUNK's values as a list, its figures added to *TIMING*."
  (let ((timing *timing*))
    (multiple-value-bind (bytes-before count-before) (si::gc-stats t)
      (let* ((gc-before (gc-milliseconds))
             (run-before (%run-time-us))
             (real-before (%monotonic-us))
             (values (multiple-value-list (funcall thunk)))
             (real-after (%monotonic-us))
             (run-after (%run-time-us)))
        (multiple-value-bind (bytes-after count-after) (si::gc-stats t)
          (incf (timing-real timing) (- real-after real-before))
          (incf (timing-run timing) (- run-after run-before))
          (incf (timing-bytes timing) (max 0 (- bytes-after bytes-before)))
          (incf (timing-collections timing) (max 0 (- count-after count-before)))
          (incf (timing-gc-ms timing) (max 0 (- (gc-milliseconds) gc-before))))
        values))))

(defparameter *definitions-timed-as-typed*
  '(in-package defpackage defmacro define-compiler-macro define-symbol-macro declaim
    defconstant defsetf define-modify-macro deftype defstruct defclass define-condition
    defgeneric)
  "Top-level forms that define what later forms are read or compiled with: they run as typed
(they are not what is being timed).")

(defparameter *forms-timed-as-typed* '(eval-when locally macrolet symbol-macrolet)
  "Top-level forms whose body is processed as top-level forms: they run as typed, and the
reply says so. (A top-level PROGN's forms are timed one by one instead.)")

(defun compile-timed-form (form)
  "(values function problem): FORM compiled as the body of a function of no arguments. What
the compiler warns of is the compile's (PROBLEM, then \"native_note\"), not the evaluation's:
it never reaches the job's warnings."
  (let ((start (%monotonic-us)))
    (unwind-protect
         (multiple-value-bind (functions problem)
             ;; ECL's compiler environment (inside) records the conditions first.
             (handler-bind ((warning (lambda (condition)
                                       (let ((muffle (find-restart 'muffle-warning condition)))
                                         (when muffle (invoke-restart muffle))))))
               ;; Never run before: its LOAD-TIME-VALUE forms are made once, when it compiles.
               (let ((*refuse-load-time-value* nil))
                 (compile-native-items
                  (list (list `(locally (declare (optimize ,@(native-policy *person-policy* nil))
                                                 ;; As for definitions (native-meaning.lisp).
                                                 ,@(let ((names (session-compiler-macro-names)))
                                                     (and names `((notinline ,@names)))))
                               (function (lambda () ,form)))
                            *package* *readtable*)))))
           (values (and functions (svref functions 0)) problem))
      (incf (timing-compile *timing*) (- (%monotonic-us) start)))))

(defun timed-as-typed (form note)
  "FORM's values, run as typed in a native time job; the reply says so (NOTE)."
  (let ((timing *timing*))
    (incf (timing-interpreted timing))
    (unless (timing-note timing)
      (setf (timing-note timing) note))
    (timed-call (lambda () (eval form)))))

(defun timed-evaluation (form)
  "FORM's values as a list, measured: compiled to native code first in a native time job."
  (let ((timing *timing*))
    (cond ((not (and (timing-native timing) (consp form)))
           (timed-call (lambda () (eval form))))
          ((eq (first form) 'progn)
           ;; Its forms are top-level forms too: each one timed as such.
           (let ((values '()))
             (dolist (subform (rest form) values)
               (setf values (timed-evaluation subform)))))
          ((member (first form) *definitions-timed-as-typed*)
           (timed-call (lambda () (eval form))))
          ((member (first form) *forms-timed-as-typed*)
           (timed-as-typed form (format nil "A top-level ~A ran as typed." (first form))))
          ((or (eql 0 (second (assoc 'safety *person-policy*))) (safety-zero-p form))
           ;; Native code at (SAFETY 0) checks nothing: a wrong call could end the session.
           (timed-as-typed form "The code is at (SAFETY 0): it ran as typed (native code would check nothing)."))
          (t
           (multiple-value-bind (function problem) (compile-timed-form form)
             (if function
                 (timed-call function)
                 (timed-as-typed form (format nil "A form did not compile and ran as typed: ~A" problem))))))))

(defun replace-reply-field (reply key value)
  "REPLY, an (:OBJ key value ...) list, with KEY's value replaced (or added)."
  (loop for tail on (rest reply) by #'cddr
        when (equal (first tail) key)
          do (setf (second tail) value)
             (return-from replace-reply-field reply))
  (nconc reply (list key value)))

(defun time-evaluation (request)
  (let* ((as-typed (eq (getf request :as_typed) t))
         (unavailable (and (not as-typed) (not (native-available-p))
                           (or *native-off-reason* *native-toolchain-problem*)))
         (timing (make-timing :native (not (or as-typed unavailable)) :note unavailable))
         (settle-us 0)
         (reply (run-job request
                         (lambda ()
                           (when (timing-native timing)
                             (let ((start (%monotonic-us)))
                               ;; The session's definitions, native before the code calls them.
                               (wait-until-native-settled 30)
                               (setf settle-us (- (%monotonic-us) start))
                               (ensure-native-compiler)))
                           (let ((*timing* timing))
                             (evaluate-forms request)))
                         :keep-package t)))
    (dolist (field (list (cons "real_us" (timing-real timing))
                         (cons "run_us" (timing-run timing))))
      (replace-reply-field reply (car field) (cdr field)))
    (nconc reply
           (list "bytes_allocated" (timing-bytes timing)
                 "gc_count" (timing-collections timing)
                 "gc_ms" (timing-gc-ms timing)
                 "timed" (if (and (timing-native timing) (zerop (timing-interpreted timing))) "native" "as-typed")
                 "compile_us" (timing-compile timing)
                 "settle_us" settle-us
                 "native_note" (or (timing-note timing) :null)))))

(define-operation "time" :worker #'time-evaluation)

;;; Limits

(defvar *heap-limit* nil "Bytes the host asked for, or NIL for ECL's default.")

(defun restore-heap-limit ()
  "ECL raises its heap limit by a safety margin after a STORAGE-EXHAUSTED; put ours back."
  (when (and *heap-limit* (/= (ext:get-limit 'ext:heap-size) *heap-limit*))
    (ignore-errors (ext:set-limit 'ext:heap-size *heap-limit*))))

(defun limits-reply (request)
  (ok-reply request
            "print_length" *default-print-length*
            "print_level" *default-print-level*
            "max_output_chars" *default-max-output-chars*
            "heap_limit_bytes" (ext:get-limit 'ext:heap-size)))

(defun set-limits (request)
  (let ((options (getf request :limits)))
    (flet ((given (key) (let ((v (getf options key :absent))) (if (integerp v) v nil))))
      (let ((length (given :print_length)) (level (given :print_level))
            (output (given :max_output_chars)) (heap (given :heap_limit_bytes)))
        (when length (setf *default-print-length* length))
        (when level (setf *default-print-level* level))
        (when output (setf *default-max-output-chars* output))
        (when heap
          (setf *heap-limit* heap)
          (ext:set-limit 'ext:heap-size heap))
        (limits-reply request)))))

;; On the supervisor: a new engine gets its limits before the first evaluation can start.
(define-operation "limits" :supervisor #'set-limits)

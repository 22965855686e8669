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

(defun gc-milliseconds ()
  (or (and *gc-time-function*
           (ignore-errors (si:call-cfun *gc-time-function* :unsigned-long nil nil)))
      0))

(defun time-evaluation (request)
  (multiple-value-bind (bytes-before count-before) (si::gc-stats t)
    (let* ((gc-before (gc-milliseconds))
           (reply (evaluate request)))
      (multiple-value-bind (bytes-after count-after) (si::gc-stats t)
        (append reply
                (list "bytes_allocated" (max 0 (- bytes-after bytes-before))
                      "gc_count" (max 0 (- count-after count-before))
                      "gc_ms" (max 0 (- (gc-milliseconds) gc-before))))))))

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

;;;; Replies and events to the host, and the reply shapes several operations share (the
;;;; fields of one operation alone are spelled beside its function). The JSON
;;;; itself is written by the host function %SEND (JsonWriter.cpp), straight from these Lisp
;;;; objects: strings, integers and floats as themselves; (:obj "key" value ...) is an object;
;;;; other lists and vectors are arrays; T and :TRUE are true, :FALSE is false, :NULL is null
;;;; and NIL is an empty array. Requests arrive as property lists with keyword keys
;;;; (:PRINT_LENGTH for "print_length"), parsed by the host as well.

(in-package "LISP-DUET.KERNEL")

(defun obj (&rest keys-and-values)
  (cons :obj keys-and-values))

(defun send (value)
  ;; %SEND holds the protocol's write lock: an interrupt must wait until the line is out.
  (mp:without-interrupts (%send value)))

(defun send-event (event &rest keys-and-values)
  (send (apply #'obj "event" event keys-and-values)))

(defun ok-reply (request &rest fields)
  (apply #'obj "id" (getf request :id) "status" "ok" fields))

(defun error-object (type message phase &optional backtrace)
  (obj "type" type "message" message "phase" phase "backtrace" backtrace))

(defun failed-reply (id type message)
  "The request itself was bad, or the kernel failed: status failed, phase kernel."
  (obj "id" (or id :null) "status" "failed" "error" (error-object type message "kernel")))

(defun job-reply (id status &key package values warnings error output-dropped real-us run-us)
  "The reply of a job that runs user code (eval, time, compile, load-system...). PACKAGE is
the session package's name; the counts are left out of replies that ran nothing."
  ;; NCONC: every part is a fresh list (APPEND copied them again, on every job).
  (nconc (obj "id" (or id :null)
               "status" status
               "values" values
               "warnings" warnings
               "error" (or error :null)
               "package" package)
          (when output-dropped (list "output_dropped" output-dropped))
          (when real-us (list "real_us" real-us "run_us" run-us))))

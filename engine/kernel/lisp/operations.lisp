;;;; The table of host protocol operations. It loads first so that every file can register
;;;; its operations beside the functions that serve them. The host's request reader (C++)
;;;; learns from this table which thread's queue each operation goes to (ROUTE-OPERATIONS).

(in-package "LISP-DUET.KERNEL")

(defvar *operations* (make-hash-table :test #'equal)
  "Operation name -> (THREAD . FUNCTION); THREAD is :WORKER (user code, one job at a time),
:SERVICE (questions that run no user code), or :SUPERVISOR (quick settings that run no user
code and must apply before the next request is read).")

(defmacro define-operation (name thread function)
  "Registers an operation of the host protocol. FUNCTION takes the request plist and
returns the reply (an OBJ with \"id\" and \"status\"), or NIL for no reply."
  `(setf (gethash ,name *operations*) (cons ,thread ,function)))

(defun route-operations ()
  "Tells the request reader where each operation goes; before it reads the first request."
  (maphash (lambda (name entry) (%route-operation name (car entry))) *operations*))

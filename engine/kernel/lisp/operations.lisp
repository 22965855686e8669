;;;; The table of host protocol operations. It loads first so that every file can register
;;;; its operations beside the functions that serve them; the supervisor dispatches on it.

(in-package "LISP-DUET.KERNEL")

(defvar *operations* (make-hash-table :test #'equal)
  "Operation name -> (THREAD . FUNCTION); THREAD is :WORKER, :SERVICE, or :SUPERVISOR for
quick settings that run no user code and must apply before the next request is read.")

(defmacro define-operation (name thread function)
  "Registers an operation of the host protocol. FUNCTION takes the request plist and
returns the reply (an OBJ with \"id\" and \"status\")."
  `(setf (gethash ,name *operations*) (cons ,thread ,function)))

(in-package :duet-badlib)

;; Never called: as bytecode the file loads; natively gcc refuses the C below.
(defun not-c () (ffi:c-inline () () :int "(1 + * lisp duet: not C)" :one-liner t))

(defun bad-answer () 42)

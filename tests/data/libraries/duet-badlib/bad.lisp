(in-package :duet-badlib)

;; Inline C that gcc refuses, made by a macro (as FFI wrappers make theirs): as bytecode the
;; file loads (NOT-C is never called); natively gcc fails on it.
(defmacro inline-c (code)
  `(,(find-symbol (concatenate 'string "C-" "INLINE") "FFI") () () :int ,code :one-liner t))

(defun not-c () (inline-c "(1 + * lisp duet: not C)"))

(defun bad-answer () 42)

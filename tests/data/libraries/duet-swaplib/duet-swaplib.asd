;;; A small library for tst_libraries (issue 39): loaded as bytecode, compiled natively in the
;;; background, swapped into the running session where that resets nothing.
(defsystem "duet-swaplib"
  :serial t
  :components ((:file "package") (:file "params") (:file "counter") (:file "work")))

;;; A library one of whose files does not compile natively (gcc rejects its C), for
;;; tst_libraries (issue 39): it keeps running as bytecode and says why.
(defsystem "duet-badlib"
  :serial t
  :components ((:file "good") (:file "bad") (:file "after")))

;;; A small library for the warm-up (issue 39): a project depends on it, and Session ▸ Compile
;;; the project's libraries natively compiles it ahead without loading it.
(defsystem "duet-warmlib"
  :serial t
  :components ((:file "package") (:file "warm")))

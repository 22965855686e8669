(defpackage :duet-swaplib
  (:use :cl)
  (:export #:*greeting* #:greet #:greet-loudly #:next-ticket #:checksum))

(defpackage :duet-warmlib
  (:use :cl)
  (:export #:warm-sum))

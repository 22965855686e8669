(defpackage #:shapes
  (:use #:cl)
  (:export #:shape #:circle #:square #:rectangle
           #:make-circle #:make-square #:make-rectangle
           #:area #:perimeter #:describe-shape #:*unit*))

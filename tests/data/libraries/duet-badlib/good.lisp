(defpackage :duet-badlib (:use :cl) (:export #:good-answer #:bad-answer #:after-answer))
(in-package :duet-badlib)

(defun good-answer () 1)

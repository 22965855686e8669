;;;; sample.lisp — a little of everything the scanner must know.

(defpackage #:duet-sample
  (:use #:cl)
  (:export #:area #:*unit*))

(in-package #:duet-sample)

#|
  A block comment with (unbalanced parens
  #| and a nested one |#
  that ends here: |#

(defparameter *unit* :cm
  "Docstring with a ) paren,
an escaped \"quote\" and a second line.")

(defstruct (point (:constructor make-point (x y)))
  (x 0 :type real)
  (y 0 :type real))

(defgeneric area (shape)
  (:documentation "Area of SHAPE."))

(defmethod area ((p point))
  (declare (ignore p))
  0)

(defun describe-char (c)
  (case c
    (#\( "open")
    (#\) "close")
    (#\; "semicolon")
    (#\" "quote")
    (#\Space "space")
    (t (format nil "~:c" c))))

(defmacro with-unit ((unit) &body body)
  `(let ((*unit* ,unit))
     ,@body))

(let ((v #(1 2.5d0 -3/4 #x1F #b101))
      (|odd symbol| 'x\ y))
  (mapcar #'(lambda (n) (* n 2)) (coerce v 'list))
  #+sbcl (sb-ext:gc)
  #-(or sbcl ecl) (error "unsupported")
  #.(+ 1 2)
  (loop for i from 0 below 3 collect i))

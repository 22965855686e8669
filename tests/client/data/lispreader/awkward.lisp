;;;; awkward.lisp — every construct the reader must get right, in a file that loads.

(defpackage #:geometry
  (:use #:cl)
  (:documentation "Shapes, with a ) in the docstring.")
  (:export #:area #:*unit* #:circle))

(in-package #:geometry)

#|
  A block comment with (unbalanced parens
  #| and a nested one, "with a string" in it |#
  that ends here: |#

;; The unit every area is in.
(defparameter *unit* :cm
  "Docstring with a ) paren,
an escaped \"quote\" and a second line.")

(defvar *registry* '(a . (b c)) "A dotted pair that is a proper list.")
(defconstant +golden+ 1.618d0)

(defclass shape () ()
  (:documentation "Anything with an area."))

(defclass circle (shape)
  ((radius :initarg :radius :reader radius)))

(defgeneric area (shape)
  (:documentation "Area of SHAPE."))

(defmethod area ((c circle))
  "Pi r squared."
  (declare (optimize speed))
  (* pi (radius c) (radius c)))

(defmethod area :around ((c circle))
  (call-next-method))

(defmethod area ((k (eql :unit)))
  1)

(defun (setf radius*) (value c)
  (setf (slot-value c 'radius) value))

(defstruct (point (:constructor make-point (x y)) (:conc-name p-))
  "A point in the plane."
  (x 0 :type real)
  (y 0 :type real))

(define-condition not-a-shape (error) ()
  (:report "not a shape"))

(deftype small () '(integer 0 9))

(defun describe-char (c)
  (case c
    (#\( "open") (#\) "close") (#\; "semicolon") (#\" "quote") (#\| "bar")
    (#\Space "space") (#\\ "backslash")
    (t (format nil "~:c" c))))

(defmacro with-unit ((unit) &body body)
  `(let ((*unit* ,unit))
     ,@body
     ,.(list 'nil)))

(let ((v #(1 2.5d0 -3/4 #x1F #b101 #o17 #36rZZ .5 1. +7))
      (|odd symbol| 'x\ y)
      (bits #*1011)
      (grid #2A((1 2) (3 4)))
      (z #c(1 2))
      (path #p"/tmp/x.lisp")
      (p #s(point :x 1 :y 2))
      (cycle '#1=(a b . #1#)))
  (mapcar #'(lambda (n) (* n 2)) (coerce v 'list))
  #+sbcl (sb-ext:gc)
  #-(or sbcl ecl) (error "unsupported")
  #+(and) #.(+ 1 2)
  (list cl-user::x :kw #:uninterned geometry:area |pkg name|::|Sym| a\:b))

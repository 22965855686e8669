;;;; shapes.lisp --- areas and perimeters.
;;;; The awkward corners of the reader live here on purpose: strings with parentheses,
;;;; character literals, block comments, reader conditionals and backquote.

(in-package #:shapes)

(defparameter *unit* "cm"
  "The unit lengths are given in; \"(not a form)\" is just text.")

#| A block comment with a stray paren ( and a nested #| comment |# inside. |#

(defclass shape () ()
  (:documentation "Something with an area and a perimeter."))

(defclass circle (shape)
  ((radius :initarg :radius :reader radius)))

(defclass square (shape)
  ((side :initarg :side :reader side)))

(defclass rectangle (shape)
  ((width :initarg :width :reader width)
   (height :initarg :height :reader height)))

(defun make-circle (radius) (make-instance 'circle :radius radius))
(defun make-square (side) (make-instance 'square :side side))
(defun make-rectangle (width height) (make-instance 'rectangle :width width :height height))

(defgeneric area (shape)
  (:documentation "The area of SHAPE."))

(defmethod area ((shape circle))
  (* pi (radius shape) (radius shape)))

;; Wrong on purpose: a square's area is side * side (the FiveAM suite catches it).
(defmethod area ((shape square))
  (* 2 (side shape)))

(defmethod area ((shape rectangle))
  (* (width shape) (height shape)))

(defgeneric perimeter (shape))

(defmethod perimeter ((shape circle))
  (* 2 pi (radius shape)))

(defmethod perimeter ((shape square))
  (* 4 (side shape)))

(defmethod perimeter ((shape rectangle))
  (* 2 (+ (width shape) (height shape))))

(defun describe-shape (shape)
  "A line about SHAPE, e.g. \"square: area 4 cm²\"; the #\\( below is a character."
  (let ((open #\() (close #\)))
    (format nil "~(~A~): area ~,2F ~A² ~C~,2F~C"
            (class-name (class-of shape)) (area shape) *unit*
            open (perimeter shape) close)))

#+ecl
(defun implementation-note () "Running on ECL.")
#-ecl
(defun implementation-note () "Running elsewhere.")

(defmacro with-shapes ((&rest bindings) &body body)
  `(let ,(loop for (name kind . args) in bindings
               collect `(,name (,(intern (format nil "MAKE-~A" kind) '#:shapes) ,@args)))
     ,@body))

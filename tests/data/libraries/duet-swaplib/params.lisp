(in-package :duet-swaplib)

;; Safe to load again, once its value is put back: the swap loads it natively.
(defparameter *greeting* "hello")

(defvar *greetings-made* 0)

(defun greet (name)
  (incf *greetings-made*)
  (format nil "~A, ~A" *greeting* name))

(defun greet-loudly (name)
  (string-upcase (greet name)))

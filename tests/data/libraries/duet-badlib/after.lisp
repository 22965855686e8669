(in-package :duet-badlib)

(defun after-answer () (+ (good-answer) (bad-answer)))

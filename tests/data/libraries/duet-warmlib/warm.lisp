(in-package :duet-warmlib)

(defun warm-sum (n)
  (loop for i below n sum i))

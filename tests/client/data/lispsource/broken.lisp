;; A missing paren: the first defun never closes, so the second one is read inside it.
(defun total (items)
  (let ((sum 0))
    (dolist (i items)
      (incf sum i))
  sum)

(defun average (items)
  (/ (total items) (length items)))

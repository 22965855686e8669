(in-package :duet-swaplib)

(defun checksum (n)
  (let ((sum 0))
    (dotimes (i n sum)
      (setf sum (mod (+ (* sum 31) i) 1000003)))))

(in-package :duet-swaplib)

;; A closure's state: loaded again, the counter would count from 0. Stays bytecode until the
;; next engine start.
(let ((count 0))
  (defun next-ticket ()
    (incf count)))

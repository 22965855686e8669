;; Text the reader rejects, one problem a line, and a truncated end.
(list a . b c)
(. a)
#(a . b)
(print #<hash-table 42>)
(x # y)
(.. and ...)
(#x12G #b2 #36r #*102)
(list ' )
#= x
(quote
(defun total (items)
  (let ((sum 0))
    (dolist (i items) (incf sum i))
  sum)
))) ; one closes total, one quote, the last is extra
(defun late () "never closed

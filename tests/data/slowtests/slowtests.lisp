(defpackage #:slowtests
  (:use #:cl #:fiveam)
  (:export #:slow-suite))

(in-package #:slowtests)

(def-suite slow-suite :description "Five tests of about 30 s each.")
(in-suite slow-suite)

(defun work-slowly (name)
  "Thirty seconds of pretended work in ten steps, each one printed."
  (dotimes (step 10)
    (format t "~&~A: step ~D of 10~%" name (1+ step))
    (finish-output)
    (sleep 3)))

(test first-part
  (work-slowly "first part")
  (is (= 4 (+ 2 2))))

(test second-part
  (work-slowly "second part")
  (is (string= "ab" (concatenate 'string "a" "b"))))

(test third-part
  (work-slowly "third part")
  (is (equal '(1 2 3) (list 1 2 3))))

(test fourth-part
  (work-slowly "fourth part")
  (is (evenp 10)))

(test fifth-part
  (work-slowly "fifth part")
  (is (= 150 (* 5 30))))

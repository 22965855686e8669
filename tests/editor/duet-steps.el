;;; duet-steps.el --- what the Emacs scripts of the tests share  -*- lexical-binding: t -*-
;;
;; Each script (slime-session.el, slime-debugger.el, tests/ui/editor-window.el) prints one
;; "DUET STEP text" line per step, which its C++ test reads, and waits for Lisp by letting
;; Emacs read its connection until a condition holds.

(defun duet-say (step format-string &rest arguments)
  (princ (format "DUET %s %s\n" step (apply #'format format-string arguments)) #'external-debugging-output))

(defun duet-wait (predicate seconds)
  "Lets Emacs read from Lisp until PREDICATE holds (its value) or SECONDS pass (nil)."
  (let ((deadline (+ (float-time) seconds)) (value nil))
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    value))

(provide 'duet-steps)

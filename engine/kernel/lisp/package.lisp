;;;; The kernel's own package and the guards that keep user code from ending the engine.
;;;; User code runs in CL-USER.

(defpackage "LISP-DUET.KERNEL" (:use "CL") (:nicknames "DUET-KERNEL"))

(defpackage "LISP-DUET"
  (:use "CL")
  (:documentation "What user code may see of Lisp Duet: the conditions it signals.")
  (:export "QUIT-REFUSED" "INTERACTIVE-INPUT-UNAVAILABLE" "DEBUGGER-UNAVAILABLE" "NESTING-TOO-DEEP"
           ;; the debugger's restart that evaluates a failed top-level form again, the
           ;; condition of an evaluation the person or an agent interrupted to look at it, and
           ;; the condition a debugger level waits on (code evaluated there can examine it)
           "RETRY" "EVALUATION-INTERRUPTED" "*DEBUGGER-CONDITION*"))

(in-package "LISP-DUET.KERNEL")

(eval-when (:compile-toplevel :load-toplevel :execute)
  (import '(lisp-duet:quit-refused lisp-duet:interactive-input-unavailable
            lisp-duet:debugger-unavailable)))

(define-condition debugger-unavailable (error)
  ((what :initarg :what :reader debugger-unavailable-what)
   (reason :initarg :reason :initform nil :reader debugger-unavailable-reason))
  (:report (lambda (c s)
             (format s "~A was called, but this session has no interactive debugger: ~
                        nobody could answer it while code runs.~@[~%~A~]"
                     (debugger-unavailable-what c) (debugger-unavailable-reason c)))))

(define-condition quit-refused (error)
  ((operator :initarg :operator :reader quit-refused-operator))
  (:report (lambda (c s)
             (format s "~S is disabled in Lisp Duet: this Lisp session is shared by the ~
                        person (the window, their editor) and the agents, so it keeps running. ~
                        To start afresh, reset the session: Session > Reset in the window, or ~
                        the reset-session tool."
                     (quit-refused-operator c)))))

(define-condition interactive-input-unavailable (error)
  ((what :initarg :what :reader unavailable-what))
  (:report (lambda (c s)
             (format s "~A needs interactive input, which this session does not have: ~
                        nobody can answer at a prompt while code runs. Pass the data as ~
                        arguments or in a variable instead."
                     (unavailable-what c)))))

(defun refuse-quit (operator)
  (lambda (&rest arguments)
    (declare (ignore arguments))
    (error 'quit-refused :operator operator)))

;; EXT is not locked in ECL 21.2.1; SI:QUIT is the same symbol as EXT:QUIT.
(setf (fdefinition 'ext:quit) (refuse-quit 'ext:quit))
(setf (fdefinition 'ext:exit) (refuse-quit 'ext:exit))

(defun microseconds-since (start-internal-time)
  (round (* 1000000 (- (get-internal-real-time) start-internal-time))
         internal-time-units-per-second))

;;;; The bridge, fifth file: the shared debugger's other evaluations, answered from the
;;;; editor. An agent's evaluation parked in the shared debugger (or the window's) is listed
;;;; for lisp-duet.el's M-x lisp-duet-debuggers and opened there in SLDB, on the same level:
;;;; its restarts, frames and locals, v, i and e as for the editor's own; a restart chosen
;;;; there goes to the host like any other choice ("editor-restart"), so the first answer
;;;; wins, and the SLDB closes when the level does, whoever chose.

(in-package "LISP-DUET.KERNEL")

(defun editor-debuggers ()
  "Every evaluation parked in the shared debugger, outermost first, for the editor: a list of
plists (:job :level :origin :condition :restarts)."
  (loop for level in (parked-levels)
        for condition = (level-condition level)
        collect (list :job (level-job-id level)
                      :level (level-number level)
                      :origin (or (level-origin level) "")
                      :condition (format nil "~A: ~A" (condition-type-name condition)
                                         (one-line (condition-message condition)))
                      :restarts (mapcar #'restart-name-text (level-restarts level)))))

(defun find-parked-level (job level-number)
  (find-if (lambda (level) (and (eql (level-job-id level) job)
                                (or (null level-number) (eql (level-number level) level-number))))
           (parked-levels)))

(defun editor-open-debugger (job &optional level-number)
  "Opens SLDB in this Swank thread on the parked evaluation JOB (at LEVEL-NUMBER, else its
innermost open level) until that level closes; answers NIL then."
  (let* ((level (find-parked-level job level-number))
         (thread (swank/backend:current-thread))
         (key (mp:with-lock (*editor-lock*) (incf *editor-request-counter*)))
         (watcher (lambda (closed) (swank/backend:send thread (list :lisp-duet key :unparked closed)))))
    (unless (and level (watch-level level watcher))
      (end-editor-evaluation (format nil "Evaluation ~A is no longer parked in the debugger: someone answered it, or it ended" job)))
    (unwind-protect
         (open-editor-sldb key (editor-number swank::*emacs-connection*) nil level (level-condition level))
      (unwatch-level level watcher))
    nil))

(setf *own-immediate-requests*
      (union *own-immediate-requests* '(editor-debuggers editor-open-debugger)))

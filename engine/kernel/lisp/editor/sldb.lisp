;;;; The bridge, third file: one debugger, three doors. An editor's job that fails parks in
;;;; the shared debugger (../debugger.lisp) on the worker, where the window and the agents see
;;;; it; the editor's Swank thread, which waits for that job, opens SLDB on the same level.
;;;; The frames and restarts are those the level kept when it parked; what SLDB asks of them
;;;; (more frames, a frame's locals) is answered here from them. A restart chosen in SLDB is
;;;; not invoked here (restarts live on the worker's stack): the host hears "editor-restart"
;;;; and sends invoke-restart like any other choice, so the first to answer wins; when the
;;;; level closes, whoever chose, SLDB closes too, and says who chose when it was not the
;;;; editor. An evaluation in a frame is a job too (debugger-eval). The editor's interrupt
;;;; (C-c C-c) of a request that waits for its job becomes "editor-interrupt": the host stops
;;;; the job as the window's Interrupt does (or drops it, if it has not begun).

(in-package "LISP-DUET.KERNEL")

(define-record editor-sldb
  depth      ; SLDB's level in this thread: 1 for the first
  key        ; the number of the (:LISP-DUET KEY ...) messages about it (its request's)
  editor     ; the number of the editor's connection
  entry      ; the editor's request whose job parked, or NIL: another's, opened from the editor
  level      ; the shared debugger's level (debugger.lisp)
  condition  ; what it parked on
  tag        ; thrown to when the level closes
  chosen)    ; the restart this SLDB chose, if any

(defun editor-sldb (entry level condition)
  "SLDB in the editor for ENTRY's job, parked at LEVEL, until that level closes."
  (open-editor-sldb (editor-request-id entry) (editor-request-editor entry) entry level condition))

(defun open-editor-sldb (key editor entry level condition)
  "SLDB in this thread's editor on LEVEL until it closes; KEY numbers the messages about it."
  (let* ((sldb (make-editor-sldb :depth (1+ (length *editor-sldb*)) :key key :editor editor
                                 :entry entry :level level :condition condition :tag (list :sldb)))
         (*editor-sldb* (cons sldb *editor-sldb*))
         (thread (swank::current-thread-id)))
    (swank::send-to-emacs (list* :debug thread (editor-sldb-depth sldb)
                                 (sldb-information sldb 0 swank::*sldb-initial-frames*)))
    (swank::send-to-emacs (list :debug-activate thread (editor-sldb-depth sldb) nil))
    (unwind-protect (catch (editor-sldb-tag sldb) (serve-editor-sldb sldb))
      (swank::send-to-emacs (list :debug-return thread (editor-sldb-depth sldb) nil))
      (let ((by (level-chosen-by level)) (restart (level-ended-by level)))
        ;; Said when someone else chose: the person knows what they chose themselves.
        (when (and by (not (and restart (equal restart (editor-sldb-chosen sldb)))))
          (swank::background-message "Lisp Duet: ~A chose ~A." by (or restart "a restart")))))))

(defun serve-editor-sldb (sldb)
  "SLDB's requests, until the level closes: then throws to the level's tag (a request that
waits here, such as the restart the editor chose, is answered as aborted, as in Swank)."
  (let ((id (editor-sldb-key sldb)))
    (loop
      (let ((event (swank::wait-for-event `(or (:emacs-rex . _) (:lisp-duet ,id . _)))))
        (if (eq (first event) :emacs-rex)
            (serve-editor-rex event (format nil "Return to SLDB level ~D." (editor-sldb-depth sldb)))
            (destructuring-bind (message &optional argument) (cddr event)
              (case message
                (:unparked
                 (when (eq argument (editor-sldb-level sldb))
                   (throw (editor-sldb-tag sldb) nil)))
                ((:done :dropped)
                 ;; Not while parked; should it come, the wait for the job takes it.
                 (swank/backend:send (swank/backend:current-thread) event)
                 (throw (editor-sldb-tag sldb) nil)))))))))

;;; What SLDB shows

(defun sldb-frames (sldb start end)
  (loop for (text) in (level-frames (editor-sldb-level sldb))
        for index from 0
        when (and (>= index start) (or (null end) (< index end)))
          collect (list index text)))

(defun sldb-information (sldb start end)
  "What SWANK:DEBUGGER-INFO-FOR-EMACS gives: the condition, the restarts, the frames, the
editor's requests waiting in this thread."
  (let ((level (editor-sldb-level sldb))
        (condition (editor-sldb-condition sldb)))
    (list (list (condition-message condition)
                (format nil "   [Condition of type ~A]" (condition-type-name condition))
                nil)
          (loop for restart in (level-restarts level)
                collect (list (restart-name-text restart) (restart-text restart)))
          (sldb-frames sldb start end)
          swank::*pending-continuations*)))

(defun sldb-locals (sldb index)
  (let ((frame (nth index (level-frames (editor-sldb-level sldb)))))
    (when (and frame (frame-variables-kind (second frame) (third frame)))
      (multiple-value-bind (arguments locals) (frame-variables (second frame) (third frame))
        (loop for (name . value) in (append arguments locals)
              for id from 0
              collect (list :name (session-print name) :id id :value (session-print value 200)))))))

(defun sldb-local-value (sldb index variable)
  (let ((frame (nth index (level-frames (editor-sldb-level sldb)))))
    (when frame
      (multiple-value-bind (arguments locals) (frame-variables (second frame) (third frame))
        (cdr (nth variable (append arguments locals)))))))

;;; What SLDB does

(defun choose-editor-restart (sldb designator)
  "Tells the host the editor chose the restart DESIGNATOR (index or name) of SLDB's level,
then waits until the level closes, by that choice or by someone else's."
  (let* ((level (editor-sldb-level sldb))
         (entry (editor-sldb-entry sldb))
         (restart (if (eq designator :abort)
                      ;; SLDB's q: the job's own ABORT (the session's restarts come last).
                      (find "ABORT" (level-restarts level) :key #'restart-name-text
                                                           :test #'string= :from-end t)
                      (find-level-restart level designator))))
    (unless restart
      (swank::send-to-emacs (list :debug-condition (swank::current-thread-id)
                                  (format nil "This debugger has no restart ~A." designator)))
      (return-from choose-editor-restart nil))
    (setf (editor-sldb-chosen sldb) (restart-name-text restart))
    (send-event "editor-restart"
                "editor" (editor-sldb-editor sldb)
                "editor_request" (if entry (editor-request-id entry) :null)
                "target" (level-job-id level)
                "level" (level-number level)
                "restart" (position restart (level-restarts level))
                "restart_name" (restart-name-text restart))
    (serve-editor-sldb sldb)))

(defun sldb-unavailable (what)
  (end-editor-evaluation
   (format nil "~A is not available in Lisp Duet's shared debugger: its frames are on the session's worker. Use the restarts, the locals (i inspects one), the source (v), or evaluate in a frame (e)" what)))

(defun frame-evaluation (string index &key (to-editor t))
  "The values of STRING evaluated in frame INDEX of the innermost SLDB's level: a job of the
session (debugger-eval), as an agent's evaluation in a frame is."
  (let* ((sldb (first *editor-sldb*))
         (level (editor-sldb-level sldb)))
    (multiple-value-bind (entry dropped)
        (delegate-to-session "frame-eval"
                             (list "op" "debugger-eval" "target" (level-job-id level)
                                   "level" (level-number level) "frame" index "code" string)
                             (editor-job-body #'funcall :to-editor to-editor))
      (editor-outcome entry dropped))))

(defun evaluate-in-frame (string index &key pretty)
  (let ((values (frame-evaluation string index :to-editor (not pretty))))
    (if pretty
        (swank::swank-pprint values)
        (swank::with-buffer-syntax () (swank::format-values-for-echo-area values)))))

(defun inspect-in-frame (string index)
  "SLDB's i: the value of STRING in frame INDEX (a job of the session), in the inspector."
  (let ((value (first (frame-evaluation string index :to-editor nil))))
    (swank::with-buffer-syntax ()
      (swank::reset-inspector)
      (swank::inspect-object value))))

(defun source-form-location (text)
  "A location SLIME shows as a buffer holding TEXT (the definition as the session has it)."
  (list :location (list :source-form text) (list :position 1) nil))

(defun frame-source (sldb index)
  "SLDB's v: where frame INDEX's code is. A function compiled or loaded from a file (C-c C-k,
C-c C-l, a system): its file and position, or its buffer for C-c C-c (Swank's backend knows);
one the session defined by evaluation: its definition's text; the evaluated form's own frame:
the form."
  (let ((frame (nth index (level-frames (editor-sldb-level sldb)))))
    (unless frame
      (return-from frame-source (list :error (format nil "There is no frame ~D." index))))
    (destructuring-bind (text function environment) frame
      (declare (ignore environment))
      (let* ((name (frame-function-name function))
             (object (if (and (symbolp function) function) (ignore-errors (fdefinition function)) function))
             (file-location (and (functionp object)
                                 (ignore-errors (nth-value 0 (ext:compiled-function-file object)))
                                 (ignore-errors (swank/backend:find-source-location object))))
             (session (and (symbolp name) name (definition-source name "function"))))
        (cond ((and (consp file-location) (eq (first file-location) :location)) file-location)
              (session (source-form-location (car session)))
              ((eq name 'si::bytecodes) (source-form-location text))
              ((null function)
               (list :error (format nil "~A is a call of a built-in function: ECL keeps no frame or source for it." text)))
              (t (list :error (format nil "Lisp Duet knows no source for ~A (compiled without a file, or defined by a library that did not record it)." text))))))))

(defun sldb-by-depth (depth)
  (or (find depth *editor-sldb* :key #'editor-sldb-depth) (first *editor-sldb*)))

(defparameter *sldb-doors*
  `((swank:backtrace . ,(lambda (start end) (sldb-frames (first *editor-sldb*) start end)))
    (swank:debugger-info-for-emacs . ,(lambda (start end) (sldb-information (first *editor-sldb*) start end)))
    (swank:frame-locals-and-catch-tags . ,(lambda (index) (list (sldb-locals (first *editor-sldb*) index) nil)))
    (swank:frame-package-name . ,(lambda (index)
                                   (declare (ignore index))
                                   (package-name (level-package (editor-sldb-level (first *editor-sldb*))))))
    (swank:invoke-nth-restart-for-emacs . ,(lambda (depth index) (choose-editor-restart (sldb-by-depth depth) index)))
    (swank:invoke-nth-restart . ,(lambda (index) (choose-editor-restart (first *editor-sldb*) index)))
    (swank:sldb-abort . ,(lambda () (choose-editor-restart (first *editor-sldb*) :abort)))
    (swank:throw-to-toplevel . ,(lambda () (choose-editor-restart (first *editor-sldb*) :abort)))
    (swank:sldb-continue . ,(lambda () (choose-editor-restart (first *editor-sldb*) "CONTINUE")))
    (swank:eval-string-in-frame . ,(lambda (string index package)
                                     (declare (ignore package))
                                     (evaluate-in-frame string index)))
    (swank:pprint-eval-string-in-frame . ,(lambda (string index package)
                                            (declare (ignore package))
                                            (evaluate-in-frame string index :pretty t)))
    (swank:inspect-frame-var . ,(lambda (index variable)
                                  (swank::with-buffer-syntax ()
                                    (swank::reset-inspector)
                                    (swank::inspect-object
                                     (sldb-local-value (first *editor-sldb*) index variable)))))
    (swank:inspect-current-condition . ,(lambda ()
                                          (swank::with-buffer-syntax ()
                                            (swank::reset-inspector)
                                            (swank::inspect-object (editor-sldb-condition (first *editor-sldb*))))))
    (swank:sdlb-print-condition . ,(lambda () (condition-message (editor-sldb-condition (first *editor-sldb*)))))
    (swank:frame-source-location . ,(lambda (index) (frame-source (first *editor-sldb*) index)))
    (swank:inspect-in-frame . ,#'inspect-in-frame)
    ,@(loop for name in '(swank:sldb-disassemble swank:sldb-return-from-frame swank:restart-frame
                          swank:sldb-step swank:sldb-next swank:sldb-out swank:sldb-break-on-return
                          swank:sldb-break-with-default-debugger)
            collect (let ((name name))
                      (cons name (lambda (&rest arguments)
                                   (declare (ignore arguments))
                                   (sldb-unavailable (string-downcase (symbol-name name))))))))
  "SLDB's requests answered from the shared debugger while a job of this thread's editor is
parked; elsewhere Swank's own functions answer them.")

(defun open-sldb-doors ()
  (loop for (name . door) in *sldb-doors*
        do (let ((original (fdefinition name)) (door door))
             (setf (fdefinition name)
                   (lambda (&rest arguments)
                     (apply (if *editor-sldb* door original) arguments))))))

;;; Interrupts

(defun editor-event-hook (connection event)
  "Swank's *EVENT-HOOK*, in the connection's control thread: the editor's interrupt of a
request that waits for its job goes to the host (true: Swank does nothing more); others, and
interrupts of Swank's own work (a slow completion), are Swank's."
  (when (and (consp event) (eq (first event) :emacs-interrupt))
    (let* ((id (second event))
           (thread (ignore-errors
                    (swank::thread-for-evaluation connection (if (eq id t) :find-existing id))))
           (entry (and thread (innermost-editor-wait thread))))
      (when entry
        (send-event "editor-interrupt"
                    "editor" (editor-request-editor entry)
                    "editor_request" (editor-request-id entry)
                    "state" (string-downcase (symbol-name (editor-request-state entry)))
                    "job" (or (editor-request-job-id entry) :null))
        t))))

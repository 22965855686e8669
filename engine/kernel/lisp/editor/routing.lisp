;;;; The bridge, second file: what the editor evaluates runs as a job of the session. Each
;;;; Swank function that runs the person's code (the REPL, C-x C-e, C-c C-c, C-c C-k, C-c C-l,
;;;; ...) is wrapped: called in a Swank thread, it registers the request
;;;; (NEW-EDITOR-REQUEST: the host hears "editor-request" and queues a job for it) and waits
;;;; in the thread's mailbox; the worker runs the job with the editor's connection, buffer
;;;; package and output stream, and the thread answers the editor as Swank would have.
;;;; Called anywhere else (the worker running that very job), the original runs.

(in-package "LISP-DUET.KERNEL")

(define-condition editor-evaluation-ended (condition)
  ((text :initarg :text :reader editor-evaluation-ended-text))
  (:report (lambda (condition stream) (write-string (editor-evaluation-ended-text condition) stream)))
  (:documentation "Why an evaluation the editor asked for has no values; SLIME shows it as
\"; Evaluation aborted on TEXT\"."))

(defmethod print-object ((condition editor-evaluation-ended) stream)
  ;; SLIME writes "; Evaluation aborted on TEXT." and puts the period itself.
  (write-string (string-right-trim "." (editor-evaluation-ended-text condition)) stream))

(defun delegating-p ()
  "True in a Swank thread serving an editor: its evaluations go to the session."
  (and *in-swank-thread* swank::*emacs-connection* t))

(defun note-editor-wait (thread entry push)
  (mp:with-lock (*editors-lock*)
    (let ((waits (if push
                     (cons entry (gethash thread *editor-waits*))
                     (remove entry (gethash thread *editor-waits*) :test #'eq))))
      (if waits
          (setf (gethash thread *editor-waits*) waits)
          (remhash thread *editor-waits*)))))

(defun innermost-editor-wait (thread)
  (mp:with-lock (*editors-lock*) (first (gethash thread *editor-waits*))))

(defun delegate-to-session (kind fields body &key keep-package)
  "Hands the request to the host and waits until its job ends; answers the editor's debugger
meanwhile. (values entry dropped-reason)."
  (let* ((thread (swank/backend:current-thread))
         (entry (new-editor-request :editor (editor-number swank::*emacs-connection*)
                                    :kind kind :fields fields :body body :keep-package keep-package
                                    :notify (lambda (message) (swank/backend:send thread message)))))
    (note-editor-wait thread entry t)
    (unwind-protect (values entry (wait-for-editor-job entry))
      (note-editor-wait thread entry nil))))

(defun serve-editor-rex (event description)
  "Serves a request the editor sent to this thread while it waits (for a job, or in SLDB),
with an ABORT restart of its own, as Swank's SLDB-LOOP has: a request that ends without
values (END-EDITOR-EVALUATION, an interrupt in the editor) ends only itself, never the wait
or the SLDB it was sent from."
  (with-simple-restart (abort "~A" description)
    (apply #'swank::eval-for-emacs (rest event))))

(defun wait-for-editor-job (entry)
  "Waits for ENTRY's job: returns NIL when it ended, the reason when the host dropped it.
Meanwhile the editor may send this thread requests of its debugger (sldb.lisp)."
  (let ((id (editor-request-id entry)))
    (loop
      (let ((event (swank::wait-for-event `(or (:emacs-rex . _) (:lisp-duet ,id . _)))))
        (if (eq (first event) :emacs-rex)
            (serve-editor-rex event "Return to the wait for Lisp Duet's evaluation.")
            (destructuring-bind (message &optional argument condition) (cddr event)
              (case message
                (:done (return nil))
                (:dropped (return argument))
                (:parked (editor-sldb entry argument condition)))))))))

(defun end-editor-evaluation (text)
  "Ends the editor's request without values: SLIME says \"Evaluation aborted on TEXT\"."
  (signal 'editor-evaluation-ended :text text)
  (abort))

(defun reply-error-text (reply)
  (let ((status (reply-field reply "status"))
        (error (reply-field reply "error")))
    (cond ((equal status "interrupted") "Interrupted (in Lisp Duet).")
          ((consp error) (format nil "~A: ~A" (reply-field error "type") (reply-field error "message")))
          (t (format nil "~A" status)))))

(defun editor-outcome (entry dropped)
  "The values of ENTRY's job, or the end of the editor's request when it has none."
  (let ((reply (editor-request-reply entry)))
    (cond (dropped (end-editor-evaluation (format nil "Lisp Duet did not run it: ~A" dropped)))
          ((null reply)
           (end-editor-evaluation "It was cut short when control left the debugger level it ran in."))
          ((equal (reply-field reply "status") "ok") (editor-request-values entry))
          (t (end-editor-evaluation (reply-error-text reply))))))

;;; What the job runs

(defun tee (&rest streams)
  (let ((streams (remove nil streams)))
    (if (rest streams) (apply #'make-broadcast-stream streams) (first streams))))

(defun editor-job-body (run &key (to-editor t) collect)
  "A function of the job's own body, for the request's entry: RUN (a function of that body)
called with the editor's connection, buffer package and readtable, and the job's output also
sent to the editor's REPL (TO-EDITOR) and to the string stream COLLECT."
  (let ((connection swank::*emacs-connection*)
        (package swank::*buffer-package*)
        (readtable swank::*buffer-readtable*))
    (lambda (body)
      (lambda ()
        (let* ((editor-output (and to-editor (swank::connection.user-output connection)))
               ;; What SWANK::WITH-CONNECTION binds, without its debugger hook and streams:
               ;; writing to the editor's REPL sends through the connection.
               (swank::*emacs-connection* connection)
               (swank::*pending-slime-interrupts* '())
               (swank::*send-counter* 0)
               (swank::*buffer-package* package)
               (swank::*buffer-readtable* readtable)
               (*readtable* readtable)
               (*standard-output* (tee *standard-output* editor-output collect))
               (*error-output* (tee *error-output* editor-output collect))
               (*trace-output* (tee *trace-output* editor-output collect)))
          (unwind-protect
               (multiple-value-prog1 (funcall run body)
                 (setf (editor-request-final-package *editor-request*) *package*))
            (when editor-output (ignore-errors (finish-output editor-output)))))))))

(defun editor-evaluate (kind code &key keep-package collect (to-editor t))
  "Evaluates CODE (the buffer's text) as a job of the session: (values values package), the
package being the one the code left the session in."
  (multiple-value-bind (entry dropped)
      (delegate-to-session kind
                           (list "op" "eval" "code" code
                                 "package" (package-name swank::*buffer-package*))
                           (editor-job-body #'funcall :to-editor to-editor :collect collect)
                           :keep-package keep-package)
    (values (editor-outcome entry dropped) (editor-request-final-package entry))))

;;; The REPL

(defun editor-listener-eval (string)
  "SWANK-REPL::*LISTENER-EVAL-FUNCTION*: SWANK-REPL::REPL-EVAL, with the evaluation a job."
  (unless (delegating-p)
    (return-from editor-listener-eval (swank-repl::repl-eval string)))
  (swank-repl::clear-user-input)
  (swank::with-buffer-syntax ()
    (swank-repl::track-package
     (lambda ()
       (multiple-value-bind (values package) (editor-evaluate "listener-eval" string :keep-package t)
         ;; An IN-PACKAGE in the REPL moves the REPL there (TRACK-PACKAGE tells the editor).
         (when (and (packagep package) (package-name package))
           (setf *package* package))
         (setq *** ** ** * * (car values) /// // // / / values)
         (funcall swank-repl::*send-repl-results-function* values)))))
  nil)

;;; Evaluations in the source buffers

(defun call-with-editor-policy (function)
  "Calls FUNCTION (a compilation the editor asked for) at (DEBUG 3), as plain SLIME on ECL
compiles (Swank's ECL backend proclaims it), unless the person proclaimed a DEBUG level of
their own: the editor's compiled code keeps its frames, arguments and locals for SLDB and the
shared debugger. The policy is bound, so neither that nor a DECLAIM in the compiled code
leaks into the session's own policy (the background native tier keeps the person's
proclamations itself: native-source.lisp)."
  (let ((policy (compilation-policy))
        (debug (find-symbol "*DEBUG*" "C")))
    (progv (mapcar #'car policy) (mapcar #'cdr policy)
      (when (and debug (boundp debug) (not (assoc 'debug *person-policy*)))
        (setf (symbol-value debug) 3))
      (funcall function))))

(defun route (name replacement)
  "Makes NAME (a Swank function) call REPLACEMENT with the original and the arguments when
an editor calls it."
  (let ((original (fdefinition name)))
    (pushnew name *routed-requests*)
    (setf (fdefinition name)
          (lambda (&rest arguments)
            (if (delegating-p)
                (apply replacement original arguments)
                (apply original arguments))))))

(defun editor-call-text (name arguments)
  (let ((*package* (find-package "KEYWORD")))
    (prin1-to-string (cons name arguments))))

(defun read-forms-for-ledger (code)
  "(form start end before) of each top-level form of CODE, read in the buffer's package, for
the ledger of definitions once they are compiled; NIL when CODE does not read."
  (let ((*package* swank::*buffer-package*) (*read-eval* nil))
    (ignore-errors
     (with-input-from-string (in code)
       (loop for start = (file-position in)
             for form = (read in nil in)
             until (eq form in)
             collect (list form start (file-position in) (definition-before form)))))))

(defun note-compiled-forms (forms job-id)
  (let ((*package* swank::*buffer-package*))
    (loop for (form start end before) in forms
          do (note-definition form job-id)
             (note-ledger-definition form start end before))))

(defun defined-names (forms)
  "The names the defining FORMS (READ-FORMS-FOR-LEDGER's) name: (DEFUN AREA ...) names AREA."
  (loop for (form) in forms
        when (and (consp form) (consp (cdr form))
                  (symbolp (first form)) (eql 0 (search "DEF" (symbol-name (first form))))
                  (or (and (symbolp (second form)) (second form))
                      (and (consp (second form)) (eq (first (second form)) 'setf))))
          collect (second form)))

(defun compilation-succeeded-p (result)
  "True for Swank's compilation result (a list, (:COMPILATION-RESULT notes successp ...)) of
a compilation that succeeded."
  (and (consp result) (eq (first result) :compilation-result)
       (swank::compilation-result-successp result)))

(defun fasl-source (file)
  "The source beside a compiled FILE (SLIME loads the .fas that C-c C-k compiled), else NIL."
  (let ((path (ignore-errors (pathname file))))
    (when (and path (not (equalp (pathname-type path) "lisp")))
      (probe-file (make-pathname :type "lisp" :defaults path)))))

(defun editor-run-original (kind code original arguments &key ledger-code loaded-file compiles)
  "Runs a Swank function that changes the session (compiles, loads, undefines...) as a job:
the original, on the worker, with the editor's context; its value goes back to the editor.
LEDGER-CODE is compiled code whose definitions go into the ledger when it compiled; the
source of a compiled LOADED-FILE goes into the job's loaded files (the ledger reads it).
COMPILES: it runs ECL's compiler, at the editor's policy (CALL-WITH-EDITOR-POLICY)."
  (multiple-value-bind (entry dropped)
      (delegate-to-session
       kind
       (list "op" "eval" "code" code "package" (package-name swank::*buffer-package*))
       (editor-job-body
        (lambda (body)
          (declare (ignore body))
          (let* ((forms (and ledger-code (read-forms-for-ledger ledger-code)))
                 (result (if compiles
                             (call-with-editor-policy (lambda () (apply original arguments)))
                             (apply original arguments))))
            (when (and forms (compilation-succeeded-p result))
              (note-compiled-forms forms (editor-request-job-id *editor-request*)))
            (let ((source (and loaded-file (fasl-source loaded-file))))
              (when source (note-loaded-file source)))
            (setf (editor-request-values *editor-request*) (list result))
            ;; The session's transcript and the agents' digests read what a C-c C-c defined,
            ;; as an evaluation of the same forms would say (=> AREA), not Swank's record of
            ;; the compilation (the editor still gets that).
            (let ((names (and forms (compilation-succeeded-p result) (defined-names forms))))
              (list "values" (if names
                                 (mapcar (lambda (name) (session-print name 1000)) names)
                                 (list (session-print result 1000)))))))))
    (first (editor-outcome entry dropped))))

(defun editor-run-as-job (kind code-of)
  "A replacement for ROUTE: the Swank function runs whole as a job of the session (it
evaluates the person's code), its digest line showing (funcall CODE-OF arguments)."
  (lambda (original &rest arguments)
    (editor-run-original kind (apply code-of arguments) original arguments)))

(defun editor-refusal (text)
  "A replacement for ROUTE: the request is refused with TEXT (SLIME shows \"Evaluation
aborted on TEXT\"), and the connection goes on."
  (lambda (original &rest arguments)
    (declare (ignore original arguments))
    (end-editor-evaluation text)))

(defparameter *quit-refusal*
  "Lisp Duet keeps this Lisp running: it is shared with Lisp Duet's window and the agents. To start afresh, use Session > Reset in the window; to leave, M-x slime-disconnect")

(defun echo-area-evaluation (kind)
  (lambda (original string)
    (declare (ignore original))
    (swank::with-buffer-syntax ()
      (swank::format-values-for-echo-area (editor-evaluate kind string)))))

(defun route-editor-evaluations ()
  (route 'swank:interactive-eval (echo-area-evaluation "interactive-eval"))
  (route 'swank:interactive-eval-region (echo-area-evaluation "interactive-eval"))
  (route 'swank:eval-and-grab-output
         (lambda (original string)
           (declare (ignore original))
           (let* ((output (make-string-output-stream))
                  (values (editor-evaluate "eval-and-grab-output" string :collect output :to-editor nil)))
             (swank::with-buffer-syntax ()
               (list (get-output-stream-string output) (format nil "~{~S~^~%~}" values))))))
  (route 'swank:pprint-eval
         (lambda (original string)
           (declare (ignore original))
           (let* ((output (make-string-output-stream))
                  (values (editor-evaluate "pprint-eval" string :collect output :to-editor nil)))
             (swank::cat (get-output-stream-string output) (swank::swank-pprint values)))))
  (route 'swank:compile-string-for-emacs
         (lambda (original string &rest more)
           (editor-run-original "compile-string" string original (cons string more) :ledger-code string
                                :compiles t)))
  (route 'swank:compile-multiple-strings-for-emacs
         (lambda (original strings &rest more)
           (let ((code (format nil "~{~A~^~%~}" (mapcar #'first strings))))
             (editor-run-original "compile-string" code original (cons strings more) :ledger-code code
                                  :compiles t))))
  (route 'swank:compile-file-for-emacs
         (lambda (original filename &rest more)
           (editor-run-original "compile-file" (editor-call-text 'compile-file (list filename))
                                original (cons filename more) :compiles t)))
  (route 'swank:compile-file-if-needed
         (lambda (original filename &rest more)
           (editor-run-original "compile-file" (editor-call-text 'compile-file (list filename))
                                original (cons filename more) :compiles t)))
  (route 'swank:load-file
         (lambda (original filename)
           (editor-run-original "load-file" (editor-call-text 'load (list filename))
                                original (list filename) :loaded-file filename)))
  ;; What evaluates the person's text outside the buffers: the inspector (C-c I, its e),
  ;; C-c E, disassembling a form.
  (route 'swank:init-inspector (editor-run-as-job "inspect" #'identity))
  (route 'swank:inspector-eval (editor-run-as-job "inspector-eval" #'identity))
  (route 'swank:value-for-editing (editor-run-as-job "edit-value" #'identity))
  (route 'swank:commit-edited-value
         (editor-run-as-job "edit-value" (lambda (form value) (format nil "(setf ~A `~A)" form value))))
  (route 'swank:disassemble-form (editor-run-as-job "disassemble" (lambda (form) (format nil "(disassemble ~A)" form))))
  (route 'swank:quit-lisp
         (lambda (original)
           (declare (ignore original))
           (swank::background-message "~A." *quit-refusal*)
           (end-editor-evaluation *quit-refusal*)))
  (route 'swank:start-swank-server-in-thread
         (editor-refusal "Lisp Duet does not start a second Swank server in a thread: connect to the one it runs"))
  (dolist (name (append '(swank:re-evaluate-defvar swank:undefine-function swank:unintern-symbol
                          swank:toggle-profile-fdefinition swank:profile-by-substring
                          swank:swank-profile-package)
                        ;; The trace dialog's and swank-asdf's requests, when SLIME loaded them.
                        (loop for (package . names) in '(("SWANK-TRACE-DIALOG" "DIALOG-TOGGLE-TRACE" "DIALOG-TRACE"
                                                          "DIALOG-UNTRACE" "DIALOG-UNTRACE-ALL")
                                                         ("SWANK" "OPERATE-ON-SYSTEM-FOR-EMACS" "RELOAD-SYSTEM"))
                              append (loop for name in names
                                           for symbol = (and (find-package package) (find-symbol name package))
                                           when (and symbol (fboundp symbol)) collect symbol))))
    (let ((name name))
      (route name (lambda (original &rest arguments)
                    (editor-run-original (string-downcase (symbol-name name))
                                         (editor-call-text name arguments) original arguments)))))
  (dolist (name '(swank:swank-delete-package swank:swank-toggle-trace swank:untrace-all))
    (let ((name name))
      (route name (lambda (original &rest arguments)
                    (editor-run-original (string-downcase (symbol-name name))
                                         (editor-call-text name arguments) original arguments))))))

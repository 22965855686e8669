;;;; The bridge, fourth file: the gate. Swank evaluates whatever form an editor sends in an
;;;; :EMACS-REX (SWANK::EVAL-FOR-EMACS calls EVAL on it): SLIME's requests name Swank's
;;;; functions with literal arguments, but any client may send (cl:loop), and SLIME's own
;;;; slime-eval sends any form. Here each form is looked at before Swank evaluates it:
;;;;   - a request of Swank's that runs none of the person's code (completion, arglists, M-.,
;;;;     describe, the inspector's navigation, SLDB's requests, xref), or one that hands its
;;;;     evaluation to the session itself (routing.lisp's ROUTE), with literal arguments:
;;;;     Swank answers it at once, in its own thread;
;;;;   - anything else is the person's code: it runs as a job of the session (queued, time
;;;;     limited, shown in the window and the agents' digests, its error in the shared
;;;;     debugger), and its primary value is the answer.

(in-package "LISP-DUET.KERNEL")

(defparameter *swank-packages*
  '("SWANK" "SWANK-REPL" "SWANK-TRACE-DIALOG" "SWANK-MACROSTEP" "SWANK-CLIPBOARD"
    "SWANK/BACKEND" "SWANK-MREPL")
  "Where Swank's requests live.")

(defparameter *immediate-requests*
  '(;; the connection, the REPL's own bookkeeping (its evaluations are routed: routing.lisp)
    "CONNECTION-INFO" "PING" "SWANK-REQUIRE" "CREATE-REPL" "CREATE-MREPL" "LISTENER-EVAL"
    "LISTENER-GET-VALUE" "LISTENER-SAVE-VALUE" "CLEAR-REPL-VARIABLES" "CLEAR-REPL-RESULTS"
    "REDIRECT-TRACE-OUTPUT" "REPL-SUPPRESS-OUTPUT" "REPL-SUPPRESS-ADVANCE-HISTORY"
    "REPL-EVAL-HOOK-PASS" "SET-PACKAGE" "DEFAULT-DIRECTORY" "BUFFER-FIRST-CHANGE"
    "UPDATE-INDENTATION-INFORMATION" "INIT-PRESENTATIONS" "INIT-PRESENTATION-STREAMS"
    "IO-SPEED-TEST" "FLOW-CONTROL-TEST" "TOGGLE-DEBUG-ON-SWANK-ERROR" "ED-IN-EMACS"
    "GDB-INITIAL-COMMANDS" "PROFILE-REPORT" "PROFILE-RESET" "PROFILED-FUNCTIONS"
    ;; looking things up
    "COMPLETIONS" "SIMPLE-COMPLETIONS" "FUZZY-COMPLETIONS" "FUZZY-COMPLETION-SELECTED"
    "COMPLETIONS-FOR-CHARACTER" "COMPLETIONS-FOR-KEYWORD" "COMPLETE-FORM" "AUTODOC"
    "OPERATOR-ARGLIST" "LIST-ALL-PACKAGE-NAMES" "APROPOS-LIST-FOR-EMACS" "DESCRIBE-SYMBOL"
    "DESCRIBE-FUNCTION" "DESCRIBE-DEFINITION-FOR-EMACS" "DOCUMENTATION-SYMBOL" "HYPERDOC"
    "FIND-DEFINITIONS-FOR-EMACS" "FIND-DEFINITION-FOR-THING" "FIND-SOURCE-LOCATION-FOR-EMACS"
    "XREF" "XREFS" "MOP" "PACKAGE=" "WHO-DEPENDS-ON" "LIST-ASDF-SYSTEMS"
    "LIST-ALL-SYSTEMS-KNOWN-TO-ASDF" "LIST-ALL-SYSTEMS-IN-CENTRAL-REGISTRY" "ASDF-SYSTEM-FILES"
    "ASDF-SYSTEM-LOADED-P" "ASDF-SYSTEM-DIRECTORY" "ASDF-DETERMINE-SYSTEM"
    "LIST-QUICKLISP-SYSTEMS"
    ;; expanding macros (what an agent's macroexpand tool does at once too)
    "SWANK-MACROEXPAND-1" "SWANK-MACROEXPAND" "SWANK-MACROEXPAND-ALL" "SWANK-EXPAND-1"
    "SWANK-EXPAND" "SWANK-COMPILER-MACROEXPAND-1" "SWANK-COMPILER-MACROEXPAND"
    "SWANK-FORMAT-STRING-EXPAND" "MACROSTEP-EXPAND-1" "MACRO-FORM-P"
    ;; the package of a symbol at point (swank-package-fu)
    "EXPORT-SYMBOL-FOR-EMACS" "UNEXPORT-SYMBOL-FOR-EMACS" "EXPORT-STRUCTURE"
    ;; the inspector's navigation (its evaluations are routed)
    "INSPECT-NTH-PART" "INSPECTOR-NTH-PART" "INSPECTOR-POP" "INSPECTOR-NEXT" "INSPECTOR-RANGE"
    "INSPECTOR-REINSPECT" "INSPECTOR-TOGGLE-VERBOSE" "QUIT-INSPECTOR" "DESCRIBE-INSPECTEE"
    "PPRINT-INSPECTOR-PART" "INSPECTOR-HISTORY" "INSPECTOR-CALL-NTH-ACTION"
    "INSPECT-CURRENT-CONDITION" "INSPECT-FRAME-VAR" "INSPECT-IN-FRAME" "INSPECT-PRESENTATION"
    "LOOKUP-PRESENTED-OBJECT" "LOOKUP-PRESENTED-OBJECT-OR-LOSE"
    "LOOKUP-AND-SAVE-PRESENTED-OBJECT-OR-LOSE"
    ;; SLDB (sldb.lisp answers them from the shared debugger)
    "BACKTRACE" "DEBUGGER-INFO-FOR-EMACS" "FRAME-LOCALS-AND-CATCH-TAGS" "FRAME-PACKAGE-NAME"
    "INVOKE-NTH-RESTART" "INVOKE-NTH-RESTART-FOR-EMACS" "SLDB-ABORT" "SLDB-CONTINUE"
    "THROW-TO-TOPLEVEL" "EVAL-STRING-IN-FRAME" "PPRINT-EVAL-STRING-IN-FRAME"
    "FRAME-SOURCE-LOCATION" "SLDB-DISASSEMBLE" "SLDB-RETURN-FROM-FRAME" "RESTART-FRAME"
    "SLDB-STEP" "SLDB-NEXT" "SLDB-OUT" "SLDB-BREAK-ON-RETURN" "SLDB-BREAK-WITH-DEFAULT-DEBUGGER"
    "SDLB-PRINT-CONDITION" "SIMPLE-BREAK"
    ;; threads (the kernel's own are not listed: server.lisp)
    "LIST-THREADS" "QUIT-THREAD-BROWSER" "KILL-NTH-THREAD" "DEBUG-NTH-THREAD"
    ;; the trace dialog's reports
    "DIALOG-TRACED-P" "REPORT-PARTIAL-TREE" "REPORT-TRACE-DETAIL" "REPORT-SPECS" "REPORT-TOTAL"
    "CLEAR-TRACE-TREE" "INSPECT-TRACE-PART"
    ;; the clipboard contrib keeps objects the person chose
    "ADD" "ENTRIES" "DELETE-ENTRY" "ENTRY-TO-REF")
  "Swank's requests that run none of the person's code: answered at once. (SET-DEFAULT-DIRECTORY,
SLIME's ,cd, is not among them: it moves the session's *DEFAULT-PATHNAME-DEFAULTS*, which the
agents' file work relies on, so it is a job the window and the agents see.)")

(defparameter *own-immediate-requests* '()
  "The bridge's own requests an editor may make (lisp-duet.el's: debuggers.lisp adds them).")

(defvar *routed-requests* '()
  "Swank's functions ROUTE wrapped: they hand their evaluation to the session themselves.")

(defun literal-argument-p (form)
  "True for what SLIME passes as an argument: a self-evaluating object or a quoted one (no
variable, no call: those would be evaluated by Swank's thread)."
  (or (and (symbolp form) (or (keywordp form) (member form '(nil t))))
      (and (atom form) (not (symbolp form)))
      (and (consp form) (eq (first form) 'quote) (consp (rest form)) (null (cddr form)))))

(defun immediate-request-p (form)
  "True when FORM is one of Swank's requests that Swank answers at once (see the top)."
  (and (consp form)
       (symbolp (first form))
       (listp (rest form))
       (null (cdr (last form)))
       (every #'literal-argument-p (rest form))
       (let* ((operator (first form))
              (package (symbol-package operator)))
         (and package
              (fboundp operator)
              (or (member operator *routed-requests* :test #'eq)
                  (member operator *own-immediate-requests* :test #'eq)
                  (and (member (package-name package) *swank-packages* :test #'string=)
                       (member (symbol-name operator) *immediate-requests* :test #'string=)))))))

(defun form-text (form)
  "FORM as the session's transcript shows it: printed in the buffer's package."
  (let ((*package* (or swank::*buffer-package* *package*)))
    (with-brief-printing
      (let ((*print-length* nil) (*print-level* nil) (*print-circle* t) (*print-case* :downcase))
        (or (ignore-errors (print-limited (lambda (s) (prin1 form s)) 20000))
            "#<a form the editor sent>")))))

(defun editor-eval-form (form)
  "A form the editor sent that is not one of Swank's requests (SLIME's slime-eval of any
form, a client's raw (:emacs-rex (cl:loop) ...)): evaluated as a job of the session with the
editor's connection and buffer package; its primary value goes back to the editor."
  (multiple-value-bind (entry dropped)
      (delegate-to-session
       "slime-eval"
       (list "op" "eval" "code" (form-text form) "package" (package-name swank::*buffer-package*))
       (editor-job-body
        (lambda (body)
          (declare (ignore body))
          (let ((values (multiple-value-list (eval form))))
            (setf (editor-request-values *editor-request*) values)
            (list "values" (mapcar (lambda (value) (session-print value 1000)) values))))))
    (first (editor-outcome entry dropped))))

(defun gated-form (form)
  "What Swank evaluates for FORM, sent by an editor: FORM itself when Swank may answer it at
once, else a call of EDITOR-EVAL-FORM that runs it as a job of the session."
  (if (or (not (delegating-p)) (immediate-request-p form))
      form
      `(editor-eval-form ',form)))

(defun open-the-gate ()
  "Once: every form an editor sends passes GATED-FORM before Swank evaluates it."
  (let ((original (fdefinition 'swank::eval-for-emacs)))
    (setf (fdefinition 'swank::eval-for-emacs)
          (lambda (form buffer-package id)
            (funcall original (gated-form form) buffer-package id)))))

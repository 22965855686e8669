;;;; Libraries at once (issue 39), part 4: native code into the running session, never
;;;; resetting a library's state. A compiled system's native files (ASDF's .fas) would, loaded,
;;;; run each file's top-level forms again: DEFUN and DEFMETHOD swap in native code (what we
;;;; want), but a DEFPARAMETER resets its variable, a LET around a DEFUN starts its closure's
;;;; state afresh (a counter counts from 0 again), a registration call registers twice. So a
;;;; file is loaded natively here only when every top-level form of it is one whose second run
;;;; changes nothing but the code (definitions, DEFVAR, declarations, packages), after macros
;;;; are expanded; its DEFPARAMETER values are put back right after the load, and so is any
;;;; function or macro of it the person (or an agent) redefined in the session meanwhile. Any
;;;; other file keeps running as bytecode in this engine, and says why; the next engine loads
;;;; it natively from ASDF's cache. ASDF is left believing the bytecode is loaded (it is, and
;;;; its files do not change), so it never reloads a file under the session.
;;;;
;;;; The loads run on the worker, between jobs, one file a turn: the engine posts itself a
;;;; "library-swap" request (RequestRouter::postForWorker), which the idle worker takes like
;;;; any other, so nothing the person or an agent runs sees a library half loaded.

(in-package "LISP-DUET.KERNEL")

(defvar *pending-swaps* '() "(LIBRARY-FILE DEFPARAMETERS NAMES) to load natively, oldest first.")
(defvar *swap-lock* (mp:make-lock :name "lisp-duet library swaps"))

(defparameter *swap-safe-operators*
  '(defun defmacro defgeneric defmethod defvar defparameter defconstant deftype defclass defstruct
    define-condition define-compiler-macro defsetf define-setf-expander define-modify-macro
    define-symbol-macro declaim in-package defpackage define-method-combination
    export import shadow shadowing-import)
  "Top-level operators whose second run changes nothing but code (DEFPARAMETER's value is put
back).")

(defvar *local-macros* '() "(NAME . EXPANDER) of the MACROLETs around the form looked at.")

(defun local-expander (definition)
  "An expander for a MACROLET's (NAME LAMBDA-LIST . BODY): the top-level forms inside a
MACROLET (alexandria makes DEFUNs that way) are looked at as the compiler saw them."
  (destructuring-bind (lambda-list &rest body) (rest definition)
    (let* ((environment (second (member '&environment lambda-list)))
           (plain (if environment
                      (remove environment (remove '&environment lambda-list))
                      lambda-list))
           (whole (and (eq (first plain) '&whole) (second plain)))
           (rest (if whole (cddr plain) plain))
           (form (gensym "FORM")))
      (coerce `(lambda (,form)
                 (let (,@(and whole `((,whole ,form))) ,@(and environment `((,environment nil))))
                   (declare (ignorable ,@(and whole (list whole)) ,@(and environment (list environment))))
                   (destructuring-bind ,rest (rest ,form) ,@body)))
              'function))))

(defun unsafe-form-reason (form names defparameters)
  "NIL when running FORM again changes nothing but code, else its operator (what to tell).
Pushes onto NAMES the functions and macros it defines, onto DEFPARAMETERS its variables; both
are conses holding a list."
  (cond ((atom form) nil)
        ((not (symbolp (first form))) "a form that is not a definition")
        ((member (first form) '(progn locally))
         (some (lambda (inner) (unsafe-form-reason inner names defparameters)) (rest form)))
        ((assoc (first form) *local-macros*)
         (unsafe-form-reason (funcall (cdr (assoc (first form) *local-macros*)) form) names defparameters))
        ((eq (first form) 'macrolet)
         (let ((*local-macros* (append (mapcar (lambda (definition) (cons (first definition) (local-expander definition)))
                                               (second form))
                                       *local-macros*)))
           (some (lambda (inner) (unsafe-form-reason inner names defparameters)) (cddr form))))
        ((eq (first form) 'eval-when)
         (and (intersection (second form) '(:load-toplevel load :execute eval))
              (some (lambda (inner) (unsafe-form-reason inner names defparameters)) (cddr form))))
        ((member (first form) *swap-safe-operators*)
         (case (first form)
           ((defun defmacro define-modify-macro) (push (second form) (car names)))
           (defparameter (push (second form) (car defparameters))))
         nil)
        ((and (eq (first form) 'setf) (consp (second form)) (eq (first (second form)) 'documentation))
         nil)
        ((and (macro-function (first form)) (not (special-operator-p (first form))))
         (let ((expansion (macroexpand-1 form)))
           (if (equal expansion form)
               (symbol-name (first form))
               (unsafe-form-reason expansion names defparameters))))
        (t (symbol-name (first form)))))

(defun read-top-level-forms (file)
  "The top-level forms of FILE with their file positions, read as the compiler read them (the
packages IN-PACKAGE names, the standard readtable, no #.): an error when that is not possible."
  (let ((*package* (find-package "COMMON-LISP-USER"))
        (*readtable* (copy-readtable nil))
        (*read-eval* nil)
        (forms '()))
    (with-open-file (in file)
      (loop for position = (file-position in)
            for form = (read in nil in)
            until (eq form in)
            do (push (cons form position) forms)
               (when (and (consp form) (eq (first form) 'in-package))
                 (setf *package* (or (find-package (second form))
                                     (error "Its package ~A does not exist." (second form)))))))
    (nreverse forms)))

(defun swap-plan (file)
  "(values PROBLEM DEFPARAMETERS NAMES) for FILE (a LIBRARY-FILE): PROBLEM says why it cannot
be loaded natively in this engine."
  (let ((names (list '())) (defparameters (list '())))
    (handler-case
        (dolist (entry (read-top-level-forms (library-file-source file))
                       (values nil (car defparameters) (car names)))
          (let ((operator (unsafe-form-reason (car entry) names defparameters)))
            (when operator
              (return (values (format nil "Its top-level form (~A ...) at line ~D would run again: native from the next engine start."
                                      operator (or (line-of-offset (library-file-source file) (cdr entry)) "?"))
                              nil nil)))))
      (error (condition)
        (values (format nil "It could not be read or looked at here (~A): native from the next engine start."
                        (one-line (condition-message condition)))
                nil nil)))))

(defun swap-candidate-p (file)
  "True when FILE runs as bytecode and waits for no swap (the swap marks a file done and drops
it under the same lock)."
  (mp:with-lock (*swap-lock*)
    (and (eq (library-file-state file) :bytecode)
         (not (find file *pending-swaps* :key #'first)))))

(defun swaps-pending-p (system)
  (mp:with-lock (*swap-lock*)
    (and (find system *pending-swaps* :key (lambda (entry) (library-file-system (first entry))) :test #'string=) t)))

(defun library-compiled-natively (library)
  "After LIBRARY's compiler process finished, or a load brought its bytecode in again with its
native files current: its bytecode files not yet planned are planned for the swap; those that
cannot be swapped say why. Under the libraries' lock, so that a load marking files bytecode
again (NOTE-BYTECODE-LOAD) sees the library compiling, whose end plans them, or planned, and
plans them itself (LIBRARIES-LOADED)."
  (let ((planned 0))
    (mp:with-lock (*library-lock*)
      (dolist (file (library-files-of (library-name library)))
        (when (swap-candidate-p file)
          (cond ((not (probe-file (library-file-native file)))
                 (setf (library-file-state file) :deferred
                       (library-file-reason file) "Its native file is not in ASDF's cache."))
                (t
                 (multiple-value-bind (problem defparameters names) (swap-plan file)
                   (if problem
                       (setf (library-file-state file) :deferred
                             (library-file-reason file) problem)
                       (progn
                         (incf planned)
                         (mp:with-lock (*swap-lock*)
                           (setf *pending-swaps* (append *pending-swaps* (list (list file defparameters names))))))))))))
      ;; Files of it still waiting for the swap (planned now or before): the swap's last turn
      ;; for it says what it is.
      (if (swaps-pending-p (library-name library))
          (set-library-state library :swapping)
          (finish-library-swap library)))
    (when (plusp planned)
      (%expect-worker-posts t)
      (%post-worker-request "library-swap"))))

(defun finish-library-swap (library)
  "LIBRARY's state once none of its files waits for the swap."
  (let* ((files (library-files-of (library-name library)))
         (left (remove :native files :key #'library-file-state)))
    (if (null left)
        (set-library-state library :native)
        (set-library-state library :partial
                           (format nil "~D of ~D files run natively; ~D ~A bytecode until the next engine start (~A: ~A)."
                                   (- (length files) (length left)) (length files) (length left)
                                   (if (= 1 (length left)) "stays" "stay")
                                   (file-namestring (library-file-source (first left)))
                                   (string-right-trim "." (or (library-file-reason (first left)) "")))))))

;;; The swap of one file, on the worker.

(defun own-definition-p (function source)
  "True when FUNCTION is the one SOURCE defined (not one the session made since)."
  (let ((file (ignore-errors (ext:compiled-function-file function))))
    (and file (string= (namestring file) source))))

(defun redefined-since (names source)
  "((NAME KIND . DEFINITION) ...) for the functions and macros of NAMES whose definition is no
longer the one SOURCE made: the session's own, to be put back after the load."
  (loop for name in names
        for macro = (and (symbolp name) (macro-function name))
        for function = (or macro (and (ignore-errors (fboundp name)) (fdefinition name)))
        when (and function (not (own-definition-p function source)))
          collect (list* name (if macro :macro :function) function)))

(defun swap-file (file defparameters names)
  "Loads FILE's native .fas over its bytecode; puts back its DEFPARAMETER values and the
session's redefinitions. Returns NIL, or why it failed."
  (let* ((source (library-file-source file))
         (kept (loop for name in defparameters
                     when (boundp name) collect (cons name (symbol-value name))))
         (redefined (redefined-since names source))
         (problem nil))
    (let ((*noting-definitions* nil)
          (*standard-output* (make-broadcast-stream))
          (*error-output* (make-broadcast-stream))
          (*load-verbose* nil) (*load-print* nil)
          (*package* (find-package "COMMON-LISP-USER")))
      (handler-case (handler-bind ((warning #'muffle-warning))
                      (load (library-file-native file)))
        (serious-condition (condition)
          (setf problem (format nil "Loading its native file failed (~A): it may run partly native." (one-line (condition-message condition))))))
      (loop for (name . value) in kept do (setf (symbol-value name) value))
      (loop for (name kind . definition) in redefined
            do (if (eq kind :macro)
                   (setf (macro-function name) definition)
                   (setf (fdefinition name) definition))))
    problem))

(defconstant +swap-turn-us+ 30000 "A turn swaps files for about this long, then lets requests in.")

(defun library-swap-op (request)
  "library-swap (the engine's own request): swaps the next planned files, then posts itself
again while files are left."
  (declare (ignore request))
  (let ((start (%monotonic-us)) (touched '()))
    (loop for next = (mp:with-lock (*swap-lock*) (first *pending-swaps*))
          while next
          do (destructuring-bind (file defparameters names) next
               (let ((problem (swap-file file defparameters names)))
                 (mp:with-lock (*swap-lock*)
                   (setf (library-file-state file) (if problem :failed :native)
                         (library-file-reason file) problem
                         *pending-swaps* (remove next *pending-swaps* :count 1)))
                 (pushnew (library-file-system file) touched :test #'string=)))
          until (> (- (%monotonic-us) start) +swap-turn-us+))
    (let ((left (mp:with-lock (*swap-lock*) (mapcar (lambda (entry) (library-file-system (first entry))) *pending-swaps*))))
      (dolist (name touched)
        (let ((library (mp:with-lock (*library-lock*) (gethash name *libraries*))))
          ;; Queued again meanwhile (loaded again, a source changed): its compile's end says.
          (when (and library (not (member (library-state library) '(:queued :compiling)))
                     (not (member name left :test #'string=)))
            (finish-library-swap library))))
      (when touched (apply #'send-libraries-event touched))
      (cond (left (%post-worker-request "library-swap"))
            ((mp:with-lock (*library-lock*) (and (null *library-queue*)
                                                 (notany (lambda (library) (member (library-state library) '(:compiling :swapping)))
                                                         (loop for library being the hash-values of *libraries* collect library))))
             (%expect-worker-posts nil)))))
  nil)

(define-operation "library-swap" :worker #'library-swap-op)

;;;; Native code for the session's definitions, part 5: a native version means what the
;;;; bytecode means. ECL's bytecodes compiler and its native compiler take different things
;;;; in, at different times (issue 41): the bytecode expands macros, symbol macros and setf
;;;; expanders when the definition is made, and looks types, constants and functions up at
;;;; each call; native code expands everything when it is compiled (a moment later, in the
;;;; background) and also takes in types, constants, inline functions and compiler macros.
;;;; So:
;;;; - the expansions the worker made while the job that defined it ran are recorded
;;;;   (RECORDING-EXPAND-HOOK, jobs.lisp), and its native version is compiled with those very
;;;;   expansions (EXPAND-NOTING, native-compiler.lisp): a macro changed since, or one whose
;;;;   expander reads something that changed, makes no difference;
;;;; - a change of what the bytecode took in, made between a definition and its translation,
;;;;   that the translation needs anew (a special declaration; an expansion not recorded)
;;;;   leaves the definition interpreted, with the reason (BAKED-CHANGE-REASON);
;;;; - a change of what native code took in and the bytecode looks up (a type, a constant, an
;;;;   inline function) sends the native versions that may have taken it in back to their
;;;;   bytecode at once, and queues them to be compiled again (NOTE-LATE-CHANGE);
;;;; - the session's compiler macros are not applied (the bytecode never applies them);
;;;; - declarations: native code checks the types a definition declares, where the
;;;;   interpreter ignores them; the definition's notes say so from the moment it is made;
;;;; - at (SAFETY 0) native code checks nothing: such a definition stays interpreted, unless
;;;;   the person compiles it themselves (COMPILE);
;;;; - a wrapper (TRACE's, or a closure around the function it replaced) is not a
;;;;   definition: it is never compiled, a native version is never swapped in over it, and
;;;;   what UNTRACE puts back is compiled as it would have been;
;;;; - FUNCTION-LAMBDA-EXPRESSION of a native version answers with its definition, and an
;;;;   argument-count error in one names the function and has its frame.

(in-package "LISP-DUET.KERNEL")

(defparameter *baked-kinds* '(:macro :symbol-macro :setf-expander :special)
  "Changes the bytecode took in when the definition was made.")
(defparameter *late-kinds* '(:type :constant :inline)
  "Changes the bytecode sees at each call, and native code only when it is compiled.")

(defvar *session-compiler-macros* '() "Names the session defined a compiler macro for.")
(defvar *installing-wrapper* nil "True while TRACE or UNTRACE install or remove their wrappers.")
(defvar *dependents* (make-hash-table :test #'eq)
  "Symbol -> the native entries whose native version may have taken it in (under *NATIVE-LOCK*).")
(defvar *dependents-of-everything* '()
  "Native entries too big to list what they took in: any late change sends them back.")
(defconstant +dependency-symbols-limit+ 400)

;;; The hooks: ECL functions the defining macros' expansions call, which bytecode calls
;;; through their symbols (so a wrapper around each sees the session's definitions).

(defvar *meaning-hooks* '() "(SYMBOL . ORIGINAL-FUNCTION) of each function wrapped here.")

(defun original-of (symbol)
  (cdr (assoc symbol *meaning-hooks* :test #'eq)))

(defun hook-function (symbol replacement)
  (unless (assoc symbol *meaning-hooks* :test #'eq)
    (let ((original (fdefinition symbol)))
      (push (cons symbol original) *meaning-hooks*)
      (let ((si::*ignore-package-locks* t))
        (setf (fdefinition symbol) replacement)))))

(defun put-sysprop-noting (symbol key value)
  (multiple-value-prog1 (funcall (original-of 'si:put-sysprop) symbol key value)
    (when (and (symbolp symbol) (noting-p))
      (cond ((eq key 'si::symbol-macro) (note-change :symbol-macro (list symbol)))
            ((eq key 'compiler-macro) (pushnew symbol *session-compiler-macros*))
            ((eq key 'inline) (note-late-change :inline (list symbol)))))))

(defun deftype-noting (name &rest more)
  (multiple-value-prog1 (apply (original-of 'si::do-deftype) name more)
    (when (noting-p) (note-late-change :type (list name)))))

(defun defsetf-noting (access-function &rest more)
  (multiple-value-prog1 (apply (original-of 'si::do-defsetf) access-function more)
    (when (noting-p) (note-change :setf-expander (list access-function)))))

(defun define-setf-method-noting (access-function &rest more)
  (multiple-value-prog1 (apply (original-of 'si::do-define-setf-method) access-function more)
    (when (noting-p) (note-change :setf-expander (list access-function)))))

(defun structure-names (name conc-name slot-descriptions more)
  "The names a DEFSTRUCT of NAME defines: the type, its accessors and its other functions."
  (let ((names (list name)))
    (dolist (slot slot-descriptions)
      (when (and (consp slot) (symbolp (first slot)) (first slot))
        (let ((accessor (concatenate 'string (string (or conc-name "")) (symbol-name (first slot)))))
          (dolist (package (list (symbol-package name) *package*))
            (let ((symbol (and package (find-symbol accessor package))))
              (when symbol (pushnew symbol names)))))))
    (labels ((walk (x) (cond ((and (symbolp x) x (not (keywordp x))) (pushnew x names))
                             ((consp x) (walk (car x)) (walk (cdr x))))))
      (walk more))
    names))

(defun define-structure-noting (name conc-name type named slots slot-descriptions &rest more)
  (multiple-value-prog1 (apply (original-of 'si::define-structure)
                               name conc-name type named slots slot-descriptions more)
    (when (and (symbolp name) (noting-p))
      (note-late-change :type (structure-names name conc-name slot-descriptions more)))))

(defun make-constant-noting (symbol value)
  (let ((before (and (symbolp symbol) (boundp symbol) (constantp symbol) (list (symbol-value symbol)))))
    (multiple-value-prog1 (funcall (original-of 'si:*make-constant) symbol value)
      (when (and before (not (eql (first before) value)) (noting-p))
        (note-late-change :constant (list symbol))))))

(defun trace-noting (specifications)
  (let ((*installing-wrapper* t))
    (funcall (original-of 'si::trace*) specifications)))

(defun untrace-noting (names)
  (let ((names (or names (mapcar #'first si::*trace-list*))))
    (multiple-value-prog1 (let ((*installing-wrapper* t))
                            (funcall (original-of 'si::untrace*) names))
      ;; What UNTRACE put back is compiled, if TRACE had kept it from being compiled.
      (when (noting-p)
        (dolist (name names)
          (when (fboundp name)
            (requeue-restored :function name (fdefinition name))))))))

(defun function-lambda-expression-answering (function)
  "FUNCTION-LAMBDA-EXPRESSION, which for a native version the background compiler made
answers with its definition (ECL answers NIL for compiled functions)."
  (funcall (original-of 'function-lambda-expression) (or (bytecode-of-native function) function)))

(defun install-meaning-hooks ()
  "At boot, from INSTALL-DEFINITION-HOOKS."
  (hook-function 'si:put-sysprop #'put-sysprop-noting)
  (hook-function 'si::do-deftype #'deftype-noting)
  (hook-function 'si::do-defsetf #'defsetf-noting)
  (hook-function 'si::do-define-setf-method #'define-setf-method-noting)
  (hook-function 'si::define-structure #'define-structure-noting)
  (hook-function 'si:*make-constant #'make-constant-noting)
  (hook-function 'si::trace* #'trace-noting)
  (hook-function 'si::untrace* #'untrace-noting)
  (hook-function 'function-lambda-expression #'function-lambda-expression-answering))

;;; Looking at a definition's source.

(defun closure-with-environment-p (function)
  "True for a bytecoded closure that closes over something."
  (and (functionp function) (ignore-errors (si::bc-split function)) t))

(defun walk-tree (function tree &optional (budget 20000))
  "Calls FUNCTION on every cons of TREE (at most BUDGET of them); false when TREE was too big."
  (let ((left budget))
    (labels ((walk (x)
               (loop while (consp x)
                     do (when (minusp (decf left)) (return-from walk-tree nil))
                        (funcall function x)
                        (walk (car x))
                        (setf x (cdr x)))))
      (walk tree)
      t)))

(defun type-declaration-p (specification)
  "True for a declaration specifier that declares a type: (TYPE ...), or a type's name."
  (let ((head (car specification)))
    (or (eq head 'type)
        (consp head)
        (and (symbolp head)
             (not (member head '(ignore ignorable optimize special dynamic-extent inline notinline
                                 declaration ftype values)))
             (not (eq (symbol-package head) (load-time-value (find-package "SI"))))
             (ignore-errors (values (subtypep head t)))))))

(defun declared-types-note (function)
  "For a bytecoded FUNCTION whose source declares types (DECLARE, THE): the note that its
native version checks them, where the interpreter does not. NIL when it declares none."
  (let ((types '()))
    (ignore-errors
     (walk-tree (lambda (form)
                  (case (car form)
                    (declare
                     (dolist (specification (cdr form))
                       (when (and (consp specification) (type-declaration-p specification))
                         (pushnew (if (eq (car specification) 'type) (second specification) (car specification))
                                  types :test #'equal))))
                    (the (when (consp (cdr form)) (pushnew (second form) types :test #'equal)))))
                (function-lambda-expression function)
                5000))
    (when types
      (let ((*package* *session-package*))
        (format nil "Its native version checks the types it declares (~{~A~^, ~}): the interpreter ignores declarations, so a call with a value of another type that answers now signals TYPE-ERROR once it runs native."
                (mapcar #'brief (reverse (last types 4))))))))

(defun safety-zero-p (tree)
  (not (walk-tree (lambda (form)
                    (when (and (eq (car form) 'safety) (consp (cdr form)) (eql (second form) 0))
                      (return-from safety-zero-p t)))
                  tree)))

(defun unsafe-policy-reason (entry lambda-expression)
  "Why ENTRY must not be compiled: (SAFETY 0), proclaimed or declared in it. NIL otherwise."
  (when (or (eql 0 (second (assoc 'safety (native-entry-policy entry))))
            (safety-zero-p lambda-expression))
    (unsafe-reason entry)))

(defun unsafe-reason (entry)
  (let ((*package* *session-package*))
    (format nil "It is compiled at (SAFETY 0): native code would check nothing, and a wrong call could answer garbage or end the session where the interpreter signals an error. It stays interpreted~:[~*~;; (compile '~A) makes it native anyway~]."
            (eq (native-entry-kind entry) :function) (brief (native-entry-name entry)))))

(defun session-compiler-macro-names ()
  (remove-if-not #'compiler-macro-function *session-compiler-macros*))

;;; After the translation: changes the bytecode had taken in.

(defun change-text (kind name)
  (let ((*package* *session-package*))
    (format nil "~A ~A" (ecase kind
                          (:macro "the macro") (:symbol-macro "the symbol macro")
                          (:setf-expander "the SETF expander of") (:special "the special declaration of")
                          (:type "the type") (:constant "the constant") (:inline "the inline function"))
            (brief name))))

(defun baked-change-reason (entry finding)
  "Why ENTRY's native version would not mean what its bytecode means: something it used,
which the bytecode took in when the definition was made, changed before its translation
(FINDING: what the translation expanded). NIL when nothing did."
  (let* ((lambda-expression (function-lambda-expression (native-entry-function entry)))
         (forms (finding-forms finding))
         (changes (changes-since (native-entry-generation entry) *baked-kinds*)))
    (cond ((eq changes :unknown)
           "Too many macros, symbol macros, SETF expanders or special declarations changed after this definition to tell whether it uses one. It stays interpreted; evaluate the definition again to compile it.")
          ((safety-zero-p forms) (unsafe-reason entry))
          (t
           (loop for (kind . name) in changes
                 when (case kind
                        ;; Expanded anew (not as the bytecode expanded it: replayed ones are).
                        ((:macro :symbol-macro) (member name (finding-expanded finding) :test #'eq))
                        (:setf-expander (tree-contains-p forms (list name)))
                        (t (or (tree-contains-p lambda-expression (list name))
                               (tree-contains-p forms (list name)))))
                   return (format nil "~A changed after this definition: compiled now, its native version would use the new one where the bytecode uses the old. It stays interpreted; evaluate the definition again to compile it."
                                  (capitalized (change-text kind name))))))))

(defun capitalized (text)
  (if (plusp (length text)) (concatenate 'string (string-upcase (subseq text 0 1)) (subseq text 1)) text))

;;; What a native version may have taken in, and the changes of it.

(defun system-symbol-package-p (package)
  (member package (load-time-value (mapcar #'find-package '("COMMON-LISP" "KEYWORD" "LISP-DUET.KERNEL")))))

(defun dependency-symbols (entry finding)
  "The symbols ENTRY's source and expansions name (but CL's and keywords), or :ALL when there
are too many to list."
  (let ((symbols '()) (count 0))
    (flet ((note (x)
             (when (and (symbolp x) x (not (system-symbol-package-p (symbol-package x)))
                        (not (member x symbols :test #'eq)))
               (when (> (incf count) +dependency-symbols-limit+)
                 (return-from dependency-symbols :all))
               (push x symbols))))
      (unless (and (walk-tree (lambda (cons) (note (car cons)) (note (cdr cons)))
                              (list (function-lambda-expression (native-entry-function entry))
                                    (finding-forms finding)))
                   t)
        (return-from dependency-symbols :all))
      symbols)))

(defun index-dependencies (entry symbols)
  "Under *NATIVE-LOCK*: ENTRY is found by a late change of any of SYMBOLS."
  (setf (native-entry-dependencies entry) symbols)
  (flet ((live (list) (delete-if-not (lambda (e) (and (member (native-entry-state e) '(:compiling :native))
                                                      (current-entry-p-unlocked e)))
                                     list)))
    (if (eq symbols :all)
        (push entry *dependents-of-everything*)
        (dolist (symbol symbols)
          (setf (gethash symbol *dependents*) (cons entry (live (gethash symbol *dependents*))))))
    (setf *dependents-of-everything* (live *dependents-of-everything*))))

(defun current-entry-p-unlocked (entry)
  (eq entry (gethash (native-entry-key entry) *native-records*)))

(defun dependents-of (names)
  (mp:with-lock (*native-lock*)
    (let ((found (copy-list *dependents-of-everything*)))
      (dolist (name names found)
        (dolist (entry (gethash name *dependents*))
          (pushnew entry found))))))

(defun late-change-since-translation (entry)
  "A late change (type, constant, inline function) made since ENTRY's translation began that
its native version may have taken in: (KIND . NAME), :UNKNOWN, or NIL."
  (let ((changes (changes-since (native-entry-translated entry) *late-kinds*))
        (symbols (native-entry-dependencies entry)))
    (if (eq changes :unknown)
        (cons :type :unknown)
        (find-if (lambda (change) (or (eq symbols :all) (member (cdr change) symbols :test #'eq)))
                 changes))))

(defun late-change-note (change)
  (if (eq (cdr change) :unknown)
      "Compiled again: types, constants or inline functions changed since it was compiled."
      (format nil "Compiled again: ~A changed since it was compiled." (change-text (car change) (cdr change)))))

(defun note-late-change (kind names)
  "On the worker: NAMES changed in KIND. Every native version that may have taken one of
them in goes back to its bytecode now, before the job goes on, and is compiled again."
  (note-change kind names)
  (dolist (entry (dependents-of names))
    (when (eq (native-entry-state entry) :native)
      (revert-native-entry entry (late-change-note (cons kind (first names)))))))

(defun revert-native-entry (entry note)
  "Puts ENTRY's bytecode back where its native version is, if it still is there, and queues
the definition to be compiled again. True when it did."
  (let ((native (native-entry-native entry))
        (bytecode (native-entry-function entry))
        (name (native-entry-name entry)))
    (when (ecase (native-entry-kind entry)
            ((:function :macro)
             (or (swap-function native bytecode name)
                 ;; Traced since: UNTRACE is to put the bytecode back, not the native version.
                 (let ((record (and (eq (native-entry-kind entry) :function)
                                    (find name si::*trace-list* :key #'first :test #'equal))))
                   (when (and record (eq (third record) native))
                     (setf (third record) bytecode)
                     t))))
            (:method
             (let ((method (native-entry-method entry))
                   (installed (native-entry-installed entry)))
               (when (eq (mp:compare-and-swap (slot-value method 'clos::the-function) installed
                                              (native-entry-original entry))
                         installed)
                 (let ((generic (clos:method-generic-function method)))
                   (when generic
                     (si:clear-gfun-hash generic)
                     (forget-native-dispatch generic)))
                 (setf (native-entry-installed entry) (native-entry-original entry))
                 t))))
      (finish-entry entry :superseded "Back to its bytecode: something its native version took in changed; compiled again.")
      (requeue-entry entry note)
      t)))

(defun requeue-entry (entry note)
  "Queues ENTRY's definition again, as made when it was (its generation, package, policy)."
  (let ((new (make-native-entry :kind (native-entry-kind entry) :name (native-entry-name entry)
                                :function (native-entry-function entry)
                                :installed (if (eq (native-entry-kind entry) :method)
                                               (native-entry-installed entry)
                                               (native-entry-function entry))
                                :method (native-entry-method entry)
                                :package (native-entry-package entry)
                                :readtable (native-entry-readtable entry)
                                :policy (native-entry-policy entry)
                                :generation (native-entry-generation entry)
                                :job (native-entry-job entry)
                                :defined-at (%monotonic-us) :since (%wall-clock-ms)
                                :notes (list note))))
    (queue-native-entry new)
    (unless (on-worker-p) (send-native-event (list new)))
    new))

(defun settle-compiled-entry (entry function reason notes finding)
  "What becomes of ENTRY once its batch was compiled (FUNCTION its native version, or NIL
and REASON): ENTRY, finished."
  (setf (native-entry-notes entry) (append (native-entry-notes entry) notes))
  (let ((baked (and function (baked-change-reason entry finding))))
    (cond ((null function) (finish-entry entry :interpreted (or reason "It did not compile.")))
          (baked (finish-entry entry :interpreted baked))
          (t
           (mp:with-lock (*native-lock*)
             (index-dependencies entry (dependency-symbols entry finding)))
           (let ((late (late-change-since-translation entry)))
             (cond (late
                    (finish-entry entry :superseded "Something its native version took in changed while it compiled; compiled again.")
                    (requeue-entry entry (late-change-note late))
                    entry)
                   ((swap-in entry function)
                    (finish-entry entry :native)
                    ;; A change made while it was swapped in (the worker found it not native yet).
                    (let ((late (late-change-since-translation entry)))
                      (when late (revert-native-entry entry (late-change-note late))))
                    entry)
                   ((wrapped-entry-p entry) (finish-wrapped-entry entry))
                   (t (finish-entry entry :superseded "A newer definition replaced it while it compiled."))))))))

;;; Wrappers.

(defun wraps-p (wrapper function)
  "True when WRAPPER, a bytecoded closure, closes over FUNCTION (advice: a wrapper that calls
the function it replaced)."
  (and (functionp function) (closure-with-environment-p wrapper)
       (let ((environment (nth-value 1 (funcall (original-of 'function-lambda-expression) wrapper))))
         (and (listp environment)
              (some (lambda (record) (and (consp record) (eq (cdr record) function))) environment)))))

(defun note-function-installed (kind name definition previous)
  "From the SI:FSET hook: DEFINITION is now NAME's function (or macro). A wrapper TRACE
installs, or one around the function that was there (PREVIOUS), is not queued; the function a
wrapper kept from its native version, put back, is queued again; anything else is a new
definition."
  (cond (*installing-wrapper* nil)
        ((and (eq kind :function) (wraps-p definition previous)) nil)
        ((requeue-restored kind name definition) nil)
        (t (note-native-definition kind name definition definition nil))))

(defun wrapped-entry-p (entry)
  "True when ENTRY's definition is not in place because a wrapper around it is: TRACE's, or a
closure over it."
  (and (eq (native-entry-kind entry) :function)
       (let* ((name (native-entry-name entry))
              (installed (native-entry-installed entry))
              (now (ignore-errors (fdefinition name))))
         (or (eq (si::traced-old-definition name) installed)
             (wraps-p now installed)))))

(defun finish-wrapped-entry (entry)
  (setf (native-entry-wrapped entry) t)
  (finish-entry entry :superseded "It was traced or wrapped before its native version was ready: the wrapper stays as it is, and what it wraps is compiled once the wrapper is taken away (UNTRACE)."))

(defun requeue-restored (kind name definition)
  "When DEFINITION is the function of NAME's newest entry, which a wrapper kept from being
compiled, queues it again; true then."
  (let ((entry (native-record kind name)))
    (when (and entry (native-entry-wrapped entry) (eq (native-entry-state entry) :superseded)
               (eq (native-entry-function entry) definition))
      (setf (native-entry-wrapped entry) nil)
      (requeue-entry entry "Compiled now: the wrapper that kept it from being compiled was taken away."))))

;;; What ECL's compiled code says of itself.

(defun bytecode-of-native (function)
  "The bytecoded definition FUNCTION is the native version of, or NIL."
  (when (and (functionp function) (not (bytecoded-p function)))
    (let ((name (ignore-errors (si::compiled-function-name function))))
      (when name
        (dolist (kind '(:function :macro))
          (let ((entry (native-record kind name)))
            (when (and entry (eq (native-entry-native entry) function))
              (return (native-entry-function entry)))))))))

(defconstant +anonymous-argument-error+ "FEwrong_num_arguments_anonym();")

(defun name-argument-count-errors (c-file)
  "ECL's compiled code reports a wrong number of arguments as passed to \"an anonymous
function\", before the function's frame exists. In the C of a batch compiled at (DEBUG 3),
each such report becomes one that pushes the function's frame and names it, as the
interpreter's does."
  (let ((lines (with-open-file (in c-file) (loop for line = (read-line in nil) while line collect line)))
        (pending '())
        (changed nil))
    (loop for cell on lines
          for line = (car cell)
          do (cond ((and (plusp (length line)) (not (member (char line 0) '(#\Space #\Tab))))
                    (setf pending '())) ; a new top-level C definition
                   ((search +anonymous-argument-error+ line)
                    (push cell pending))
                   (t
                    (let* ((push (search "ecl_ihs_push(cl_env_copy,&ihs," line))
                           (start (and push (+ push (length "ecl_ihs_push(cl_env_copy,&ihs,"))))
                           (end (and start (position #\, line :start start))))
                      (when (and end pending)
                        (let ((name (subseq line start end)))
                          (dolist (pending-cell pending)
                            (let* ((text (car pending-cell))
                                   (at (search +anonymous-argument-error+ text)))
                              (setf (car pending-cell)
                                    (concatenate 'string (subseq text 0 at)
                                                 "{ecl_ihs_push(cl_env_copy,&ihs," name ",ECL_NIL);FEwrong_num_arguments(" name ");}"
                                                 (subseq text (+ at (length +anonymous-argument-error+)))))))
                          (setf pending '() changed t)))))))
    (when changed
      (with-open-file (out c-file :direction :output :if-exists :supersede)
        (dolist (line lines) (write-line line out))))))

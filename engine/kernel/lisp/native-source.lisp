;;;; Native code for the session's definitions (issue 30), part 1: noticing definitions and
;;;; saying what to compile. ECL's EVAL runs its bytecodes compiler, DEFUN bodies included;
;;;; the worker keeps doing that (a definition works at once), and every global function,
;;;; macro expander or method the session's jobs define on the worker is noted here, to be
;;;; compiled to native code in the background (native-compiler.lisp) and swapped in
;;;; (native.lisp).
;;;;
;;;; Definitions are noticed where they land, not by reading forms: bytecode calls SI:FSET
;;;; (DEFUN, DEFMACRO, (SETF FDEFINITION), a DEFUN inside LET or inside a user's macro) and
;;;; CLOS::INSTALL-METHOD (DEFMETHOD, DEFGENERIC's :METHOD) through their symbols, so a
;;;; wrapper around each sees every one. Natively compiled code (a library ASDF compiled, the
;;;; kernel) calls the C functions directly and is never noted: it is native already.
;;;;
;;;; What is compiled is the definition's own lambda expression (FUNCTION-LAMBDA-EXPRESSION of
;;;; the bytecoded function), in memory: COMPILE's way of keeping constants as the very
;;;; objects, never printed and read back. A closure (a DEFUN inside LET) is compiled with its
;;;; environment: each closed-over variable becomes a symbol macro for the binding's own cell
;;;; in the bytecoded closure's environment, so the native function and the closures that
;;;; share the binding go on sharing it. (ECL's COMPILE copies the values instead: the code
;;;; it makes no longer sees the other closures' changes.)

(in-package "LISP-DUET.KERNEL")

;;; What a definition's meaning depends on beyond its own text, as the session changes it
;;; (native-meaning.lisp says what each change does to the definitions it concerns):
;;; - what the bytecodes compiler used when it made the definition and the native compiler
;;;   would see anew (:MACRO, :SYMBOL-MACRO, :SETF-EXPANDER, :SPECIAL): a definition made
;;;   before such a change is left interpreted rather than compiled against the new state;
;;; - what the bytecode looks up at each call and native code takes in when it is compiled
;;;   (:TYPE, :CONSTANT, :INLINE): a native version made before such a change goes back to
;;;   its bytecode at once, and is compiled again.
;;; One record of changes, numbered by generation; each definition keeps the generation it
;;; was made at.

(defvar *change-generation* 0 "Counts the changes the session made to what definitions mean.")
(defvar *changes* '() "(GENERATION KIND . NAMES) of each change, newest first.")
(defvar *changes-count* 0)
(defvar *changes-lock* (mp:make-lock :name "lisp-duet meaning changes"))
(defconstant +changes-kept+ 1000)

(defun note-change (kind names)
  "Records that NAMES changed in KIND; the change's generation."
  (mp:with-lock (*changes-lock*)
    (let ((generation (incf *change-generation*)))
      (push (list* generation kind names) *changes*)
      (when (> (incf *changes-count*) (* 2 +changes-kept+))
        (setf *changes* (subseq *changes* 0 +changes-kept+)
              *changes-count* +changes-kept+))
      generation)))

(defun changes-since (generation kinds)
  "The changes of KINDS made after GENERATION, as ((KIND . NAME) ...), newest first; :UNKNOWN
when the record no longer reaches back that far."
  (mp:with-lock (*changes-lock*)
    (let ((found '()) (oldest nil))
      (loop for (changed kind . names) in *changes*
            while (> changed generation)
            do (setf oldest changed)
               (when (member kind kinds)
                 (dolist (name names) (push (cons kind name) found))))
      (if (or (= generation *change-generation*) (and oldest (<= oldest (1+ generation))))
          (nreverse found)
          :unknown))))

(defvar *person-policy* '()
  "The OPTIMIZE qualities the session proclaimed, as ((QUALITY LEVEL) ...), newest first per
quality. Each definition keeps the list in force when it was made.")
(defvar *session-proclamations* '()
  "Every other proclamation the session made (INLINE, FTYPE, TYPE...), oldest first: ECL's
PROCLAIM drops all but SPECIAL until the native compiler is loaded, so they are given to the
compiler again once it is (REPLAY-PROCLAMATIONS).")

(defun note-proclamation (specification)
  "Called with each proclamation the worker makes while a session job runs."
  (when (and (consp specification) (noting-p))
    (case (first specification)
      (optimize
       (dolist (quality (rest specification))
         (let ((entry (if (consp quality) quality (list quality 3))))
           (when (symbolp (first entry))
             (setf *person-policy*
                   (cons entry (remove (first entry) *person-policy* :key #'first)))))))
      (special
       (dolist (symbol (rest specification))
         (when (symbolp symbol) (note-change :special (list symbol)))))
      (t
       (setf *session-proclamations*
             (append *session-proclamations* (list (copy-tree specification))))))))

;;; The hooks. Each wraps an ECL function that bytecode calls through its symbol; the wrapper
;;; does what the original does, with the same arguments, and then notes what was defined.
;;; They note only on the worker, while native compilation is on.

(defvar *original-fset* nil)
(defvar *original-install-method* nil)
(defvar *original-make-special* nil)
(defvar *original-proclaim* nil)
(defvar *proclaim-wrapper* nil)

(defun noting-p ()
  (and *noting-definitions* (on-worker-p)))

(defun fset-noting (name definition &rest more)
  (if (not (noting-p))
      (apply *original-fset* name definition more)
      ;; What was there, when the new function may be a wrapper around it (native-meaning.lisp).
      (let ((previous (and (closure-with-environment-p definition) (ignore-errors (fdefinition name)))))
        (multiple-value-prog1 (apply *original-fset* name definition more)
          (kernel-bookkeeping
            (let ((macro (first more)))
              (when macro (note-change :macro (list name)))
              ;; While COMPILE-FILE runs (the editor's C-c C-k, or the person's), ECL defines the
              ;; file's macros for its own use as it goes: not a definition to compile (it has no
              ;; lambda expression of its own); the fasl's load defines the native one.
              (if *compile-file-truename*
                  (when macro (note-compile-time-macro name definition))
                  (note-function-installed (if macro :macro :function) name definition previous))))))))

(defvar *compile-time-macros* (make-hash-table :test #'equal)
  "Macro name -> (function . file): what COMPILE-FILE defined for its own use, until the
compiled file's load defines the native one. Until then the macro runs interpreted, and the
reason is that the file was compiled and not loaded (the editor's C-c M-k), not anything the
native compiler did.")

(defun note-compile-time-macro (name definition)
  (setf (gethash name *compile-time-macros*)
        (cons definition (ignore-errors (file-namestring *compile-file-truename*)))))

(defun compile-time-macro-reason (name function)
  "Why NAME's macro FUNCTION runs interpreted when COMPILE-FILE defined it and its compiled
file was not loaded since; else NIL."
  (let ((entry (gethash name *compile-time-macros*)))
    (when (and entry (eq (car entry) function))
      (format nil "COMPILE-FILE defined it for its own use while it compiled ~A, and the compiled file was not loaded: load it (C-c C-k in the editor, or LOAD of the fasl) to run its native version."
              (or (cdr entry) "its file")))))

(defvar *uncompiled-methods* (make-hash-table :test #'eq)
  "Methods the session defined while native compilation was off: they run interpreted.")

(defvar *bytecoded-methods* (make-hash-table :test #'eq :weakness :key)
  "Methods installed with a bytecoded function that the session's native compiler does not
look after: a library file loaded as bytecode (library-tiers.lisp). They run interpreted until
the library's native file is loaded, which installs new method objects.")

(defun install-method-noting (name qualifiers specializers lambda-list function &rest options)
  (let ((method (apply *original-install-method* name qualifiers specializers lambda-list
                       function options)))
    (if (noting-p)
        (kernel-bookkeeping
          (unless (note-native-definition :method name function
                                          (ignore-errors (clos:method-function method)) method)
            (when (bytecoded-definition-p function)
              (setf (gethash method *uncompiled-methods*) t))))
        (when (bytecoded-definition-p function)
          (setf (gethash method *bytecoded-methods*) t)))
    method))

(defun make-special-noting (symbol)
  (multiple-value-prog1 (funcall *original-make-special* symbol)
    (when (noting-p) (note-change :special (list symbol)))))

(defun proclaim-noting (specification)
  (multiple-value-prog1 (funcall *original-proclaim* specification)
    (ignore-errors (note-proclamation specification))))

(defun wrap-proclaim ()
  "Puts the recording wrapper around PROCLAIM, which loading ECL's native compiler replaces
with its own; then hands that compiler what the session proclaimed before it was loaded."
  (let ((current (fdefinition 'proclaim)))
    (unless (eq current *proclaim-wrapper*)
      (setf *original-proclaim* current
            *proclaim-wrapper* #'proclaim-noting)
      (let ((si::*ignore-package-locks* t))
        (setf (fdefinition 'proclaim) *proclaim-wrapper*))
      (replay-proclamations))))

(defun replay-proclamations ()
  (let ((*noting-definitions* nil))
    (dolist (specification *session-proclamations*)
      (ignore-errors (funcall *original-proclaim* specification)))
    (when *person-policy*
      (ignore-errors (funcall *original-proclaim* (cons 'optimize (reverse *person-policy*)))))))

(defun install-definition-hooks ()
  "At boot. SI and CLOS are not locked in ECL 21.2.1; CL is (PROCLAIM)."
  (let ((si::*ignore-package-locks* t))
    (unless *original-fset*
      (setf *original-fset* (fdefinition 'si:fset))
      (setf (fdefinition 'si:fset) #'fset-noting))
    (unless *original-install-method*
      (setf *original-install-method* (fdefinition 'clos::install-method))
      (setf (fdefinition 'clos::install-method) #'install-method-noting))
    (unless *original-make-special*
      (setf *original-make-special* (fdefinition 'si::*make-special))
      (setf (fdefinition 'si::*make-special) #'make-special-noting))
    (install-meaning-hooks))
  (wrap-proclaim))

;;; A definition on its way to native code.

(define-record native-entry
  serial       ; a number of its own, increasing: the host matches states by it
  kind         ; :function, :macro or :method
  name         ; the name: a symbol or (SETF symbol); for a method its generic function's
  function     ; the bytecoded function the definition made (a method's body function)
  installed    ; what is swapped only while it is still in place: the function, or the
               ; method function CLOS wrapped around it
  method       ; the method, for methods
  package readtable policy ; *PACKAGE*, *READTABLE* and *PERSON-POLICY* when it was made
  generation   ; *CHANGE-GENERATION* when it was made
  translated   ; *CHANGE-GENERATION* when its translation to C began
  dependencies ; the symbols its native version may have taken in (types, constants, inline
               ; functions: native-meaning.lisp)
  original     ; for a method, its function before the native one was swapped in
  wrapped      ; true when a wrapper (TRACE...) took its place before it was compiled
  expansions   ; the cell of *RECORDED-EXPANSIONS* of the job that made it, until compiled
  job          ; the id of the job that made it
  defined-at   ; %MONOTONIC-US when it was made
  (state :queued) ; :queued, :compiling, :native, :interpreted, :superseded
  reason       ; why it stays interpreted
  notes        ; what the compiler remarked although it compiled
  since        ; %WALL-CLOCK-MS of its latest state
  after-ms     ; from the definition to its native version
  native       ; the native function (a method's: its generic function's dispatcher calls it)
  lean)        ; true when a method's native version needs no next methods

(defun bytecoded-definition-p (function)
  (and (functionp function) (bytecoded-p function)))

(defun tree-contains-p (tree items &optional (budget (list 200000)))
  "True when one of ITEMS (symbols) occurs in TREE, or when TREE is too big to tell."
  (labels ((walk (x)
             (cond ((minusp (decf (car budget))) (return-from tree-contains-p t))
                   ((symbolp x) (and x (member x items :test #'eq)))
                   ((consp x) (or (walk (car x)) (walk (cdr x))))
                   (t nil))))
    (walk tree)))

;;; The form to compile: the lambda expression inside its translated environment and the
;;; policy of the definition.

(defun compiler-policy (name level)
  "(NAME LEVEL) for one of the qualities ECL's compiler adds to OPTIMIZE (EXT:INLINE-ACCESSORS...).
Found when the compiler is loaded: named in this file, the symbol would be made in EXT at
start-up, before the compiler makes its own."
  (list (or (find-symbol name "EXT") (error "ECL's compiler has no policy ~A." name)) level))

(defparameter *native-debug-policy* '((debug 3))
  "What natively compiled definitions keep for the debugger unless the person proclaimed a
DEBUG quality: at (debug 3) each function pushes a frame with its arguments and locals (the
debugger's frames), as the project's systems do (systems.lisp). Measured against (debug 0)
in one run: fib 1.04x, tak 1.12x, a fixnum loop 1.04x, a list walk 1.0x, an AREF loop 1.21x
(tests/bench/README.md); turning ECL's inlining of accessors back on changed nothing.")

(defun environment-forms (environment lambda-expression)
  "(values wrappers problem): for the records of a bytecoded closure's lexical ENVIRONMENT
(innermost first), the forms that give its code (LAMBDA-EXPRESSION) the same names, each a
list whose last element is where the inner form goes."
  (let ((wrappers '()))
    (dolist (record environment (values (nreverse wrappers) nil))
      (cond ((functionp record)
             ;; FLET or LABELS around the definition: call the local function itself.
             (let ((name (ignore-errors (si::compiled-function-name record))))
               (when name
                 (push `(flet ((,name (&rest arguments) (apply ',record arguments)))) wrappers))))
            ((not (consp record)))
            ((eq (car record) 'si::macro)
             (let ((name (cddr record)) (expander (cadr record)))
               (if (and (symbolp name) (functionp expander))
                   ;; (FUNCALL 'OBJECT ...) would be read by ECL's compiler as a call of
                   ;; a function named OBJECT ("FUNCTION: Not a valid argument").
                   (push `(macrolet ((,name (&whole form &environment environment &rest arguments)
                                       (declare (ignore arguments))
                                       (funcall (car ',(list expander)) form environment))))
                         wrappers)
                   (return (values nil "It closes over a local macro ECL's record of which is not readable.")))))
            ((eq (car record) 'si::symbol-macro)
             (let ((name (cddr record)) (expander (cadr record)))
               (if (and (symbolp name) (functionp expander))
                   (push `(symbol-macrolet ((,name ,(funcall expander name nil)))) wrappers)
                   (return (values nil "It closes over a local symbol macro ECL's record of which is not readable.")))))
            ((and (symbolp (car record)) (car record))
             (let ((name (car record)))
               (cond ((and (eq name (cdr record)) (not (tree-contains-p lambda-expression (list name)))))
                     ((eq name (cdr record))
                      ;; A CATCH tag's record looks like this too: which is it?
                      (return (values nil (format nil "It closes over ~S, which may be a variable or a CATCH tag: left interpreted." name))))
                     ((or (si:specialp name) (constantp name))
                      (return (values nil (format nil "It closes over the variable ~S, which has since been declared special or constant." name))))
                     (t
                      ;; The binding's own cell: reads and SETQs reach what the other closures see.
                      (push `(symbol-macrolet ((,name (cdr ',record)))) wrappers)))))
            ;; Blocks and tags ((ID . NAME), the ID a number): code that returns to them from
            ;; inside the definition cannot be compiled apart from them; the compiler says so.
            (t nil)))))

(defun native-policy (person closure-p)
  "The OPTIMIZE qualities to compile with: ours for the debugger, then PERSON's (the session's
proclamations when the definition was made), which win."
  (append (if (assoc 'debug person) '() *native-debug-policy*)
          ;; A closure's cells are constants to the compiler: never fold (CDR 'CELL).
          (and closure-p (list (compiler-policy "EVALUATE-FORMS" 0)))
          (reverse person)))

(defun declared-notinline-p (name)
  "True when the session's latest INLINE or NOTINLINE proclamation naming NAME is NOTINLINE."
  (let ((latest nil))
    (dolist (specification *session-proclamations* (eq latest 'notinline))
      (when (and (member (first specification) '(inline notinline))
                 (member name (rest specification) :test #'equal))
        (setf latest (first specification))))))

(defun self-calling-form (name lambda-expression keep-frames)
  "The function form to compile for a global function NAME: one whose calls to NAME are calls
of itself, as COMPILE-FILE makes them for a DEFUN (CLHS 3.2.2.3 lets compiled code assume a
function's calls to its own name reach it): a LABELS function, called directly in C, where a
call through the symbol costs 1.5-1.7x on fib and tak. Not when the session proclaimed NAME
NOTINLINE. The price: a later TRACE of NAME sees the outer call only, and a redefinition of
NAME reaches only later calls (as in SBCL or a compiled file). With KEEP-FRAMES (the
debugger's (debug 3)), a call in tail position stays a call: ECL would turn it into a jump,
and the debugger would show one frame where the bytecode shows each call."
  (if (and (symbolp name) name
           (eq (first lambda-expression) 'ext:lambda-block)
           (eq (second lambda-expression) name)
           (not (declared-notinline-p name)))
      `(labels ((,name ,(third lambda-expression)
                  ,@(and keep-frames `((declare (notinline ,name))))
                  ,@(remove '(declare (si::c-global)) (cdddr lambda-expression) :test #'equal)))
         (function ,name))
      `(function ,lambda-expression)))

(defparameter *load-time-value-reason*
  "It uses LOAD-TIME-VALUE: compiled now, the form would be evaluated again (its value and its side effects would not be the bytecode's). It stays interpreted.")

(defun native-lambda-form (entry)
  "(values form problem): the form whose value is ENTRY's function compiled, or why there
is none."
  (multiple-value-bind (lambda-expression environment)
      (function-lambda-expression (native-entry-function entry))
    (cond ((not (and (consp lambda-expression)
                     (member (first lambda-expression) '(lambda ext:lambda-block))))
           (values nil "ECL kept no source for it (a function loaded from a bytecode FASL): left as it is."))
           ((eq environment t)
            (values nil "It is a compiled closure already."))
           (t
            (let ((stale (if (tree-contains-p lambda-expression '(load-time-value))
                             *load-time-value-reason*
                             (unsafe-policy-reason entry lambda-expression))))
              (if stale
                  (values nil stale)
                  (multiple-value-bind (wrappers problem) (environment-forms environment lambda-expression)
                    (if problem
                        (values nil problem)
                        (let ((form (if (eq (native-entry-kind entry) :function)
                                        (self-calling-form (native-entry-name entry) lambda-expression
                                                           (not (assoc 'debug (native-entry-policy entry))))
                                        `(function ,lambda-expression))))
                          (dolist (wrapper (reverse wrappers))
                            (setf form (append wrapper (list form))))
                          (values `(locally (declare (optimize ,@(native-policy (native-entry-policy entry) (and wrappers t)))
                                                     ;; The session's compiler macros: the
                                                     ;; bytecode never applies them (native-meaning.lisp).
                                                     ,@(let ((names (session-compiler-macro-names)))
                                                         (and names `((notinline ,@names)))))
                                     ,form)
                                  nil))))))))))

;;; Names as the host writes them (the ledger's texts, ledger.lisp).

(defun native-entry-name-text (entry)
  (let ((name (native-entry-name entry)))
    (if (consp name)
        (concatenate 'string "(SETF " (symbol-name (second name)) ")")
        (symbol-name name))))

(defun native-entry-home (entry)
  (let* ((name (native-entry-name entry))
         (symbol (if (consp name) (second name) name)))
    (symbol-package symbol)))

(defun specializer-text (specializer)
  (cond ((typep specializer 'clos:eql-specializer)
         (format nil "(EQL ~A)" (ledger-name-text (clos:eql-specializer-object specializer))))
        ((typep specializer 'class) (ledger-name-text (class-name specializer)))
        (t (ledger-name-text specializer))))

(defun method-texts (method)
  "(values qualifiers specializers) of METHOD as the ledger writes them (trailing Ts dropped)."
  (let ((specializers (mapcar #'specializer-text (ignore-errors (clos:method-specializers method)))))
    (loop while (equal (car (last specializers)) "T")
          do (setf specializers (butlast specializers)))
    (values (mapcar #'ledger-name-text (ignore-errors (method-qualifiers method)))
            specializers)))

(defun native-entry-key (entry)
  "What identifies the definition across versions: kind and name, and for a method its
qualifiers and specializers."
  (if (eq (native-entry-kind entry) :method)
      (multiple-value-bind (qualifiers specializers) (method-texts (native-entry-method entry))
        (list :method (native-entry-name entry) qualifiers specializers))
      (list (native-entry-kind entry) (native-entry-name entry))))

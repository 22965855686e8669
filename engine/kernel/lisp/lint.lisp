;;;; Cheap checks of our own over code before it runs or compiles, for what ECL's bytecode
;;;; evaluator never reports and its compiler reports less often than SBCL: variables bound
;;;; but never used, calls to functions that do not exist, and calls with the wrong number
;;;; of arguments. The walker is conservative: where it cannot see (a user macro, MACROLET,
;;;; an unknown special form) it assumes every variable in scope is used and says nothing.
;;;; Macros of the implementation are expanded (they run no user code); user macros are not.

(in-package "LISP-DUET.KERNEL")

(defstruct binding name (used nil) (reportable t))

(defvar *scope* '())
(defvar *local-functions* '())
(defvar *defined-here* nil "Name -> lambda list of functions defined by the code checked.")
(defvar *source-conses* nil "The conses of the code as written: only its bindings are reported.")
(defvar *check-calls* nil)
(defvar *specials-here* '() "Variables the code checked proclaims special (DEFVAR...).")
(defvar *lint-notes* '())
(defvar *lint-budget* 0)

(defparameter *boot-package-names*
  (mapcar #'package-name (list-all-packages))
  "Packages that exist before any user code runs (CL-USER among them).")

(defun system-symbol-p (symbol)
  (let ((package (symbol-package symbol)))
    (and package
         (not (eq package (find-package "CL-USER")))
         (member (package-name package) *boot-package-names* :test #'string=))))

(defun lint-note (kind format-control &rest arguments)
  (let ((text (format nil "~A: ~?" kind format-control arguments)))
    (pushnew text *lint-notes* :test #'string=)))

(defun mark-used (name)
  (let ((b (find name *scope* :key #'binding-name)))
    (when b (setf (binding-used b) t))))

(defun mark-all-used ()
  (dolist (b *scope*) (setf (binding-used b) t)))

(defun source-form-p (cons)
  (and *source-conses* (gethash cons *source-conses*)))

(defun collect-source-conses (form table)
  (let ((seen 0))
    (labels ((walk (x)
               (when (and (consp x) (not (gethash x table)) (< (incf seen) 50000))
                 (setf (gethash x table) t)
                 (walk (car x))
                 (walk (cdr x)))))
      (walk form))
    table))

(defun earmuffed-p (symbol)
  (let ((name (symbol-name symbol)))
    (and (> (length name) 2) (char= (char name 0) #\*) (char= (char name (1- (length name))) #\*))))

(defun bind-variable (name reportable)
  (when (and (symbolp name) name (not (keywordp name)))
    (push (make-binding :name name
                        :reportable (and reportable (symbol-package name)
                                         (not (ignore-errors (si:specialp name)))
                                         (not (member name *specials-here*))
                                         (not (earmuffed-p name))))
          *scope*)))

(defun split-body (body)
  "(values declarations forms) of a body that may begin with declarations and a docstring."
  (let ((declarations '()))
    (loop while (or (and (consp (first body)) (eq (car (first body)) 'declare))
                    (and (stringp (first body)) (rest body)))
          do (let ((item (pop body)))
               (when (consp item) (push item declarations))))
    (values declarations body)))

(defun apply-declarations (declarations)
  (dolist (d declarations)
    (dolist (spec (rest d))
      (when (and (consp spec) (member (first spec) '(ignore ignorable special dynamic-extent)))
        (dolist (name (rest spec))
          (let ((b (find name *scope* :key #'binding-name)))
            (when b (setf (binding-reportable b) nil))))))))

(defun report-unused (bindings)
  (dolist (b (reverse bindings)) ; in the order they were written
    (when (and (binding-reportable b) (not (binding-used b)))
      (lint-note "STYLE-WARNING" "The variable ~A is defined but never used."
                 (session-name (binding-name b))))))

(defun session-name (symbol)
  (let ((*print-case* :upcase)) (prin1-to-string symbol)))

(defmacro with-scope ((&key) &body body)
  `(let ((outer *scope*))
     (let ((*scope* *scope*))
       ,@body
       (report-unused (ldiff *scope* outer)))))

(defun walk-body (body)
  (multiple-value-bind (declarations forms) (split-body body)
    (apply-declarations declarations)
    (dolist (f forms) (walk f))))

(defun walk-lambda-list (lambda-list reportable &key destructuring)
  (let ((mode :required))
    (loop for tail = lambda-list then (cdr tail)
          while (consp tail)
          do (when (minusp (decf *lint-budget*)) (throw 'lint-gave-up nil)) ; a circular list
             (let ((item (car tail)))
               (cond ((member item lambda-list-keywords) (setf mode item))
                     ((and destructuring (consp item) (member mode '(:required &whole)))
                      (walk-lambda-list item reportable :destructuring t))
                     ((symbolp item)
                      (bind-variable item (and reportable (not (member mode '(&whole &environment))))))
                     ((consp item)
                      (let ((var (if (consp (first item)) (second (first item)) (first item))))
                        (when (rest item) (walk (second item)))
                        (if (and destructuring (consp var))
                            (walk-lambda-list var reportable :destructuring t)
                            (bind-variable var reportable))
                        (when (third item) (bind-variable (third item) reportable))))))
          finally (when (and tail (symbolp tail)) (bind-variable tail reportable)))))

(defun walk-lambda (lambda-list body &key destructuring (source lambda-list) quiet)
  "QUIET names parameters never reported (a method's specialized ones, as SBCL does)."
  (with-scope ()
    (walk-lambda-list (if (listp lambda-list) lambda-list '())
                      (or (null lambda-list) (source-form-p source))
                      :destructuring destructuring)
    (dolist (b *scope*)
      (when (member (binding-name b) quiet) (setf (binding-reportable b) nil)))
    (walk-body body)))

(defun lambda-list-arity (lambda-list)
  "(values minimum maximum-or-nil) of an ordinary lambda list."
  (let ((min 0) (max 0) (mode :required) (open nil))
    (dolist (item lambda-list)
      (cond ((member item '(&rest &body &key)) (setf open t mode item))
            ((member item '(&allow-other-keys)))
            ((member item lambda-list-keywords) (setf mode item))
            ((eq mode :required) (incf min) (incf max))
            ((eq mode '&optional) (incf max))))
    (values min (if open nil max))))

(defun check-call (name arguments)
  (when (and *check-calls* (symbolp name) (not (member name *local-functions*)))
    (let ((here (gethash name *defined-here* :absent)))
      (cond ((not (eq here :absent))
             (check-arity name here (length arguments)))
            ((not (fboundp name))
             (lint-note "WARNING" "undefined function: ~A" (session-name name)))
            ((not (system-symbol-p name))
             (multiple-value-bind (lambda-list found) (ignore-errors (ext:function-lambda-list name))
               (when found (check-arity name lambda-list (length arguments)))))))))

(defun check-arity (name lambda-list count)
  (when (and (listp lambda-list) (not (eq lambda-list :any)) (every (lambda (x) (or (symbolp x) (consp x))) lambda-list))
    (multiple-value-bind (min max) (lambda-list-arity lambda-list)
      (when (or (< count min) (and max (> count max)))
        (lint-note "WARNING" "The function ~A is called with ~D argument~:P, but wants ~A."
                   (session-name name) count
                   (cond ((eql min max) (format nil "exactly ~D" min))
                         ((null max) (format nil "at least ~D" min))
                         (t (format nil "between ~D and ~D" min max))))))))

(defun check-function-reference (name)
  (when (and *check-calls* (symbolp name) name
             (not (member name *local-functions*))
             (eq (gethash name *defined-here* :absent) :absent)
             (not (fboundp name)))
    (lint-note "WARNING" "undefined function: ~A" (session-name name))))

(defun walk-function-form (thing)
  (cond ((symbolp thing) (check-function-reference thing))
        ((and (consp thing) (eq (first thing) 'lambda))
         (walk-lambda (second thing) (cddr thing)))
        ((and (consp thing) (eq (first thing) 'ext:lambda-block))
         (walk-lambda (third thing) (cdddr thing)))))

(defun walk-let (form sequential)
  (let ((bindings (second form)) (reportable (source-form-p form)))
    (with-scope ()
      (let ((pending '()))
        (dolist (b bindings)
          (let ((name (if (consp b) (first b) b)))
            (when (consp b) (walk (second b)))
            (if sequential
                (bind-variable name reportable)
                (push name pending))))
        (dolist (name (nreverse pending)) (bind-variable name reportable)))
      (walk-body (cddr form)))))

(defun walk-local-functions (form recursive)
  (let ((names (mapcar (lambda (d) (and (consp d) (first d))) (second form))))
    (let ((*local-functions* (if recursive (append names *local-functions*) *local-functions*)))
      (dolist (d (second form))
        (when (consp d) (walk-lambda (second d) (cddr d)))))
    (let ((*local-functions* (append names *local-functions*)))
      (walk-body (cddr form)))))

(defun strip-specializers (lambda-list)
  (loop for tail on lambda-list
        for item = (car tail)
        until (member item lambda-list-keywords)
        collect (if (consp item) (first item) item) into required
        finally (return (append required tail))))

(defun walk (form)
  (when (minusp (decf *lint-budget*))
    (throw 'lint-gave-up nil))
  (cond ((symbolp form) (mark-used form))
        ((atom form))
        ((not (symbolp (car form)))
         (when (and (consp (car form)) (eq (caar form) 'lambda))
           (walk-function-form (car form)))
         (dolist (f (cdr form)) (walk f)))
        (t (walk-operator (car form) form))))

(defun walk-operator (op form)
  (case op
    ((quote declare go) nil)
    (function (walk-function-form (second form)))
    (lambda (walk-lambda (second form) (cddr form)))
    (let (walk-let form nil))
    (let* (walk-let form t))
    (flet (walk-local-functions form nil))
    (labels (walk-local-functions form t))
    ((macrolet symbol-macrolet) (mark-all-used))
    ((defun defmacro define-compiler-macro)
     (walk-lambda (third form) (cdddr form) :destructuring (not (eq op 'defun))))
    (defmethod
     (let ((rest (cddr form)))
       (loop while (and rest (not (listp (first rest)))) do (pop rest))
       (walk-lambda (strip-specializers (first rest)) (rest rest) :source (first rest)
                    :quiet (loop for item in (first rest)
                                 until (member item lambda-list-keywords)
                                 when (consp item) collect (first item)))))
    ((defvar defparameter defconstant) (when (cddr form) (walk (third form))))
    ((defgeneric defclass defstruct deftype defpackage in-package declaim define-condition
      define-symbol-macro defsetf define-setf-expander define-modify-macro)
     nil)
    (multiple-value-bind
     (walk (third form))
     (with-scope ()
       (dolist (v (second form)) (bind-variable v (source-form-p form)))
       (walk-body (cdddr form))))
    ((block return-from the eval-when catch throw)
     (dolist (f (cddr form)) (walk f))
     (when (member op '(catch throw)) (walk (second form))))
    (locally (walk-body (cdr form)))
    (tagbody (dolist (f (cdr form)) (unless (atom f) (walk f))))
    ((setq psetq) (loop for (var value) on (cdr form) by #'cddr
                        do (mark-used var) (walk value)))
    (t
     (cond ((member op *local-functions*)
            (dolist (f (cdr form)) (walk f)))
           ((eq (gethash op *defined-here*) :macro)
            (mark-all-used))
           ((macro-function op)
            (if (system-symbol-p op)
                (multiple-value-bind (expansion ok)
                    (handler-case (values (macroexpand-1 form) t)
                      (serious-condition () (values nil nil)))
                  (if ok (walk expansion) (mark-all-used)))
                (mark-all-used)))
           ((special-operator-p op)
            (if (member op '(if progn multiple-value-call multiple-value-prog1 progv
                             unwind-protect load-time-value))
                (dolist (f (cdr form)) (walk f))
                (mark-all-used)))
           (t
            (check-call op (cdr form))
            (dolist (f (cdr form)) (walk f)))))))

(defun note-defined-names (form)
  "Records in *DEFINED-HERE* the functions FORM defines. A top-level call of a user macro
may define anything, so it turns the undefined-function check off."
  (when (consp form)
    (let ((op (first form)))
      (cond ((and (member op '(defvar defparameter defconstant)) (symbolp (second form)))
             (push (second form) *specials-here*))
            ((and (eq op 'defmethod) (symbolp (second form)))
             (unless (nth-value 1 (gethash (second form) *defined-here*))
               (setf (gethash (second form) *defined-here*) :any)))
            ((and (member op '(defun defmacro defgeneric)) (symbolp (second form)))
             (setf (gethash (second form) *defined-here*)
                   (case op (defmacro :macro) (defgeneric :any) (t (third form)))))
            ((eq op 'defstruct)
             (let* ((spec (second form))
                    (name (if (consp spec) (first spec) spec))
                    (options (if (consp spec) (rest spec) '()))
                    (conc (let ((o (find :conc-name options :key (lambda (x) (and (consp x) (first x))))))
                            (if o (if (second o) (string (second o)) "") (format nil "~A-" name)))))
               (flet ((define (text) (setf (gethash (intern text (symbol-package name)) *defined-here*) :any)))
                 (define (format nil "MAKE-~A" name))
                 (define (format nil "COPY-~A" name))
                 (define (format nil "~A-P" name))
                 (dolist (o options)
                   (when (and (consp o) (eq (first o) :constructor) (second o) (symbolp (second o)))
                     (setf (gethash (second o) *defined-here*) :any)))
                 (dolist (slot (cddr form))
                   (let ((slot-name (if (consp slot) (first slot) slot)))
                     (when (symbolp slot-name)
                       (define (format nil "~A~A" conc slot-name))))))))
            ((member op '(defclass define-condition))
             (dolist (slot (fourth form))
               (when (consp slot)
                 (loop for (key value) on (rest slot) by #'cddr
                       when (member key '(:reader :accessor :writer))
                         do (when (symbolp value) (setf (gethash value *defined-here*) :any))))))
            ((member op '(progn eval-when))
             (dolist (f (if (eq op 'progn) (rest form) (cddr form))) (note-defined-names f)))
            ((and (symbolp op) (macro-function op) (not (system-symbol-p op)))
             (setf *check-calls* nil))))))

(defun lint-forms (forms &key check-calls (context forms))
  "Notes (strings) for FORMS, top-level forms read from one text whose forms are CONTEXT
(functions defined anywhere in it count as defined). Never fails."
  (handler-case
      (let ((*scope* '()) (*local-functions* '())
            (*defined-here* (make-hash-table :test #'eq))
            (*source-conses* (make-hash-table :test #'eq))
            (*check-calls* check-calls)
            (*specials-here* '())
            (*lint-notes* '())
            (*lint-budget* 20000))
        (dolist (f forms) (collect-source-conses f *source-conses*))
        (dolist (f context)
          (note-defined-names f))
        (catch 'lint-gave-up
          (dolist (f forms) (walk f)))
        (reverse *lint-notes*))
    (serious-condition () nil)))

(defun form-style-warnings (form)
  "What SBCL's compiler would say of a definition's unused variables, for evaluate-lisp."
  (when (and (consp form) (member (first form) '(progn eval-when locally)))
    (return-from form-style-warnings
      (ignore-errors
       (loop for f in (if (eq (first form) 'progn) (rest form) (cddr form))
             append (form-style-warnings f)))))
  (when (and (consp form)
             (member (first form) '(defun defmacro defmethod lambda let let* flet labels
                                    multiple-value-bind)))
    (lint-forms (list form))))

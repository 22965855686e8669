;;;; Native code for the session's definitions, part 4: generic functions. ECL dispatches a
;;;; generic function call in C, through a cache keyed on the arguments' classes, and calls
;;;; the effective method with its arguments as a list: 86 ns per call of a one-method generic
;;;; function here, against 15 for a plain function call. For a generic function whose methods
;;;; the session defined and the background compiler made native, simple enough to be sure of
;;;; the answer, a dispatcher of its own is compiled: a comparison of the first argument's
;;;; class with each method's class, then a direct call of that method's native function.
;;;;
;;;; "Simple enough": a standard generic function with the standard method combination, only
;;;; required parameters (at most four), and only primary methods, each specialized on a class
;;;; in its first parameter and on T in the others, none calling its next method. For an
;;;; instance of exactly the class a method names, that method is the most specific
;;;; applicable one, and being primary with no next method call, the whole effective method:
;;;; whatever becomes of the classes later (redefined, subclassed), the answer for those exact
;;;; classes stays right. Any other class (a subclass, a method on T) misses: the dispatcher
;;;; then gives the generic function back to ECL for good and calls it.
;;;;
;;;; ADD-METHOD, REMOVE-METHOD and a new DEFGENERIC reset the dispatch (CLOS's
;;;; SET-GENERIC-FUNCTION-DISPATCH), so a dispatcher never outlives the methods it was made
;;;; for. It is installed by the worker, between jobs (INSTALL-PENDING-DISPATCHERS): the thread
;;;; that changes the session's generic functions, so nothing changes them between the check
;;;; that the methods are still those and the installation.

(in-package "LISP-DUET.KERNEL")

(defconstant +dispatch-arity-limit+ 4)

(defvar *pending-dispatchers* '()
  "(GENERIC METHODS FUNCTIONS DISPATCHER) ready to install: the generic function's method list
and its methods' functions when the dispatcher was made.")
(defvar *dispatch-lock* (mp:make-lock :name "lisp-duet native dispatch"))
(defvar *dispatching* '()
  "Generic functions a dispatcher of ours was installed on and has not missed since (for
tests and the curious: ADD-METHOD and its kin reset the dispatch without telling us).")

(defun dispatchable-method-p (method)
  "True for a primary method with a standard or structure class for its first specializer
and T for the others,
whose function the background compiler installed as a lean wrapper (no next method)."
  (let ((specializers (clos:method-specializers method))
        (record (native-method-record method)))
    (and (null (method-qualifiers method))
         (eq (class-of method) (find-class 'standard-method))
         (consp specializers)
         ;; A class of the session's instances: a built-in one (INTEGER) is rarely the exact
         ;; class of an argument (3 is a FIXNUM), and every call would miss.
         (typep (first specializers) '(or standard-class structure-class))
         (every (lambda (s) (eq s (find-class t))) (rest specializers))
         record (native-entry-lean record)
         (eq (clos:method-function method) (native-entry-installed record)))))

(defun native-method-record (method)
  "The background compiler's newest entry for METHOD, when it made METHOD's function native."
  (let ((found nil))
    (mp:with-lock (*native-lock*)
      (maphash (lambda (key entry)
                 (declare (ignore key))
                 (when (and (eq (native-entry-kind entry) :method) (eq (native-entry-method entry) method)
                            (eq (native-entry-state entry) :native))
                   (setf found entry)))
               *native-records*))
    found))

(defun dispatch-arity (generic)
  "The number of GENERIC's parameters when they are all required (1 to the limit), else NIL."
  (let ((lambda-list (ignore-errors (clos:generic-function-lambda-list generic))))
    (and (consp lambda-list)
         (notany (lambda (p) (member p lambda-list-keywords)) lambda-list)
         (<= 1 (length lambda-list) +dispatch-arity-limit+)
         (length lambda-list))))

(defun dispatcher-form (generic arity methods)
  "The lambda form of GENERIC's dispatcher over METHODS (all dispatchable)."
  (let ((parameters (loop for i below arity collect (make-symbol (format nil "A~D" i))))
        (class (make-symbol "CLASS")))
    `(locally (declare (optimize (debug 0) (safety 1)))
       (function
        (lambda ,parameters
          (let ((,class (class-of ,(first parameters))))
            (cond ,@(loop for method in methods
                          collect `((eq ,class ',(first (clos:method-specializers method)))
                                    (funcall ',(native-entry-native (native-method-record method)) ,@parameters)))
                  (t (funcall ',(dispatch-miss generic) ,@parameters)))))))))

(defun forget-native-dispatch (generic)
  "GENERIC goes back to ECL's dispatch (one of its methods went back to its bytecode), and a
dispatcher made for it meanwhile is not installed."
  (mp:with-lock (*dispatch-lock*)
    (when (member generic *dispatching*)
      (clos::set-generic-function-dispatch generic)
      (setf *dispatching* (remove generic *dispatching*)))
    (setf *pending-dispatchers* (remove generic *pending-dispatchers* :key #'first))))

(defun dispatch-miss (generic)
  "What a dispatcher calls for a class it does not know: GENERIC goes back to ECL's dispatch
for good, and is called."
  (lambda (&rest arguments)
    (clos::set-generic-function-dispatch generic)
    (mp:with-lock (*dispatch-lock*)
      (setf *dispatching* (remove generic *dispatching*)))
    (apply generic arguments)))

(defun plan-native-dispatch (generic)
  "After a batch made some of GENERIC's methods native: compiles a dispatcher for it if it is
simple enough (see above), to be installed by the worker before its next job."
  (when (and (eq (class-of generic) (find-class 'standard-generic-function))
             (eq (ignore-errors (clos::method-combination-name (clos:generic-function-method-combination generic)))
                 'standard))
    (let ((arity (dispatch-arity generic))
          (methods (clos:generic-function-methods generic)))
      (when (and arity methods (every #'dispatchable-method-p methods))
        (multiple-value-bind (functions problem)
            (compile-native-items (list (list (dispatcher-form generic arity methods) *package* *readtable*)))
          (declare (ignore problem))
          (when functions
            (mp:with-lock (*dispatch-lock*)
              (push (list generic methods (mapcar #'clos:method-function methods) (svref functions 0))
                    *pending-dispatchers*))))))))

(defun install-pending-dispatchers ()
  "Before a job, on the worker: installs the dispatchers whose generic functions still have
exactly the methods, and method functions, they were made for."
  (when *pending-dispatchers*
    (dolist (pending (mp:with-lock (*dispatch-lock*) (shiftf *pending-dispatchers* '())))
      (destructuring-bind (generic methods functions dispatcher) pending
        (when (and (eq (clos:generic-function-methods generic) methods)
                   (equal (mapcar #'clos:method-function methods) functions))
          (clos:set-funcallable-instance-function generic dispatcher)
          (mp:with-lock (*dispatch-lock*)
            (pushnew generic *dispatching*)))))))

;;;; Libraries at once (issue 39), part 1: a library's first load runs as bytecode.
;;;;
;;;; ASDF compiles a library's files with gcc before anything of it can be used: alexandria
;;;; took ~9 s, flexi-streams a minute. ECL's bytecodes compiler does the same files in a
;;;; fraction of a second. So every ASDF plan the session performs (the load-system tool, the
;;;; person's asdf:load-system, REQUIRE, ql:quickload, the editor's C-c C-l) is looked at
;;;; before it runs: each file of a library whose native files are missing or out of date in
;;;; ASDF's cache gets the bytecode tier, and ASDF is shown, for that file, a .fasc beside
;;;; where the .fas would be (its "output file"), which our COMPILE-OP writes with the
;;;; bytecodes compiler. Files that are native in the cache load natively, as before. The
;;;; project's own systems are not libraries: they compile natively at (debug 3) as before
;;;; (systems.lisp).
;;;;
;;;; ASDF decides what to do again from the dates of the output files (its stamps): a file
;;;; recompiled now makes every file after it look out of date. So once a file of a system is
;;;; bytecode, the rest of that system and every system that depends on it are bytecode too
;;;; (cheap), and ASDF never finds a native file to compile on the worker. A file keeps its
;;;; tier for the life of the engine (ASDF sees the same outputs each time it looks); native
;;;; code reaches it in the background (library-native.lisp, library-swap.lisp), and natively
;;;; from the cache at the next engine start.

(in-package "LISP-DUET.KERNEL")

(defvar *library-tiers-lock* (mp:make-lock :name "lisp-duet library tiers"))
(defvar *library-files* (make-hash-table :test #'equal)
  "Source file namestring -> its LIBRARY-FILE, for every library file loaded as bytecode.")
(defvar *library-file-order* 0)

(defstruct library-file
  system     ; the system's name
  source     ; the source file's namestring
  native     ; where ASDF keeps its native .fas (its compile-op's output in the native view)
  tier       ; :bytecode (a .fasc in ASDF's cache), :source (loaded from the source file), or
             ; :native (inline C: compiled natively on the worker, as before)
  order      ; the order ASDF loaded it in
  reason     ; why it stays bytecode in this engine, once known
  state)     ; :bytecode, :native (swapped in), :deferred (native from the next start), :failed

(defun bytecode-first-p ()
  "False when LISP_DUET_LIBRARY_BYTECODE says 0/off: libraries compile natively on the worker,
as before issue 39."
  (let ((setting (ext:getenv "LISP_DUET_LIBRARY_BYTECODE")))
    (not (and setting (member (string-downcase setting) '("0" "off" "no" "false") :test #'string=)))))

(defun component-source (component)
  (ignore-errors (namestring (funcall (asdf-symbol "COMPONENT-PATHNAME") component))))

(defun library-file-of (component)
  (let ((source (component-source component)))
    (and source (mp:with-lock (*library-tiers-lock*) (gethash source *library-files*)))))

(defun component-system-name (component)
  (ignore-errors (funcall (asdf-symbol "COMPONENT-NAME")
                          (funcall (asdf-symbol "COMPONENT-SYSTEM") component))))

(defun plain-source-file-p (component)
  "True for ASDF's own Lisp source files: a component class of a library's own (cffi's grovel
files...) compiles its own way, natively, as before."
  (member (symbol-name (class-name (class-of component))) '("CL-SOURCE-FILE" "CL-SOURCE-FILE.CL" "CL-SOURCE-FILE.LSP")
          :test #'string=))

;;; What ASDF sees.

;;; ASDF keeps one method per generic function, qualifiers and specializers: a library that
;;; defines the same one replaces ours without a word. asdf-flv (FiveAM's dependency) defines
;;; PERFORM :around (COMPILE-OP CL-SOURCE-FILE): with ours on the same classes, every library
;;; file compiled after asdf-flv loaded was compiled natively by ASDF into the .fasc our
;;; OUTPUT-FILES still showed, and loading that ELF file as bytecode failed ("Found invalid
;;; character Rubout"): FiveAM did not load on an empty cache. So our methods specialize on
;;; SOURCE-FILE, which libraries leave alone (theirs, more specific, run around ours), and the
;;; view and the compile check each other: the .fasc is shown only while our PERFORM is in
;;; force, and bytecode is written only to a .fasc.

(defvar *tiered-perform-method* nil "Our PERFORM :around for COMPILE-OP, once installed.")

(defun asdf-method-in-force-p (method generic)
  "True while METHOD is still one of ASDF's GENERIC's methods (GENERIC: its name)."
  (and method
       (member method (ignore-errors (clos:generic-function-methods (fdefinition (asdf-symbol generic)))))
       t))

(defun tiered-output-files (component files)
  "The output files ASDF is shown for COMPONENT's COMPILE-OP: FILES (the native ones), or for
a bytecode file the .fasc in their place, or for one loaded from source the source itself;
FILES whenever our COMPILE-OP is no longer in force (see above)."
  (let ((file (library-file-of component)))
    (case (and file (asdf-method-in-force-p *tiered-perform-method* "PERFORM")
               (library-file-tier file))
      (:bytecode (list (make-pathname :type "fasc" :defaults (first files))))
      (:source (list (pathname (library-file-source file))))
      (t files))))

(defvar *bytecode-file-counter* 0)

(defun ensure-directories-racing (pathname)
  "ENSURE-DIRECTORIES-EXIST, when another process (a second Lisp Duet, plain ECL, a background
compiler) may make the same folders at the same moment: ECL's fails with \"File exists\"."
  (loop for attempt from 1
        do (handler-case (return (ensure-directories-exist pathname))
             (file-error (condition)
               (when (>= attempt 5) (error condition))
               (sleep 0.01)))))

(defun temporary-sibling (pathname)
  (make-pathname :name (format nil "~A.lisp-duet-~D-~D" (pathname-name pathname) (%process-id)
                               (mp:with-lock (*library-tiers-lock*) (incf *bytecode-file-counter*)))
                 :defaults pathname))

(defun compile-to-bytecode (component input output)
  "Compiles INPUT to OUTPUT (.fasc) with ECL's bytecodes compiler, inside the component's
around-compile hook; OUTPUT appears whole or not at all (a temporary file, then rename(2)),
so another process reading the cache never loads half a file."
  (let ((temporary (temporary-sibling output))
        (format (or (ignore-errors (funcall (asdf-symbol "COMPONENT-EXTERNAL-FORMAT") component)) :default)))
    (ensure-directories-racing output)
    (unwind-protect
         (let ((*package* (find-package "COMMON-LISP-USER"))
               (*readtable* *readtable*)
               (ext::*source-location* (cons (truename input) 0))
               (*compile-file-pathname* (pathname (merge-pathnames input)))
               (*compile-file-truename* (truename input)))
           (funcall (asdf-symbol "CALL-WITH-AROUND-COMPILE-HOOK") component
                    (lambda (&rest flags)
                      (declare (ignore flags))
                      (with-open-file (in input :external-format format)
                        (ext::bc-compile-file in :output-file temporary))
                      t))
           (rename-file temporary output :if-exists :supersede))
      (when (probe-file temporary) (ignore-errors (delete-file temporary))))))

;;; ECL's bytecodes compiler takes seconds over a file of big literal tables: babel's
;;; jpn-table.lisp (17,600 lines, three quoted lists) took 5.1 s to compile to bytecode and
;;; 24 ms to load from its source. Loading the source does the same work as compiling the file
;;; and loading that, but for forms that act at compile time only: a big file without such
;;; forms is loaded from its source.

(defconstant +source-load-size+ 65536 "Bytes from which a library file may load from its source.")

(defun compile-time-only-p (form)
  "True when FORM acts when a file is compiled and not when its source is loaded."
  (and (consp form)
       (case (first form)
         (eval-when (and (intersection (second form) '(:compile-toplevel compile))
                         (not (intersection (second form) '(:execute eval)))))
         ((progn locally) (some #'compile-time-only-p (rest form)))
         (t nil))))

(defun inlines-c-p (source)
  "True when SOURCE uses ECL's inline C (FFI:CLINES, FFI:C-INLINE, FFI:C-PROGN...), which the
bytecodes compiler cannot run: such a file is compiled natively, on the worker, as before."
  (let ((text (ignore-errors
               (with-open-file (in source :external-format :latin-1)
                 (let ((buffer (make-string (file-length in))))
                   (subseq buffer 0 (read-sequence buffer in)))))))
    (and text (some (lambda (word) (search word text :test #'char-equal))
                    '("clines" "c-inline" "c-progn" "defcbody" "defentry" "definline")))))

(defun source-load-better-p (source)
  (and (> (or (ignore-errors (with-open-file (in source) (file-length in))) 0) +source-load-size+)
       (let ((forms (ignore-errors (read-top-level-forms source))))
         (and forms (notany (lambda (entry) (compile-time-only-p (car entry))) forms)))))

;;; ASDF 3.1 (ECL's) notes an action done in PERFORM's :after method (OPERATION COMPONENT),
;;; which runs only when PERFORM's next method does: a file we compiled to bytecode ourselves
;;; was never noted, so its COMPILE-OP had no date and the date of its .fasc stayed the one
;;; ASDF had read before the file existed (none). LOAD-OP was then noted with the source's
;;; date instead of the .fasc's, and every later load-system (asdf:load-system, require, the
;;; tool) found the file's load out of date and loaded it again, resetting its DEFPARAMETERs.
;;; Noting it ourselves is what the :after method does (a second note, as newer ASDFs make
;;; from PERFORM-PLAN, changes nothing).

(defun note-compile-done (operation component)
  (funcall (asdf-symbol "MARK-OPERATION-DONE") operation component)
  nil)

(defun perform-tiered-compile (operation component next)
  "ASDF's COMPILE-OP for a library file: bytecode for a bytecode file (and for one whose
bytecode could not be written, e.g. a constant that does not print readably, nothing: it is
loaded from its source), NEXT (ASDF's own) otherwise. Either way ASDF notes it done."
  (let* ((file (library-file-of component))
         (output (and file (first (funcall (asdf-symbol "OUTPUT-FILES") operation component)))))
    (case (and file
               ;; Our OUTPUT-FILES replaced by a library's: ASDF expects its native files.
               (or (not (eq (library-file-tier file) :bytecode))
                   (equal (pathname-type output) "fasc"))
               (library-file-tier file))
      (:bytecode
       (announce-file-compile component)
       (let ((input (first (funcall (asdf-symbol "INPUT-FILES") operation component))))
         (when (inlines-c-p input)
           ;; ECL's FFI inlines C (usocket, cl+ssl on ECL): only the native compiler can.
           (setf (library-file-tier file) :native
                 (library-file-state file) :native)
           (return-from perform-tiered-compile (funcall next)))
         (if (source-load-better-p input)
             (setf (library-file-tier file) :source)
             (handler-case (compile-to-bytecode component input output)
               (error (condition)
                 (setf (library-file-tier file) :source
                       (library-file-reason file)
                       (format nil "Its bytecode could not be written (~A): it loads from its source." (one-line (condition-message condition)))))))
         (note-compile-done operation component)))
      (:source (note-compile-done operation component))
      (t (funcall next)))))

;;; Deciding, before ASDF performs a plan.

(defun dependency-names (system)
  "The names of the systems SYSTEM depends on (its :depends-on and :defsystem-depends-on)."
  (loop for spec in (append (ignore-errors (funcall (asdf-symbol "SYSTEM-DEPENDS-ON") system))
                            (ignore-errors (funcall (asdf-symbol "SYSTEM-DEFSYSTEM-DEPENDS-ON") system)))
        for name = (cond ((or (stringp spec) (symbolp spec)) spec)
                         ((and (consp spec) (eq (first spec) :version)) (second spec))
                         ((and (consp spec) (eq (first spec) :feature)) (third spec))
                         ((and (consp spec) (eq (first spec) :require)) nil))
        when name collect (string-downcase (string name))))

(defun cffi-name-p (name)
  (or (string= name "cffi") (and (> (length name) 5) (string= name "cffi-" :end1 5))))

(defun foreign-code-system-p (system name)
  "True for CFFI and the systems that use it directly: they compile natively, as before issue
39. Their callers of CFFI's macros, as bytecode, go through ECL's dynamic FFI instead of the
inline C the native compiler writes, and cffi's own tests then died of a segmentation
violation (tst_corpusruns aTestRunLeavesNoFilesInTheProject)."
  (or (cffi-name-p name)
      (some #'cffi-name-p (dependency-names system))))

(defun native-done-p (operation component)
  (nth-value 1 (funcall (asdf-symbol "COMPUTE-ACTION-STAMP") nil operation component)))

(defun native-file-p (path)
  "True when PATH is an ELF file (a native fasl or object)."
  (ignore-errors
   (with-open-file (in path :element-type '(unsigned-byte 8))
     (let ((head (make-array 4 :element-type '(unsigned-byte 8) :initial-element 0)))
       (and (= 4 (read-sequence head in)) (equalp head #(127 69 76 70)))))))

(defun remove-misnamed-native-file (native)
  "Deletes a native file that stands under the .fasc name of NATIVE (an engine before the fix
above wrote them): ASDF would find it up to date and load it as bytecode, failing each time."
  (let ((bytecode (make-pathname :type "fasc" :defaults native)))
    (when (native-file-p bytecode)
      (ignore-errors (delete-file bytecode)))))

(defun note-bytecode-file (operation component)
  "Gives COMPONENT the bytecode tier; where its native file goes is asked first, while ASDF
still sees the native view."
  (let ((native (ignore-errors (namestring (first (funcall (asdf-symbol "OUTPUT-FILES") operation component)))))
        (source (component-source component)))
    (when native (remove-misnamed-native-file native))
    (when (and native source)
      (mp:with-lock (*library-tiers-lock*)
        (setf (gethash source *library-files*)
              (make-library-file :system (component-system-name component) :source source
                                 :native native :tier :bytecode :state :bytecode
                                 :order (incf *library-file-order*)))))))

(defun decide-library-tiers (steps force)
  "Gives the bytecode tier to the library files of the plan STEPS whose native files ASDF would
compile, and to those after them (see above). Returns the names of the systems given bytecode
files now, and of every library system with source files in the plan, in the plan's order. A
file that has its tier already taints the systems after it (its COMPILE-OP step may write its
.fasc anew) but is not counted here: whether its bytecode is loaded again is known only once
the plan ran (NOTE-BYTECODE-LOAD): ASDF 3.1 plans steps it then finds done and skips (a
run-tests plans the COMPILE-OPs of the test system's files again)."
  (let ((compile-op (find-class (asdf-symbol "COMPILE-OP") nil))
        (system-class (find-class (asdf-symbol "SYSTEM") nil))
        (tainted '())
        (systems '())
        (libraries '()))
    (dolist (step steps)
      (when (consp step)
        (let* ((operation (car step))
               (component (cdr step))
               (system (if (typep component system-class)
                           component
                           (ignore-errors (funcall (asdf-symbol "COMPONENT-SYSTEM") component))))
               (name (and system (ignore-errors (funcall (asdf-symbol "COMPONENT-NAME") system)))))
          (when (and name (not (member name tainted :test #'string=))
                     (intersection (dependency-names system) tainted :test #'string=))
            (push name tainted))
          (when (and name (plain-source-file-p component) (not (project-component-p component))
                     (not (foreign-code-system-p system name)))
            ;; A cached system's plan may hold no COMPILE-OP at all: it is a library all the same.
            (pushnew name libraries :test #'string=)
            (when (typep operation compile-op)
              (unless (library-file-of component)
                (when (or force (member name tainted :test #'string=)
                          (not (native-done-p operation component)))
                  (note-bytecode-file operation component)
                  (pushnew name systems :test #'string=)))
              (when (library-file-of component)
                (pushnew name tainted :test #'string=)))))))
    (values (nreverse systems) (nreverse libraries))))

;;; A file loaded as bytecode again (a forced load, a source the person changed, run-tests'
;;; plans) runs its bytecode again, whatever native code the swap had given it: it is
;;; :BYTECODE once more, and its system goes to the background again (library-native.lisp),
;;; which starts a compiler process only when a native file is not current.

(defvar *bytecode-loads* nil
  "Bound by CALL-WITH-LIBRARY-TIERS to a cons: the systems whose files the plan loaded as bytecode.")

(defun note-bytecode-load (component)
  "Before ASDF's LOAD-OP of COMPONENT: a library file whose bytecode (or source) it loads runs
as bytecode from now on."
  (let ((file (library-file-of component)))
    (when (and file (member (library-file-tier file) '(:bytecode :source))
               (asdf-method-in-force-p *tiered-perform-method* "PERFORM"))
      (setf (library-file-state file) :bytecode
            (library-file-reason file) nil)
      (when *bytecode-loads*
        (pushnew (library-file-system file) (car *bytecode-loads*) :test #'string=)))))

(defun call-with-library-tiers (steps force next)
  "ASDF's PERFORM-PLAN: the tiers are decided, the plan performed; then the systems that were
loaded as bytecode go to the background compiler (library-native.lisp)."
  (multiple-value-bind (systems libraries)
      (and (bytecode-first-p)
           (handler-case (decide-library-tiers steps force)
             (error () nil)))
    (let ((*bytecode-loads* (list '())))
      (multiple-value-prog1 (funcall next)
        (when libraries
          (ignore-errors (libraries-loaded (union systems (car *bytecode-loads*) :test #'string=)
                                           libraries)))))))

(defun install-library-tiers ()
  "Once ASDF exists: our view of the output files and our COMPILE-OP for library files."
  ;; SOURCE-FILE, not CL-SOURCE-FILE: a library's method would replace ours (see above). Only
  ;; plain CL-SOURCE-FILEs get a tier (DECIDE-LIBRARY-TIERS), others pass through.
  (without-noting-definitions
    (eval `(defmethod ,(asdf-symbol "OUTPUT-FILES") :around ((operation ,(asdf-symbol "COMPILE-OP"))
                                                             (component ,(asdf-symbol "SOURCE-FILE")))
             (tiered-output-files component (call-next-method))))
    ;; LOAD-OP's input files are COMPILE-OP's outputs translated into the cache once more: a
    ;; file loaded from its source is loaded from where it is.
    (eval `(defmethod ,(asdf-symbol "INPUT-FILES") :around ((operation ,(asdf-symbol "LOAD-OP"))
                                                            (component ,(asdf-symbol "SOURCE-FILE")))
             (let ((file (library-file-of component)))
               (if (and file (eq (library-file-tier file) :source))
                   (list (pathname (library-file-source file)))
                   (call-next-method)))))
    (setf *tiered-perform-method*
          (eval `(defmethod ,(asdf-symbol "PERFORM") :around ((operation ,(asdf-symbol "COMPILE-OP"))
                                                              (component ,(asdf-symbol "SOURCE-FILE")))
                   (perform-tiered-compile operation component #'call-next-method))))
    (eval `(defmethod ,(asdf-symbol "PERFORM") :before ((operation ,(asdf-symbol "LOAD-OP"))
                                                        (component ,(asdf-symbol "SOURCE-FILE")))
             (note-bytecode-load component)))))

(defun library-files-of (system)
  "SYSTEM's files loaded as bytecode in this engine, in the order they were loaded."
  (let ((files '()))
    (mp:with-lock (*library-tiers-lock*)
      (maphash (lambda (source file) (declare (ignore source))
                 (when (string= (library-file-system file) system) (push file files)))
               *library-files*))
    (sort files #'< :key #'library-file-order)))

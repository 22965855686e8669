;;;; Native code for the session's definitions, part 2: ECL's compiler, run in batches.
;;;;
;;;; A batch is one C file: each definition's lambda form becomes one top-level form that puts
;;;; the compiled function into a vector. It is compiled the way ECL's COMPILE compiles (its
;;;; constants are the very objects of the definition, kept in memory: nothing is printed and
;;;; read back), in three steps instead of COMPILE's one:
;;;;   1. Lisp to C, inside ECL's compiler environment, which holds MP:+LOAD-COMPILE-LOCK+
;;;;      (COMPILE, COMPILE-FILE and the loading of compiled files share it): a few ms per
;;;;      definition;
;;;;   2. gcc, once per batch, outside that lock, so the worker's LOAD-SYSTEM or COMPILE never
;;;;      waits for it; with absolute file names, where COMPILE changes the process's working
;;;;      directory while gcc runs (which user code running meanwhile would notice);
;;;;   3. loading the shared object (the lock again, for the dlopen).
;;;; COMPILE would also run a full garbage collection after each function, which stops every
;;;; thread, the worker among them.
;;;;
;;;; The compiler is ECL's own (package C), loaded on first use. Its internal functions are
;;;; found by name at run time: the engine must not intern them at start-up (the kernel tells
;;;; whether the compiler is loaded by looking for them).

(in-package "LISP-DUET.KERNEL")

;;; The toolchain: gcc and ECL's headers (Debian's gcc and libecl-dev), as this ECL was built
;;; to call them (read from its compiler when the kernel was built).

(defparameter *native-c-compiler* #.(symbol-value (find-symbol "*CC*" "C")))
(defparameter *native-include-directory* #.(funcall (find-symbol "ECL-INCLUDE-DIRECTORY" "C")))

(defun words (text)
  (loop for start = (position #\Space text :test-not #'char=) then (position #\Space text :start end :test-not #'char=)
        while start
        for end = (or (position #\Space text :start start) (length text))
        collect (subseq text start end)))

(defun find-on-path (program)
  (if (find #\/ program)
      (and (eq (ext:file-kind program t) :file) program)
      (let ((path (or (ext:getenv "PATH") "")))
        (loop for start = 0 then (1+ end)
              for end = (or (position #\: path :start start) (length path))
              for directory = (subseq path start end)
              for candidate = (concatenate 'string (if (plusp (length directory)) (directory-text directory) "./")
                                           program)
              when (eq (ext:file-kind candidate t) :file) return candidate
              while (< end (length path))))))

(defun native-toolchain-problem ()
  "Why this machine cannot compile to native code, or NIL. Looks only at files: a few stat
calls, no program is run."
  (let ((compiler (first (words *native-c-compiler*)))
        (header (concatenate 'string *native-include-directory* "ecl/ecl.h")))
    (cond ((not (find-on-path compiler))
           (format nil "The C compiler ~A is not on PATH: the session's definitions stay interpreted (Debian: apt install gcc)." compiler))
          ((not (probe-file header))
           (format nil "ECL's C headers are missing (~A): the session's definitions stay interpreted (Debian: apt install libecl-dev)." header))
          ((not (ignore-errors (probe-file "SYS:cmp.fas")))
           "ECL's native compiler (cmp.fas) is missing: the session's definitions stay interpreted.")
          (t nil))))

;;; Loading the compiler. Whoever needs it first (this background compiler, ASDF compiling a
;;; library, the compile operation, the person's (REQUIRE :CMP) or COMPILE) loads it through
;;; REQUIRE; the first module provider takes a lock, so two threads never load it at once
;;; (ECL's REQUIRE has none, and loading runs its top-level forms outside
;;; MP:+LOAD-COMPILE-LOCK+). Until it is loaded, COMPILE, COMPILE-FILE, COMPILE-FILE-PATHNAME
;;; and DISASSEMBLE are ECL's autoload stubs, which LOAD "SYS:cmp" themselves: they are
;;; replaced with stubs that REQUIRE it. (Both loading it at once: the worker's COMPILE died
;;; of a segmentation violation, or of "Attempt to redefine function WITH-COMPILATION-UNIT in
;;; locked package", in 3 of 5 runs of tst_debugger.)

(defun native-compiler-loaded-p ()
  (and (member "CMP" *modules* :test #'string-equal) t))

(defun provide-native-compiler (module)
  (when (string-equal (string module) "CMP")
    (mp:with-lock (*compiler-load-lock*)
      (or (native-compiler-loaded-p)
          (let ((*load-verbose* nil))
            (prog1 (some (lambda (provider) (funcall provider module))
                         (remove 'provide-native-compiler si::*module-provider-functions*))
              ;; Whoever loaded it (ASDF on the worker...), the session's proclamations
              ;; reach it from now on.
              (ignore-errors (install-format-compilation))
              (ignore-errors (wrap-proclaim))))))))

(defun requiring-stub (name)
  "NAME's function until ECL's compiler is loaded: loads it through REQUIRE, then calls the
function the compiler defined under NAME."
  (let ((stub nil))
    (setf stub (lambda (&rest arguments)
                 (require-native-compiler)
                 (let ((loaded (fdefinition name)))
                   (when (eq loaded stub)
                     (error "Loading ECL's compiler did not define ~S." name))
                   (apply loaded arguments))))))

(defun install-compiler-provider ()
  (pushnew 'provide-native-compiler si::*module-provider-functions*)
  (unless (native-compiler-loaded-p)
    (let ((si::*ignore-package-locks* t))
      (dolist (name '(compile compile-file compile-file-pathname disassemble))
        (setf (fdefinition name) (requiring-stub name))))))

(defun ensure-native-compiler ()
  "Loads ECL's compiler if nobody has, then puts the proclamation recorder back around
PROCLAIM (the compiler brings its own)."
  (unless (native-compiler-loaded-p)
    (let ((*standard-output* (make-broadcast-stream)))
      (require-native-compiler)))
  (install-format-compilation)
  (wrap-proclaim))

;;; FORMAT with a constant control string. ECL's FORMAT reads the directives of its control
;;; string on every call, compiled or not: (format nil "k~D" i) cost 3.5 us a call here, the
;;; same under COMPILE as bytecoded. FORMATTER turns a control string into code once (ECL's own
;;; directive compiler, the same output and errors); the session's definitions are compiled
;;; with (format d "..." args) read as (format d (formatter "...") args): 1.7 us a call. Only
;;; while the background compiler translates them: ASDF's and the person's COMPILE-FILE are
;;; left as ECL compiles them.

(defvar *compiling-session-code* nil "True while the native compiler translates the session's code.")

(defun simple-control-string-p (control)
  "True when CONTROL has only ~A ~S ~D ~B ~O ~X ~% ~& ~~ directives, without parameters or
modifiers: FORMATTER's code for those compiles without remarks. (For ~{ and ~[ it makes code
ECL's compiler warns about, and a warning keeps a definition interpreted.)"
  (loop for at = (position #\~ control) then (position #\~ control :start (+ at 2))
        while at
        always (and (< (1+ at) (length control))
                    (find (char control (1+ at)) "AaSsDdBbOoXx%&~"))))

(defun compile-format-control (form environment)
  (declare (ignore environment))
  (if (and *compiling-session-code* (consp form) (consp (cdr form)) (consp (cddr form))
           (stringp (third form)) (simple-control-string-p (third form)))
      (list* (first form) (second form) (list 'formatter (third form)) (cdddr form))
      form))

(defun install-format-compilation ()
  (unless (compiler-macro-function 'format)
    (let ((si::*ignore-package-locks* t))
      (setf (compiler-macro-function 'format) #'compile-format-control))))

(defun c-symbol (name)
  (or (find-symbol name "C") (error "ECL's compiler has no ~A." name)))

(defun c-call (name &rest arguments)
  (apply (c-symbol name) arguments))

(defvar *compiler-environment-caller* nil)

(defun call-in-compiler-environment (thunk)
  "Runs THUNK as COMPILE runs its translation (ECL's WITH-COMPILER-ENV: its handlers, its
fresh compiler state, MP:+LOAD-COMPILE-LOCK+); returns the conditions the compiler kept."
  (funcall (or *compiler-environment-caller*
               (setf *compiler-environment-caller*
                     (coerce `(lambda (thunk)
                                (let ((conditions nil))
                                  (,(c-symbol "WITH-COMPILER-ENV") (conditions) (funcall thunk))
                                  conditions))
                             'function)))
           thunk))

;;; Where a batch's files live: a directory of this engine's own (mode 0700), swept when an
;;; engine starts compiling (one killed while gcc ran leaves its files).

(defvar *native-directory* nil)
(defvar *native-batch-counter* 0)
(defvar *native-files-lock* (mp:make-lock :name "lisp-duet native files")
  "The background compiler and a native time job (on the worker) both make batches.")

(defun temporary-root ()
  (directory-text (let ((tmp (ext:getenv "TMPDIR"))) (if (and tmp (plusp (length tmp))) tmp "/tmp"))))

(defun remove-native-directory (directory)
  (ignore-errors
   (dolist (file (directory (merge-pathnames "*.*" directory)))
     (delete-file file))
   (si::rmdir directory)))

(defun native-directory-owner (name)
  "The process id in NAME when NAME is one this engine's kind makes, lisp-duet-native-PID-XXXXXX,
else NIL: a folder of somebody else's that merely starts the same way (a test's mkdtemp
lisp-duet-native-9Lbnwt) is never taken for an engine's."
  (let* ((start (length "lisp-duet-native-"))
         (dash (position #\- name :start (min start (length name)))))
    (when (and dash (> dash start) (< (1+ dash) (length name))
               (every #'digit-char-p (subseq name start dash)))
      (parse-integer name :start start :end dash))))

(defun sweep-stale-native-directories ()
  "Removes the batch directories of engines that no longer run (killed: an engine that ends
normally removes its own)."
  (dolist (directory (ignore-errors (directory (concatenate 'string (temporary-root) "lisp-duet-native-*/"))))
    (let ((pid (native-directory-owner (car (last (pathname-directory directory))))))
      (when (and pid (/= pid (%process-id)) (not (ext:file-kind (format nil "/proc/~D" pid) nil)))
        (remove-native-directory directory)))))

(defun native-directory ()
  (mp:with-lock (*native-files-lock*)
   (or *native-directory*
      (progn
        (sweep-stale-native-directories)
        (setf *native-directory*
              (let ((made (mp:without-interrupts
                            (%make-private-directory
                             (format nil "~Alisp-duet-native-~D-" (temporary-root) (%process-id))))))
                (and made (directory-text made))))
        (when *native-directory*
          (let ((made *native-directory*))
            (push (lambda () (remove-native-directory made)) si::*exit-hooks*)))
        *native-directory*)
      (error "Could not make a private directory for native compilation under ~A." (temporary-root)))))

(defun next-batch-base ()
  (let ((directory (native-directory)))
    (format nil "~Abatch-~D" directory
            (mp:with-lock (*native-files-lock*) (incf *native-batch-counter*)))))

;;; gcc, run without changing the working directory, its output kept for the reason.

(defun c-compiler-arguments (c-file shared-object)
  "One gcc run from C to the shared object (ECL runs it twice: object, then link). The
libraries are already in the engine: the dynamic loader finds their symbols there."
  (append (rest (words *native-c-compiler*))
          (list (concatenate 'string "-I" *native-include-directory*))
          ;; ECL's own flags, without -g: nobody reads debug info of these objects.
          (remove "-g" (words (symbol-value (c-symbol "*CC-FLAGS*"))) :test #'string=)
          (words (symbol-value (c-symbol "*CC-OPTIMIZE*")))
          (list "-shared" "-o" shared-object c-file)))

(defconstant +c-compiler-niceness+ 10
  "gcc yields the processor to the worker and the host: it is background work.")

(defun run-c-compiler (c-file shared-object)
  "NIL when gcc made SHARED-OBJECT, else what went wrong (its output, shortened)."
  (multiple-value-bind (stream code process)
      (let ((nice (find-on-path "nice"))
            (program (first (words *native-c-compiler*)))
            (arguments (c-compiler-arguments c-file shared-object)))
        (if nice
            (ext:run-program nice (list* "-n" (princ-to-string +c-compiler-niceness+) program arguments)
                             :input nil :output :stream :error :output :wait nil)
            (ext:run-program program arguments :input nil :output :stream :error :output :wait nil)))
    (declare (ignore code))
    (let ((output (with-output-to-string (text)
                    (when stream
                      (loop for line = (read-line stream nil nil)
                            for count from 0
                            while line
                            when (< count 40) do (write-line line text))))))
      (ignore-errors (close stream))
      (multiple-value-bind (status exit-code) (ext:external-process-wait process t)
        (if (and (eq status :exited) (eql exit-code 0) (probe-file shared-object))
            nil
            (format nil "gcc failed (~(~A~) ~A): ~A" status exit-code (one-line output)))))))

;;; A batch.

(defvar *native-batch-result* nil "Bound while a batch loads: its compiled functions land here.")

(defun compiler-condition-kind (condition)
  ":error, :warning (the definition stays interpreted) or :note (it compiles; noted)."
  (cond ((typep condition (compiler-class "COMPILER-NOTE")) :note)
        ;; A free variable the session never declared: ECL's bytecode treats it as special
        ;; too, so the native code means the same.
        ((typep condition (compiler-class "COMPILER-UNDEFINED-VARIABLE")) :note)
        ((typep condition (compiler-class "COMPILER-ERROR")) :error)
        ((typep condition 'error) :error)
        ((typep condition 'warning) :warning)
        (t :note)))

(defun condition-texts (conditions kinds)
  (loop for c in (reverse conditions)
        when (member (compiler-condition-kind c) kinds)
          collect (compiler-message-text c)))

(defmacro with-compiler-bindings (&body body)
  "The dynamic state COMPILE gives its translation: constants kept as objects (ECL's
*COMPILER-CONSTANTS*, which also receives the vector of them for the loaded code), the
values of LOAD-TIME-VALUE forms, quiet."
  `(progv (list (c-symbol "*COMPILER-CONSTANTS*") (c-symbol "*LOAD-TIME-VALUES*")
                (c-symbol "*PERMANENT-DATA*") (c-symbol "*SUPPRESS-COMPILER-MESSAGES*")
                (c-symbol "*CMP-ENV-ROOT*"))
       (list t 'values t t (symbol-value (c-symbol "*CMP-ENV-ROOT*")))
     (let ((*compile-print* nil) (*compile-verbose* nil) (*print-pretty* nil)
           (*standard-output* (make-broadcast-stream))
           (*error-output* (make-broadcast-stream)))
       ,@body)))

(defvar *expanded-macros* '() "The macros the native compiler expanded for the item it translates.")

(defun expand-noting (expander form environment)
  "ECL's compiler and MACROEXPAND-1 call *MACROEXPAND-HOOK* for every expansion. A macro of
the session's own that expands into LOAD-TIME-VALUE stops the translation before ECL's
compiler evaluates that form (COMPILE's way, again: its side effects would happen twice)."
  (let ((expansion (funcall expander form environment)))
    (when (and (consp form) (symbolp (first form)))
      (pushnew (first form) *expanded-macros* :test #'eq)
      (when (and (symbol-package (first form)) (user-package-p (symbol-package (first form)))
                 (tree-contains-p expansion '(load-time-value)))
        (error "~A" *load-time-value-reason*)))
    expansion))

(defun translate-items (items findings)
  "Step 1 for ITEMS, each (FORM PACKAGE READTABLE): the top-level form of item I stores its
function at index I. Each form is translated with its own package and readtable in force
(macros that intern or read see what the definition saw). FINDINGS (a vector) receives per
item (EXPANDED-MACROS . CONDITIONS): what was expanded and signalled while it was
translated, even when one of them ends the translation."
  (c-call "DATA-INIT")
  (loop for (form package readtable) in items
        for index from 0
        do (let ((*package* package) (*readtable* readtable)
                 (*compiling-session-code* t)
                 (*macroexpand-hook* #'expand-noting)
                 (*expanded-macros* '())
                 (conditions '()))
             (unwind-protect
                  (handler-bind ((condition (lambda (c) (push c conditions))))
                    (c-call "T1EXPR" `(setf (svref *native-batch-result* ,index) ,form)))
               (setf (svref findings index) (cons *expanded-macros* conditions))))))

(defun undefined-variable-notes (conditions)
  "What the session may want to know although it compiled: free variables it never declared."
  (loop for c in (reverse conditions)
        when (typep c (compiler-class "COMPILER-UNDEFINED-VARIABLE"))
          collect (compiler-message-text c)))

(defun finding-problem (finding)
  "Why the item of FINDING does not compile, from what its translation signalled, or NIL."
  (and finding (first (condition-texts (cdr finding) '(:error :warning)))))

(defun compile-native-items (items)
  "(values functions problem findings): FUNCTIONS a vector of the items' compiled functions,
in order, or NIL with PROBLEM (a text) when the batch as a whole did not compile; FINDINGS per
item (EXPANDED-MACROS . CONDITIONS), NIL for items the translation did not reach."
  (let* ((base (next-batch-base))
         (c-file (concatenate 'string base ".c"))
         (h-file (concatenate 'string base ".eclh"))
         (data-file (concatenate 'string base ".data"))
         (shared-object (concatenate 'string base ".fas"))
         (*native-batch-result* (make-array (length items) :initial-element nil))
         (findings (make-array (length items) :initial-element nil)))
    (unwind-protect
         (with-compiler-bindings
           (let* ((init-name (c-call "COMPUTE-INIT-NAME" (pathname shared-object) :kind :fasl))
                  (conditions (call-in-compiler-environment
                               (lambda ()
                                 (translate-items items findings)
                                 ;; ECL writes the C file's #include of its header relative to
                                 ;; *DEFAULT-PATHNAME-DEFAULTS* (BRIEF-NAMESTRING), and gcc looks
                                 ;; for it beside the C file: from / or the temporary directory
                                 ;; (an app started by a launcher) it read "tmp/.../batch-1.eclh"
                                 ;; and every batch failed. From the batch's own directory it is
                                 ;; "batch-1.eclh". Only the writing sees it; macros expanded
                                 ;; above see the session's.
                                 (let ((*default-pathname-defaults* (pathname (directory-namestring c-file))))
                                   (c-call "COMPILER-PASS2" c-file h-file data-file init-name
                                           :input-designator "lisp-duet native batch")
                                   (c-call "DATA-C-DUMP" data-file)))))
                  (problem (or (first (condition-texts conditions '(:error :warning)))
                               (and (not (probe-file c-file)) "ECL's compiler wrote no C file.")
                               (run-c-compiler c-file shared-object))))
             (cond (problem (values nil problem findings))
                   (t
                    (load shared-object :verbose nil :print nil)
                    (if (every #'functionp *native-batch-result*)
                        (values *native-batch-result* nil findings)
                        (values nil "The compiled batch did not load its functions." findings))))))
      (dolist (file (list c-file h-file data-file shared-object))
        (ignore-errors (when (probe-file file) (delete-file file)))))))

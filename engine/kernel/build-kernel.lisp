;;;; Build-time driver for the kernel's Lisp, run by CMake with Debian's `ecl`:
;;;;
;;;;   ecl --norc --shell build-kernel.lisp -- compile OUTPUT.o SOURCE.lisp EARLIER.lisp...
;;;;       loads the EARLIER files (their macros and packages), then compiles SOURCE to an
;;;;       object file with COMPILE-FILE :SYSTEM-P T;
;;;;   ecl --norc --shell build-kernel.lisp -- library OUTPUT.a INIT-NAME OBJECT.o...
;;;;       wraps the objects into one static library whose C function INIT-NAME runs every
;;;;       object's top-level forms in the given order.
;;;;
;;;; Quiet unless something is wrong: any warning from our Lisp fails the build (fix it, do
;;;; not hide it); ECL's progress chatter and optimisation notes stay out of the log.

(let ((*load-verbose* nil)) (require :cmp))
(defpackage "LISP-DUET.BUILD" (:use "CL"))
(in-package "LISP-DUET.BUILD")

;; The kernel's package.lisp replaces EXT:QUIT with a refusal when it loads; keep the real one.
(defparameter *exit* (fdefinition 'ext:quit))

(defun finish (code)
  (finish-output *standard-output*)
  (finish-output *error-output*)
  (funcall *exit* code))

(defun arguments ()
  (rest (member "--" ext:*command-args* :test #'string=)))

(defun report (condition)
  (format *error-output* "~&build-kernel: ~A: ~A~%" (type-of condition) condition))

(defun compile-one (output source earlier)
  (let ((problems 0))
    (handler-bind ((warning (lambda (c)
                              ;; Notes are ECL's optimisation remarks, not defects in our code.
                              (unless (typep c 'c::compiler-note)
                                (incf problems)
                                (report c))
                              (muffle-warning c))))
      (let ((*load-verbose* nil) (*load-print* nil))
        (dolist (file earlier)
          (load file :external-format :utf-8)))
      (multiple-value-bind (object warnings-p failure-p)
          (let ((*compile-verbose* nil) (*compile-print* nil)
                (c::*suppress-compiler-messages* 'c::compiler-note)
                ;; The kernel's docstrings are for its readers, not its users: kept in the
                ;; objects, each start would read them back in (ECL reads every constant
                ;; of a compiled file when the engine starts).
                (si::*keep-documentation* nil)
                (*standard-output* (make-broadcast-stream)))
            (compile-file source :output-file output :system-p t :external-format :utf-8))
        (declare (ignore warnings-p))
        (when (or (null object) failure-p (plusp problems))
          (format *error-output* "build-kernel: ~A did not compile cleanly~%" source)
          (ignore-errors (delete-file output))
          (finish 1))))))

(defun build-library (output init-name objects)
  (let ((*standard-output* (make-broadcast-stream))
        (c::*suppress-compiler-messages* 'c::compiler-note)
        (*compile-verbose* nil))
    ;; Given a pathname, ECL writes the library exactly there (given a string, it would
    ;; make lib<string>.a of it).
    (unless (c:build-static-library (pathname output) :lisp-files objects :init-name init-name)
      (format *error-output* "build-kernel: could not build ~A~%" output)
      (finish 1))))

(handler-case
    (destructuring-bind (mode output &rest rest) (arguments)
      (cond ((string= mode "compile")
             (compile-one output (first rest) (rest rest)))
            ((string= mode "library")
             (build-library output (first rest) (rest rest)))
            (t (error "unknown mode ~S" mode)))
      (finish 0))
  (serious-condition (c)
    (report c)
    (finish 1)))

;;;; The corpus test's independent reading: ECL's own reader on a library's files, with none of
;;;; Lisp Duet's code. Run as
;;;;   ecl --norc --shell read-corpus.lisp -- OUTPUT PACKAGE-FILES LIBRARY-FILES
;;;; where PACKAGE-FILES lists (one path a line) the files whose top-level defpackage forms make
;;;; the corpus's packages, and LIBRARY-FILES the files to read. OUTPUT gets lines:
;;;;   FEATURES :A :B ...            ECL's *features*
;;;;   PACKAGE name|nick,..|use,..|SYM=HOME,..   a package the corpus uses but does not define
;;;;   FILE index                    then, for that file of LIBRARY-FILES:
;;;;   FORM start end                each datum READ returns at top level (octet offsets)
;;;;   USE count HOME NAME           symbols read, by home package ("#" uninterned), outside
;;;;                                 in-package and defpackage forms
;;;;   DEF form-index operator HOME NAME   a defining form (top level or in progn/eval-when...,
;;;;                                 or directly inside another form that defines nothing:
;;;;                                 (unless (fboundp 'x) (defun x ...)))
;;;;   ERROR offset message          the reader stopped there
;;;; #. is read, not evaluated: the form is kept, so its symbols count as read.

(defpackage "CORPUS-READER" (:use "CL"))
(in-package "CORPUS-READER")

(defvar *output*)
(defvar *corpus-packages* '() "The packages the corpus's own defpackage forms made.")
(defvar *read-eval-counts* (make-hash-table :test #'eq) "Symbols read inside #. forms.")
(defvar *read-eval-values* '() "What #. forms gave: part of the datum, but not read from the text.")

(defun lines-of (path)
  (with-open-file (in path :external-format :utf-8)
    (loop for line = (read-line in nil) while line when (plusp (length line)) collect line)))

(defun skip-to-datum (in)
  "Past whitespace and comments; false at the end of the file."
  (loop (let ((c (peek-char nil in nil :eof)))
          (cond ((eq c :eof) (return nil))
                ((member c '(#\Space #\Tab #\Newline #\Return #\Page)) (read-char in))
                ((char= c #\;) (read-line in nil))
                ((char= c #\#)
                 (let ((at (file-position in)))
                   (read-char in)
                   (unless (eql (read-char in nil) #\|)
                     (file-position in at)
                     (return t)))
                 (loop with depth = 1 and previous = nil
                       for ch = (read-char in nil :eof)
                       do (cond ((eq ch :eof) (return))
                                ((and (eql previous #\|) (eql ch #\#)) (decf depth) (setf ch nil))
                                ((and (eql previous #\#) (eql ch #\|)) (incf depth) (setf ch nil)))
                          (when (zerop depth) (return))
                          (setf previous ch)))
                ((char= c (code-char 65279)) (read-char in)) ; a byte-order mark
                (t (return t))))))

(defun corpus-readtable ()
  (let ((table (copy-readtable nil)))
    (set-dispatch-macro-character #\# #\. (lambda (stream char arg)
                                            (declare (ignore char arg))
                                            (let ((form (read stream t nil t)))
                                              (unless *read-suppress*
                                                (count-symbols form *read-eval-counts*))
                                              ;; #+#.(if ... '(:and) '(:or)) needs the value; a
                                              ;; form that cannot be evaluated here is kept.
                                              (let ((value (handler-case (eval form)
                                                             (error () (list '%read-eval form)))))
                                                (push value *read-eval-values*)
                                                value)))
                                  table)
    table))

(defun operator-p (form name)
  (and (consp form) (symbolp (car form)) (string= (symbol-name (car form)) name)))

(defun group-body (form)
  "The forms of a top-level group, or :none."
  (cond ((not (consp form)) :none)
        ((operator-p form "PROGN") (cdr form))
        ((operator-p form "LOCALLY") (cdr form))
        ((or (operator-p form "EVAL-WHEN") (operator-p form "MACROLET") (operator-p form "SYMBOL-MACROLET"))
         (and (consp (cdr form)) (cddr form)))
        (t :none)))

(defun package-form-p (form)
  (or (operator-p form "DEFPACKAGE") (operator-p form "DEFINE-PACKAGE") (operator-p form "IN-PACKAGE")))

(defun count-symbols (form counts)
  (let ((seen (make-hash-table :test #'eq)) (stack (list form)))
    (loop while stack
          do (let ((x (pop stack)))
               (cond ((null x)) ; () and the end of every list: not the symbol NIL as written
                     ((member x *read-eval-values* :test #'eq)
                      (setf *read-eval-values* (remove x *read-eval-values* :test #'eq :count 1)))
                     ((symbolp x) (incf (gethash x counts 0)))
                     ((consp x) (unless (gethash x seen)
                                  (setf (gethash x seen) t)
                                  (push (car x) stack) (push (cdr x) stack)))
                     ((and (vectorp x) (not (stringp x)) (not (bit-vector-p x)))
                      (loop for e across x do (push e stack))))))))

(defparameter *defining* '("DEFUN" "DEFMACRO" "DEFGENERIC" "DEFMETHOD" "DEFVAR" "DEFPARAMETER"
                           "DEFCONSTANT" "DEFCLASS" "DEFSTRUCT" "DEFINE-CONDITION" "DEFTYPE"
                           "DEFINE-COMPILER-MACRO" "DEFINE-SYMBOL-MACRO" "DEFINE-MODIFY-MACRO" "DEFSETF"))

(defun symbol-key (symbol)
  (format nil "~A ~A" (if (symbol-package symbol) (package-name (symbol-package symbol)) "#") (symbol-name symbol)))

(defun note-definition (form index)
  (when (and (consp form) (symbolp (car form)) (eq (symbol-package (car form)) (find-package "CL"))
             (member (symbol-name (car form)) *defining* :test #'string=) (consp (cdr form)))
    (let ((name (cadr form)))
      (when (and (consp name) (member (car form) '(defstruct)))
        (setf name (car name)))
      (cond ((symbolp name)
             (format *output* "DEF ~D ~A ~A~%" index (string-downcase (symbol-name (car form))) (symbol-key name)))
            ((and (consp name) (eq (car name) 'setf) (consp (cdr name)) (symbolp (cadr name)))
             (format *output* "DEF ~D ~A ~A~%" index (string-downcase (symbol-name (car form)))
                     (symbol-key (cadr name))))))))

(defun wrapper-p (form)
  "A form that defines nothing itself, whose direct parts may be definitions: (unless (fboundp
'x) (defun x ...)), (let (...) (defun f ...)). Not QUOTE, not a defining form's body."
  (and (consp form) (symbolp (car form)) (listp (cdr form))
       (let ((name (symbol-name (car form))))
         (not (or (member name *defining* :test #'string=)
                  (member name '("QUOTE" "FUNCTION" "DEFPACKAGE" "IN-PACKAGE" "DEFINE-PACKAGE" "QUASIQUOTE")
                          :test #'string=)
                  (and (>= (length name) 7) (string= "DEFINE-" name :end2 7)))))))

(defun note-wrapped-definitions (form index levels)
  "The definitions inside FORM when it defines nothing itself, through at most LEVELS forms
that define nothing (kmrcl: two WITHOUT-PACKAGE-LOCKS around a DEFVAR)."
  (when (and (plusp levels) (wrapper-p form))
    (loop for rest on (cdr form) while (consp rest) ; a dotted list ends early
          do (note-definition (car rest) index)
             (note-wrapped-definitions (car rest) index (1- levels)))))

(defun process-top-level (form index counts)
  "Evaluates in-package and defpackage as the compiler would, counts the other forms' symbols,
and notes definitions, inside top-level groups too."
  (let ((pending (list form)))
    (loop while pending
          do (let ((x (pop pending)))
               (cond ((operator-p x "IN-PACKAGE")
                      (eval x)) ; a package that does not exist ends the file: read in it, or not at all
                     ((package-form-p x)
                      (handler-case (eval x)
                        (error (e) (format *output* "NOTE ~A~%" (substitute #\Space #\Newline (princ-to-string e))))))
                     ((not (eq (group-body x) :none))
                      (let ((body (group-body x)))
                        ;; The group's own symbols: the operator and what comes before its forms.
                        (count-symbols (ldiff x body) counts)
                        (setf pending (append body pending))))
                     (t (note-definition x index)
                        (note-wrapped-definitions x index 3)
                        (count-symbols x counts)))))))

(defun read-library-file (path index)
  (format *output* "FILE ~D~%" index)
  (let ((*package* (find-package "CL-USER"))
        (*readtable* (corpus-readtable))
        (counts (make-hash-table :test #'eq))
        (form-index 0))
    (with-open-file (in path :external-format :utf-8)
      (handler-case
          (loop (unless (skip-to-datum in) (return))
                (let* ((start (file-position in))
                       (*read-eval-counts* (make-hash-table :test #'eq))
                       (*read-eval-values* '())
                       (form (read-preserving-whitespace in nil in)))
                  (when (eq form in) (return))
                  (format *output* "FORM ~D ~D~%" start (file-position in))
                  (process-top-level form form-index counts)
                  ;; #. inside a defpackage names packages and symbols, not uses.
                  (unless (package-form-p form)
                    (maphash (lambda (symbol count) (incf (gethash symbol counts 0) count)) *read-eval-counts*))
                  (incf form-index)))
        (error (e)
          (format *output* "ERROR ~D ~A~%" (ignore-errors (file-position in))
                  (substitute #\Space #\Newline (princ-to-string e))))))
    (maphash (lambda (symbol count) (format *output* "USE ~D ~A~%" count (symbol-key symbol))) counts)))

(defun packages-named-in (form)
  "The packages a defpackage form uses or imports from."
  (loop for option in (cddr form)
        when (and (consp option) (member (string (car option)) '("USE" "MIX" "REEXPORT" "IMPORT-FROM" "SHADOWING-IMPORT-FROM") :test #'string=))
          append (if (member (string (car option)) '("USE" "MIX" "REEXPORT") :test #'string=) (cdr option) (list (cadr option)))))

(defun ready-p (form)
  "A defpackage whose used packages exist already (else it waits for a later round, as ASDF
would have loaded them first); a macrolet is always tried."
  (or (operator-p form "MACROLET")
      (every (lambda (name) (ignore-errors (find-package (string name)))) (packages-named-in form))))

(defun make-corpus-packages (paths)
  "Evaluates the top-level defpackage forms of PATHS, rounds after rounds, until no new package
comes: a package whose :use names one not made yet waits for the next round."
  (let ((before (list-all-packages)))
    (loop repeat 10
          for made = 0
          do (dolist (path paths)
               (let ((*package* (find-package "CL-USER")) (*readtable* (corpus-readtable)))
                 (block read-file
                  (ignore-errors
                   (with-open-file (in path :external-format :utf-8)
                    (loop for form = (read in nil in) until (eq form in)
                          do (let ((pending (list form)))
                               (loop while pending
                                     do (let ((x (pop pending)))
                                          (cond ((operator-p x "IN-PACKAGE")
                                                 ;; Read on in the file's package, as loading it would
                                                 ;; (its DEFVARs intern their names there); a package
                                                 ;; not made yet ends this file's round.
                                                 (unless (ignore-errors (eval x) t)
                                                   (return-from read-file)))
                                                ((or (operator-p x "DEFPACKAGE") (operator-p x "DEFINE-PACKAGE")
                                                     ;; trivial-gray-streams makes its packages in a macrolet
                                                     (operator-p x "MACROLET"))
                                                 (let ((n (length (list-all-packages))))
                                                   (when (and (ready-p x)
                                                              (or (operator-p x "MACROLET")
                                                                  (not (find-package (string (second x)))))
                                                              (ignore-errors (eval x) t))
                                                     (incf made (- (length (list-all-packages)) n)))))
                                                ((not (eq (group-body x) :none))
                                                 (setf pending (append (group-body x) pending)))))))))))))
          while (plusp made))
    (setf *corpus-packages* (set-difference (list-all-packages) before))))

(defun print-used-packages ()
  "The corpus's packages and those they use, as a session that loaded them would tell them:
the tools take those their text does not declare (a package made by a macro, ECL's GRAY)."
  (let ((used (list* (find-package "CL-USER") (copy-list *corpus-packages*))))
    ;; And the packages those use, and so on (UIOP/COMMON-LISP under ASDF/BUNDLE).
    (loop for added = nil
          do (dolist (package used)
               (dolist (u (package-use-list package))
                 (unless (or (member u used) (eq u (find-package "CL")))
                   (push u used)
                   (setf added t))))
          while added)
    (dolist (package used)
      (let ((externals '()) (imported '()))
        (do-external-symbols (s package) (push (format nil "~A=~A" (symbol-name s) (package-name (symbol-package s))) externals))
        (do-symbols (s package)
          (when (and (symbol-package s) (not (eq (symbol-package s) package))
                     (eq (nth-value 1 (find-symbol (symbol-name s) package)) :internal))
            (push (format nil "~A=~A" (symbol-name s) (package-name (symbol-package s))) imported)))
        (format *output* "PACKAGE ~A|~{~A~^,~}|~{~A~^,~}|~{~A~^,~}|~{~A~^,~}~%" (package-name package) (package-nicknames package)
                (mapcar #'package-name (package-use-list package)) externals imported)))))

(let ((*standard-output* (make-broadcast-stream)) (*load-verbose* nil))
  (require :asdf)) ; .lisp files name asdf: and uiop: symbols

(let* ((arguments (rest (member "--" ext:*command-args* :test #'string=)))
       (output (first arguments)))
  (with-open-file (*output* output :direction :output :if-exists :supersede :external-format :utf-8)
    (format *output* "FEATURES~{ ~S~}~%" *features*)
    (make-corpus-packages (lines-of (second arguments)))
    (print-used-packages)
    (loop for path in (lines-of (third arguments)) for index from 0
          do (read-library-file path index))))
(ext:quit 0)

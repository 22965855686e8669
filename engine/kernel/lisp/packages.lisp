;;;; packages: what the session knows of packages, for the project tools' reading of names
;;;; (the host's LispPackages): its *features*, and for each package asked for that exists here
;;;; its names, the packages it uses, and its external symbols with their home packages. A
;;;; project file read as text cannot tell what a package it only uses exports. Also which of
;;;; the character names asked for (#\Name as written, without #\) ECL's reader refuses: it
;;;; knows every Unicode name (#\LATIN_SMALL_LETTER_A), which the host cannot list.

(in-package "LISP-DUET.KERNEL")

(defun package-description (package)
  (let ((externals '()) (homes '()))
    (do-external-symbols (symbol package)
      (push (symbol-name symbol) externals)
      (let ((home (symbol-package symbol)))
        (when (and home (not (eq home package)))
          (setf homes (list* (symbol-name symbol) (package-name home) homes)))))
    (obj "name" (package-name package)
         "nicknames" (package-nicknames package)
         "uses" (mapcar #'package-name (package-use-list package))
         "externals" externals
         "homes" (apply #'obj homes))))

(defun unknown-character-names (names)
  "The names of NAMES that ECL's reader refuses after #\\. Reading a character interns
nothing and evaluates nothing."
  (loop for name in names
        when (and (stringp name)
                  (not (ignore-errors
                        (let ((*read-suppress* nil) (*read-eval* nil))
                          (characterp (read-from-string (concatenate 'string "#\\" name)))))))
          collect name))

(defun packages-op (request)
  (ok-reply request
            "unknown_characters" (unknown-character-names (getf request :characters))
            "features" (loop for feature in *features*
                             when (symbolp feature) collect (symbol-name feature))
            "packages" (loop for name in (getf request :names)
                             for package = (and (stringp name) (find-package name))
                             when package collect (package-description package))))

(define-operation "packages" :service #'packages-op)

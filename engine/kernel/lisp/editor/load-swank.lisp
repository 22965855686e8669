;;;; Build time only: loads Debian's Swank from its source into the ECL that compiles the
;;;; editor's bridge (lisp/editor/*.lisp names Swank's symbols and macros), the same way
;;;; editor-listen loads it at run time (../editor.lisp). CMake passes the directory.

(lisp-duet.kernel::load-swank-sources
 (let ((directory (ext:getenv "LISP_DUET_SWANK_DIR")))
   (if (char= (char directory (1- (length directory))) #\/)
       directory
       (concatenate 'string directory "/"))))

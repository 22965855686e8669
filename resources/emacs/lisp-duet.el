;;; lisp-duet.el --- SLIME in Lisp Duet's shared session  -*- lexical-binding: t -*-

;; Part of Lisp Duet; installed with it into /usr/share/emacs/site-lisp/.
;; Load it after SLIME, e.g. in your init file:
;;
;;   (with-eval-after-load 'slime (require 'lisp-duet))
;;
;; What it adds, on a connection to Lisp Duet only (other Lisps are left alone):
;; - M-x lisp-duet-debuggers: the evaluations waiting in the session's shared debugger (an
;;   agent's, the window's, your own), one of them opened in SLDB with its restarts, frames
;;   and locals. The first answer wins, wherever it comes from: when an agent or the window
;;   answers first, the SLDB closes and says who chose what.
;; - ,quit at the REPL and M-x slime-quit-lisp: Lisp Duet keeps the shared session running
;;   and says so; the connection stays open.  (Without this file SLIME stops reading the
;;   connection as soon as it asks the Lisp to quit, before any answer: the REPL is gone and
;;   the connection is deaf until M-x slime-disconnect.)

;;; Code:

(require 'slime)
(require 'cl-lib)

(defun lisp-duet-connection-p (&optional connection)
  "True when CONNECTION (default: the current one) is to Lisp Duet's session."
  (let ((connection (or connection (slime-current-connection))))
    (and connection
         (let ((program (ignore-errors (slime-lisp-implementation-program connection))))
           (and (stringp program) (string-match-p "lisp-duet" program))))))

(defun lisp-duet--debugger-label (entry)
  "How M-x lisp-duet-debuggers names ENTRY, a plist from the session."
  (let ((origin (plist-get entry :origin)))
    (format "%d/%d %s: %s (restarts: %s)"
            (plist-get entry :job) (plist-get entry :level)
            (if (string-empty-p origin) "an evaluation" origin)
            (plist-get entry :condition)
            (mapconcat #'identity (plist-get entry :restarts) ", "))))

(defun lisp-duet-debuggers ()
  "Choose an evaluation waiting in Lisp Duet's shared debugger and open it in SLDB."
  (interactive)
  (unless (lisp-duet-connection-p)
    (user-error "Not connected to Lisp Duet (M-x slime-connect to its Swank port)"))
  (let ((entries (slime-eval '(lisp-duet.kernel::editor-debuggers))))
    (if (null entries)
        (message "Nothing waits in Lisp Duet's debugger.")
      (let* ((labels (mapcar (lambda (e) (cons (lisp-duet--debugger-label e) e)) entries))
             (chosen (if (cdr labels)
                         (cdr (assoc (completing-read "Open the debugger of: " labels nil t) labels))
                       (cdar labels))))
        (slime-eval-async `(lisp-duet.kernel::editor-open-debugger
                            ,(plist-get chosen :job) ,(plist-get chosen :level)))))))

(defun lisp-duet--quit (quit connection sentinel kill)
  "Around `slime-quit-lisp-internal': on Lisp Duet's connection, ask and show the answer,
keeping the connection; elsewhere, SLIME's own QUIT."
  (if (lisp-duet-connection-p connection)
      (let ((slime-dispatching-connection connection))
        (slime-eval-async '(swank:quit-lisp)))
    (funcall quit connection sentinel kill)))

(defun lisp-duet--repl-quit (quit &rest arguments)
  "Around the REPL's ,quit: on Lisp Duet's connection the REPL stays."
  (if (lisp-duet-connection-p)
      (slime-quit-lisp)
    (apply quit arguments)))

(advice-add 'slime-quit-lisp-internal :around #'lisp-duet--quit)
(with-eval-after-load 'slime-repl
  (advice-add 'slime-repl-quit :around #'lisp-duet--repl-quit))

(provide 'lisp-duet)
;;; lisp-duet.el ends here

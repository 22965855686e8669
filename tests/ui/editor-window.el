;;; editor-window.el --- the person's Emacs beside the window, for tests/ui/tst_editorwindow.cpp  -*- lexical-binding: t -*-
;;
;; Debian's Emacs and SLIME 2.27 in batch mode against the window's session: connect (SLIME
;; sends ~/.slime-secret by itself; HOME is the test's folder), C-c C-c on a defun, a line at
;; the REPL, then stay connected until the test writes "close" into DUET_SIGNALS (the window is
;; looked at meanwhile). Each step prints "DUET STEP text".

(require 'slime)
(slime-setup '(slime-fancy))
(setq debug-on-error nil)

(load (expand-file-name "../editor/duet-steps.el" (file-name-directory load-file-name)) nil t)

(defvar duet-compiled nil)
(add-hook 'slime-compilation-finished-hook (lambda (_notes) (setq duet-compiled slime-last-compilation-result)))

(condition-case failure
    (let ((process (slime-net-connect "127.0.0.1" (string-to-number (getenv "SWANK_PORT")))))
      (slime-setup-connection process)
      (duet-say "CONNECTED" "%s" (duet-wait (lambda () (slime-repl-buffer)) 30))
      (with-current-buffer (get-buffer-create "circles.lisp")
        (lisp-mode)
        (slime-mode 1)
        (insert "(defun area-of-circle (r)\n  \"The area of a circle of radius R.\"\n  (* pi r r))\n")
        (goto-char (point-min))
        (slime-compile-defun)
        (duet-wait (lambda () duet-compiled) 60)
        (duet-say "COMPILED" "%S" (and duet-compiled (slime-compilation-result.successp duet-compiled))))
      (with-current-buffer (slime-repl-buffer)
        (goto-char (point-max))
        (insert "(area-of-circle 2)")
        (slime-repl-return)
        (duet-wait (lambda () (string-match-p "12\\.56" (buffer-string))) 30)
        (duet-say "REPL" "%s" (and (string-match-p "12\\.56" (buffer-string)) t)))
      (duet-say "WORKED" "")
      (duet-wait (lambda () (file-exists-p (expand-file-name "close" (getenv "DUET_SIGNALS")))) 120)
      (slime-disconnect))
  (error (duet-say "ELISP-ERROR" "%S" failure)))
(duet-say "DONE" "")
(kill-emacs 0)

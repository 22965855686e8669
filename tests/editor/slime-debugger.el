;;; slime-debugger.el --- the debugger, xref and lisp-duet.el, for tests/editor/tst_slime.cpp  -*- lexical-binding: t -*-
;;
;; Debian's Emacs and SLIME 2.27 in batch mode against Swank inside lisp-duet-engine, with
;; Lisp Duet's lisp-duet.el loaded (DUET_LISP_DUET_EL): what a SLIME user does in the debugger
;; (issue 40). C-c C-k a file, an error in a function it compiled: SLDB shows the function's
;; frame with its locals, v opens the file at the definition; C-c C-w c lists the callers;
;; the inspector's evaluate; an interrupt of a request waiting inside SLDB leaves the SLDB
;; open; an agent's parked evaluation opened with M-x lisp-duet-debuggers and answered there;
;; ,quit answered without losing the connection. One "DUET STEP text" line per step.
;;
;; Environment: SWANK_PORT; DUET_SIGNALS, the folder where the test and this script leave
;; files for each other; DUET_LISP_DUET_EL, the path of lisp-duet.el.

(require 'slime)
(require 'cl-lib)
(slime-setup '(slime-fancy))
(load (getenv "DUET_LISP_DUET_EL") nil t)
(setq debug-on-error nil
      slime-load-failed-fasl 'never)

(load (expand-file-name "duet-steps.el" (file-name-directory load-file-name)) nil t)

(defun duet-signal (name)
  (expand-file-name name (getenv "DUET_SIGNALS")))

(defun duet-flat (text)
  (replace-regexp-in-string "[ \t\n]+" " " text))

(defvar duet-sldb nil "The newest SLDB buffer.")
(defvar duet-compiled nil)
(defvar duet-messages '() "What Emacs said in the echo area, newest first.")
(add-hook 'sldb-hook (lambda () (setq duet-sldb (current-buffer))))
(add-hook 'slime-compilation-finished-hook
          (lambda (_notes) (setq duet-compiled slime-last-compilation-result)))
(advice-add 'message :before (lambda (format-string &rest arguments)
                               (when format-string
                                 (push (apply #'format format-string arguments) duet-messages))))

(defun duet-eval (code)
  (slime-eval `(swank:interactive-eval ,code)))

(defun duet-sldb-frame-line (regexp)
  "Moves point in the SLDB buffer to the frame line matching REGEXP; true when found."
  (with-current-buffer duet-sldb
    (goto-char (point-min))
    (and (re-search-forward regexp nil t)
         (progn (beginning-of-line) t))))

(defun duet-session ()
  (duet-say "CONNECTED" "%s" (and (duet-wait (lambda () (slime-repl-buffer)) 30) (lisp-duet-connection-p) t))
  ;; C-c C-k a file: compiled at (debug 3) by Lisp Duet, then its fasl loaded.
  (let ((file (duet-signal "shapes.lisp")))
    (with-temp-file file
      (insert ";;; shapes.lisp\n\n"
              "(defun area (side)\n  (let ((squared (* side side)))\n    (/ squared (- side side))))\n\n"
              "(defun describe-area (s)\n  (list :area (area s)))\n"))
    (with-current-buffer (find-file-noselect file)
      (lisp-mode)
      (slime-mode 1)
      (setq duet-compiled nil)
      (slime-compile-and-load-file)
      (duet-wait (lambda () duet-compiled) 120)
      (duet-wait (lambda () (string-match-p "DESCRIBE-AREA"
                                            (or (ignore-errors (duet-eval "(fboundp 'describe-area)")) "")))
                 1)
      (duet-wait (lambda () (equal (ignore-errors (duet-eval "(fboundp 'describe-area)")) "=> T")) 30)))
  ;; The error: SLDB shows AREA's frame; its details are its locals.
  (setq duet-sldb nil)
  (slime-eval-async '(swank:interactive-eval "(describe-area 4)"))
  (duet-wait (lambda () duet-sldb) 30)
  (duet-say "SLDB" "%s" (and duet-sldb (duet-sldb-frame-line "(AREA 4)")))
  ;; What SLDB's details show (sldb-toggle-details needs a window, which batch mode has not).
  (duet-say "LOCALS" "%s" (with-current-buffer duet-sldb
                            (mapconcat (lambda (local) (format "%s = %s" (plist-get local :name) (plist-get local :value)))
                                       (car (slime-eval `(swank:frame-locals-and-catch-tags ,(sldb-frame-number-at-point))))
                                       ", ")))
  ;; v: where sldb-show-source goes (without displaying it: no window in batch mode).
  (duet-say "SOURCE" "%s" (let ((location (with-current-buffer duet-sldb
                                            (slime-eval `(swank:frame-source-location ,(sldb-frame-number-at-point))))))
                            (save-current-buffer
                              (slime-goto-source-location location)
                              (format "%s:%d" (file-name-nondirectory (or buffer-file-name "?")) (line-number-at-pos)))))
  ;; An evaluation from the SLDB waits its turn (the test holds it); C-c C-c interrupts it:
  ;; only it ends, the SLDB stays.
  (with-temp-file (duet-signal "hold") (insert "yes"))
  (duet-wait (lambda () (file-exists-p (duet-signal "holding"))) 30)
  (with-current-buffer duet-sldb
    (slime-eval-async '(swank:eval-string-in-frame "(+ 1 1)" 0 "COMMON-LISP-USER") #'ignore)
    (duet-wait (lambda () (file-exists-p (duet-signal "held"))) 30)
    (slime-interrupt))
  (duet-wait (lambda () (cl-some (lambda (m) (string-match-p "did not run it" m)) duet-messages)) 10)
  (accept-process-output nil 0.5)
  (duet-say "SLDB-AFTER-INTERRUPT" "%s" (buffer-live-p duet-sldb))
  (duet-say "AGENT-LOOKED" "%s" (duet-wait (lambda () (file-exists-p (duet-signal "agent-looked"))) 60))
  (with-current-buffer duet-sldb (sldb-quit))
  (duet-wait (lambda () (not (buffer-live-p duet-sldb))) 30)
  ;; C-c C-w c: who calls AREA.
  (slime-who-calls "area")
  (duet-say "XREF" "%s" (duet-wait (lambda ()
                                     (let ((buffer (get-buffer "*slime-xref*")))
                                       (and buffer (with-current-buffer buffer
                                                     (and (string-match-p "DESCRIBE-AREA" (buffer-string))
                                                          (duet-flat (buffer-substring-no-properties (point-min) (point-max))))))))
                                   30))
  ;; The inspector: C-c I, then its e.
  (slime-inspect "(list 1 2 3)")
  (duet-wait (lambda () (get-buffer (slime-buffer-name :inspector))) 30)
  (duet-say "INSPECTOR-EVAL" "%s" (slime-eval '(swank:inspector-eval "(length *)")))
  ;; An agent's evaluation waits in the shared debugger: M-x lisp-duet-debuggers opens it.
  (with-temp-file (duet-signal "want-agent") (insert "yes"))
  (duet-wait (lambda () (file-exists-p (duet-signal "agent-parked"))) 60)
  (setq duet-sldb nil)
  (lisp-duet-debuggers)
  (duet-wait (lambda () duet-sldb) 30)
  (duet-say "AGENT-SLDB" "%s" (and duet-sldb (with-current-buffer duet-sldb
                                               (buffer-substring-no-properties (point-min) (line-end-position)))))
  (with-current-buffer duet-sldb (sldb-invoke-restart 0))
  (duet-say "AGENT-SLDB-CLOSED" "%s" (duet-wait (lambda () (not (buffer-live-p duet-sldb))) 30))
  ;; ,quit: Lisp Duet keeps running and says so; the REPL and the connection stay.
  (setq duet-messages '())
  (with-current-buffer (slime-repl-buffer) (slime-repl-quit))
  (duet-say "QUIT" "%s" (duet-wait (lambda () (cl-find-if (lambda (m) (string-match-p "Lisp Duet keeps this Lisp running" m))
                                                          duet-messages))
                                   10))
  (duet-say "AFTER-QUIT" "%s %s" (and (slime-repl-buffer) t) (duet-eval "(+ 20 22)"))
  (slime-disconnect))

(condition-case failure
    (let* ((port (string-to-number (getenv "SWANK_PORT")))
           (process (slime-net-connect "127.0.0.1" port)))
      (slime-setup-connection process)
      (duet-session))
  (error (duet-say "ELISP-ERROR" "%S" failure)))
(duet-say "DONE" "")
(kill-emacs 0)

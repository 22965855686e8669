;;; slime-session.el --- the person's editor, for tests/editor/tst_slime.cpp  -*- lexical-binding: t -*-
;;
;; Debian's Emacs and SLIME 2.27 in batch mode against Swank inside lisp-duet-engine: connect
;; (SLIME sends ~/.slime-secret by itself; HOME is the test's folder), then what a person does:
;; C-x C-e, call an agent's function, C-c C-c, C-c C-k, the REPL, an error in SLDB (left open
;; until the test, standing in for an agent, has seen it in the shared debugger), q.
;; Every step prints one line "DUET STEP text" that the test reads.
;;
;; Environment: SWANK_PORT; DUET_SIGNALS, the folder where the test writes "agent-looked";
;; DUET_EXPECT_REFUSED=1: only connect, and say whether the connection was closed.

(require 'slime)
(require 'cl-lib)
(slime-setup '(slime-fancy))
(setq debug-on-error nil
      slime-load-failed-fasl 'never)

(load (expand-file-name "duet-steps.el" (file-name-directory load-file-name)) nil t)

(defun duet-signal-p (name)
  (file-exists-p (expand-file-name name (getenv "DUET_SIGNALS"))))

(defvar duet-sldb nil "The SLDB buffer, once one opened.")
(defvar duet-compiled nil "The result of the last compilation.")
(add-hook 'sldb-hook (lambda () (setq duet-sldb (current-buffer))))
(add-hook 'slime-compilation-finished-hook
          (lambda (_notes) (setq duet-compiled slime-last-compilation-result)))

(defun duet-eval (code)
  "C-x C-e of CODE: SLIME's interactive evaluation, answered in the echo area."
  (slime-eval `(swank:interactive-eval ,code)))

(defun duet-repl (code)
  "Types CODE at the REPL's prompt and RET; the REPL's text once the next prompt came."
  (with-current-buffer (slime-repl-buffer)
    (let ((prompts (how-many "CL-USER> " (point-min) (point-max))))
      (goto-char (point-max))
      (insert code)
      (slime-repl-return)
      (duet-wait (lambda () (> (how-many "CL-USER> " (point-min) (point-max)) prompts)) 30)
      (buffer-substring-no-properties (point-min) (point-max)))))

(defun duet-session (process)
  (duet-say "CONNECTED" "%s" (duet-wait (lambda () (slime-repl-buffer)) 30))
  (duet-say "EVAL" "%s" (duet-eval "(+ 1 2)"))
  (duet-say "AGENT" "%s" (duet-eval "(agent-fn 2)"))
  ;; C-c C-c on a defun in a Lisp buffer.
  (with-current-buffer (get-buffer-create "duet-buffer.lisp")
    (lisp-mode)
    (slime-mode 1)
    (insert "(defun emacs-compiled (x) (* x 3))\n")
    (goto-char (point-min))
    (setq duet-compiled nil)
    (slime-compile-defun)
    (duet-wait (lambda () duet-compiled) 60)
    (duet-say "COMPILED" "%S" (and duet-compiled (slime-compilation-result.successp duet-compiled))))
  (duet-say "CALL" "%s" (duet-eval "(list (emacs-compiled 5) (compiled-function-p #'emacs-compiled))"))
  ;; C-c C-k on a file: compiled, then its fasl loaded (two requests, two jobs).
  (let ((file (expand-file-name "duet-file.lisp" (getenv "DUET_SIGNALS"))))
    (with-temp-file file (insert "(defun from-emacs-file () :file)\n"))
    (with-current-buffer (find-file-noselect file)
      (lisp-mode)
      (slime-mode 1)
      (setq duet-compiled nil)
      (slime-compile-and-load-file)
      (duet-wait (lambda () duet-compiled) 60)
      (duet-wait (lambda () (string-match-p ":FILE" (or (ignore-errors (duet-eval "(ignore-errors (from-emacs-file))")) ""))) 30)
      (duet-say "FILE" "%s" (duet-eval "(from-emacs-file)"))))
  (duet-say "REPL" "%S" (let ((text (duet-repl "(progn (format t \"said ~A~%\" :hello) (* 6 7))")))
                          (if (and (string-match-p "said HELLO" text) (string-match-p "^42$" text)) t text)))
  ;; An error: SLDB here, the shared debugger there; q once an agent has seen it.
  (setq duet-sldb nil)
  (slime-eval-async '(swank:interactive-eval "(error \"from the editor\")"))
  (duet-wait (lambda () duet-sldb) 30)
  (duet-say "SLDB-OPEN" "%s" (and duet-sldb (with-current-buffer duet-sldb
                                               (buffer-substring-no-properties (point-min) (line-end-position)))))
  (duet-say "AGENT-LOOKED" "%s" (duet-wait (lambda () (duet-signal-p "agent-looked")) 60))
  (with-current-buffer duet-sldb (sldb-quit))
  (duet-say "SLDB-CLOSED" "%s" (duet-wait (lambda () (not (buffer-live-p duet-sldb))) 30))
  (duet-say "AFTER" "%s" (duet-eval "(+ 20 22)"))
  (slime-disconnect)
  (ignore process))

(condition-case failure
    (let* ((port (string-to-number (getenv "SWANK_PORT")))
           (process (slime-net-connect "127.0.0.1" port)))
      (if (getenv "DUET_EXPECT_REFUSED")
          (progn
            ;; The refusal closes the socket after SLIME's first message: a later write of
            ;; SLIME's can meet the reset ("Writing to process: Connection reset by peer"),
            ;; which is the refusal too.
            (condition-case nil
                (progn (slime-setup-connection process)
                       (slime-eval-async '(swank:connection-info)))
              (file-error nil))
            (duet-say "CLOSED" "%s" (duet-wait (lambda () (not (process-live-p process))) 20)))
        (slime-setup-connection process)
        (duet-session process)))
  (error (duet-say "ELISP-ERROR" "%S" failure)))
(duet-say "DONE" "")
(kill-emacs 0)

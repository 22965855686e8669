;;;; The person's own editor (SLIME, and the other clients of Swank) in the shared session:
;;;; the kernel's half, which needs no Swank. Swank itself (Debian's cl-swank, loaded from its
;;;; source when the host asks for it with editor-listen) and the bridge that hooks into it
;;;; (swank/*.lisp, a library of its own, compiled at build time against Swank) hand every
;;;; request that evaluates code to the host as an "editor-request" event; the host queues it
;;;; as an ordinary job carrying "editor_request", so it runs on the worker in order with the
;;;; window's and the agents' jobs, and the editor's Swank thread waits for that job:
;;;;
;;;;   Swank thread                    host (Session)                worker
;;;;   NEW-EDITOR-REQUEST ─ event ──►  queues a job  ─ eval ───────►  RUN-EDITOR-JOB
;;;;   waits in its mailbox  ◄─────────────────────── (:lisp-duet :done), :parked, :unparked
;;;;
;;;; The job runs the body the bridge gave for the request (its values kept for the editor to
;;;; print as Swank would); an error parks it in the shared debugger, and the editor's thread
;;;; opens its own SLDB on the same level. Questions that run no user code (completion,
;;;; arglists, M-., describe, the inspector) stay with Swank.

(in-package "LISP-DUET.KERNEL")

;; A request of the person's editor, from the moment Swank hands it over until the job that
;; serves it ends: the host queues that job like any other.
(define-record (editor-request :inline nil) ; read at every start; seldom called
  id            ; its number: the host's job carries it as "editor_request"
  editor        ; the number of the editor's connection
  kind          ; what the editor asked for: "listener-eval", "interactive-eval", ...
  notify        ; a function of one message: posts it to the Swank thread that waits
  body          ; a function of the job's own body: the body the job runs instead
  keep-package  ; whether an IN-PACKAGE of the code changes the session package
  (state :queued) ; :queued, :running, :parked, :done, or :dropped
  job-id        ; the host's id of the job that serves it
  values        ; the values of its last form, for the editor to print
  final-package ; *PACKAGE* where its code left it
  reply)        ; the job's reply

(defvar *editor-requests* (make-hash-table) "Number -> EDITOR-REQUEST, until its job ends.")
(defvar *editor-lock* (mp:make-lock :name "lisp-duet editor requests"))
(defvar *editor-request-counter* 0)

(defun notify-editor (entry &rest message)
  "Posts (:LISP-DUET number . MESSAGE) to the Swank thread waiting on ENTRY; never fails the
caller. The number lets a thread that waits on two requests (one nested in the other's
debugger level) take each message in turn."
  (ignore-errors
   (funcall (editor-request-notify entry)
            (list* :lisp-duet (editor-request-id entry) message))))

(defun new-editor-request (&key editor kind fields notify body keep-package)
  "Registers what an editor asked for and tells the host, whose job for it will carry
\"editor_request\". FIELDS are the request the host sends (\"op\" \"eval\" \"code\" ...).
Called from the Swank thread that then waits; returns the EDITOR-REQUEST."
  (let ((entry (make-editor-request :editor editor :kind kind :notify notify :body body
                                    :keep-package keep-package)))
    (mp:with-lock (*editor-lock*)
      (setf (editor-request-id entry) (incf *editor-request-counter*)
            (gethash (editor-request-id entry) *editor-requests*) entry))
    (send-event "editor-request"
                "editor_request" (editor-request-id entry)
                "editor" editor
                "kind" kind
                "request" (apply #'obj (append fields (list "editor_request" (editor-request-id entry)))))
    entry))

(defun claim-editor-request (number job-id)
  "The waiting request NUMBER, now marked running as job JOB-ID; NIL when it is gone."
  (mp:with-lock (*editor-lock*)
    (let ((entry (gethash number *editor-requests*)))
      (when (and entry (eq (editor-request-state entry) :queued))
        (setf (editor-request-state entry) :running
              (editor-request-job-id entry) job-id)
        entry))))

(defun finish-editor-request (entry reply)
  "ENTRY's job ended with REPLY (NIL: it was cut short by a debugger level it ran in)."
  (mp:with-lock (*editor-lock*)
    (setf (editor-request-state entry) :done
          (editor-request-reply entry) reply)
    (remhash (editor-request-id entry) *editor-requests*))
  (notify-editor entry :done))

(defun drop-editor-request (number reason)
  "Forgets a request no job has begun for, answering its editor; true when there was one."
  (let ((entry (mp:with-lock (*editor-lock*)
                 (let ((entry (gethash number *editor-requests*)))
                   (when (and entry (eq (editor-request-state entry) :queued))
                     (setf (editor-request-state entry) :dropped)
                     (remhash number *editor-requests*)
                     entry)))))
    (when entry
      (notify-editor entry :dropped reason)
      t)))

(defun editor-requests-of (editor)
  "The requests of the editor connection EDITOR not finished yet."
  (mp:with-lock (*editor-lock*)
    (loop for entry being the hash-values of *editor-requests*
          when (eql (editor-request-editor entry) editor) collect entry)))

(defun editor-request-gone-reply (id number)
  (nconc (job-reply id "failed" :package (package-name *session-package*)
                    :error (error-object "EDITOR-REQUEST-GONE"
                                         (format nil "The editor's request ~A is gone (its editor disconnected, or it was dropped) before this job began: nothing was evaluated." number)
                                         "kernel"))
         (list "editor_request" number)))

(defun run-editor-job (request body keep-package number)
  "RUN-JOB for a job that serves the editor's request NUMBER: the body the bridge gave for
it, and the editor answered whatever happens, even when a debugger level the job runs in is
left under it."
  (let ((entry (claim-editor-request number (getf request :id)))
        (reply nil))
    (unless entry
      (return-from run-editor-job (editor-request-gone-reply (getf request :id) number)))
    (unwind-protect
         (setf reply (nconc (run-job-for request (funcall (editor-request-body entry) body)
                                         (if (editor-request-keep-package entry) t keep-package)
                                         entry)
                            (list "editor_request" number)))
      (finish-editor-request entry reply))))

(defun editor-job-parked (entry level condition)
  "The job of ENTRY parked at LEVEL (debugger.lisp): its editor opens its debugger there."
  (setf (editor-request-state entry) :parked)
  (notify-editor entry :parked level condition))

(defun editor-job-unparked (entry level)
  (setf (editor-request-state entry) :running)
  (notify-editor entry :unparked level))

(defun editor-drop (request)
  "The host will not run the editor's request (cancelled while queued): the editor is told."
  (ok-reply request "dropped" (if (drop-editor-request (getf request :editor_request)
                                                       (or (getf request :reason) "It was cancelled before it ran."))
                                  t :false)))

(define-operation "editor-drop" :supervisor #'editor-drop)

(defun editor-message (request)
  "A line in the editors' echo area (all of them, or the one \"editor\" names): how the host
tells the person in the editor what happens elsewhere (an agent's evaluation waits in the
debugger; answer it in the window)."
  (let ((text (getf request :text)))
    (if (stringp text)
        (ok-reply request "sent" (if (fboundp 'editor-background-message)
                                     (funcall 'editor-background-message text (getf request :editor))
                                     0))
        (failed-reply (getf request :id) "BAD-REQUEST" "editor-message needs a \"text\"."))))

(define-operation "editor-message" :supervisor #'editor-message)

;;; The session's compilation policy. Swank's ECL backend (swank/ecl.lisp) proclaims
;;; (OPTIMIZE (DEBUG 3)) when it loads: ECL's C::*DEBUG* went from 0 to 3, and native code
;;; compiled afterwards ran 1.6 times slower. Loading Swank keeps the policy as it was.

(defparameter *policy-variables*
  '("*SAFETY*" "*SPEED*" "*DEBUG*" "*SPACE*" "*COMPILATION-SPEED*"))

(defun compilation-policy ()
  "((symbol . value) ...) of ECL's compiler policy (the compiler is loaded first)."
  (loop for name in *policy-variables*
        for symbol = (find-symbol name "C")
        when (and symbol (boundp symbol)) collect (cons symbol (symbol-value symbol))))

(defun restore-compilation-policy (policy)
  (loop for (symbol . value) in policy do (setf (symbol-value symbol) value)))

;;; Swank, from Debian's source: the ECL bytecodes compiler reads it in about half a second
;;; (the core, then the contribs SLIME asks for), where compiling it natively took a minute.
;;; Swank's own work (completion, arglists, the inspector) is a few times slower so; an editor
;;; does not notice (tests/bench, "editor").

(defparameter *swank-core-files*
  '("packages" "swank/backend" "swank/ecl" "swank/gray" "swank/match" "swank/rpc" "swank"))

(defparameter *swank-preloaded-contribs*
  '("SWANK-UTIL" "SWANK-REPL" "SWANK-C-P-C" "SWANK-ARGLISTS" "SWANK-FUZZY" "SWANK-FANCY-INSPECTOR"
    "SWANK-PRESENTATIONS" "SWANK-PACKAGE-FU" "SWANK-TRACE-DIALOG" "SWANK-INDENTATION" "SWANK-MACROSTEP")
  "The contribs of SLIME's usual setup (slime-fancy), loaded with Swank, so that a connection
does not wait while its first request loads them.")

(defun swank-version (directory)
  (with-open-file (in (concatenate 'string directory "slime-version") :if-does-not-exist nil)
    (or (and in (string-trim " " (read-line in nil ""))) "unknown")))

(defun define-swank-loader-package (directory)
  "What Swank expects of swank-loader.lisp, which is not loaded: its package and variables."
  (let ((package (or (find-package "SWANK-LOADER") (make-package "SWANK-LOADER" :use '("CL")))))
    (dolist (entry `(("*SOURCE-DIRECTORY*" ,(pathname directory)) ("*FASL-DIRECTORY*" nil)
                     ("*STARTED-FROM-EMACS*" nil)))
      (let ((symbol (intern (first entry) package)))
        (proclaim `(special ,symbol))
        (unless (boundp symbol) (setf (symbol-value symbol) (second entry)))
        (export symbol package)))))

(defun load-swank-sources (directory)
  "Loads Swank and its usual contribs from DIRECTORY (with its final /) unless loaded, and
leaves the compiler's policy as it was (at build time, the bridge is compiled after this)."
  (unless (find-package "SWANK")
    (let ((*recording-loads* nil) (*load-verbose* nil) (*load-print* nil)
          (*compile-verbose* nil) (*compile-print* nil)
          (*package* (find-package "CL-USER"))
          (*standard-output* (make-broadcast-stream))
          (*error-output* (make-broadcast-stream))
          (*trace-output* (make-broadcast-stream)))
      (handler-bind ((warning #'muffle-warning))
        ;; swank/ecl.lisp names the compiler's conditions when it is read.
        (require-native-compiler)
        (let ((policy (compilation-policy)))
          (unwind-protect
               (progn
                 (define-swank-loader-package directory)
                 (dolist (file *swank-core-files*)
                   (load (concatenate 'string directory file ".lisp") :external-format :utf-8))
                 (funcall (find-symbol "BEFORE-INIT" "SWANK") (swank-version directory)
                          (list (concatenate 'string directory "contrib/")))
                 (funcall (find-symbol "SWANK-REQUIRE" "SWANK")
                          (mapcar (lambda (name) (intern name "KEYWORD")) *swank-preloaded-contribs*)))
            (restore-compilation-policy policy)))))))

;;; The secret. Swank's only authentication is SLIME's ~/.slime-secret: a client must send its
;;; first line first. Without it a loopback port lets any local user evaluate code in the
;;; person's session, so the server is never opened without one that only the person can read.

(defun file-mode-and-owner (path)
  "(values permission-bits owned-by-us-p kind) of PATH, or NIL when it cannot be read."
  (multiple-value-bind (mode mine regular) (mp:without-interrupts (%file-status path))
    (and mode (values mode mine (if regular :file :other)))))

(defun default-secret-file ()
  (namestring (merge-pathnames ".slime-secret" (user-homedir-pathname))))

(defun secret-instructions (file)
  (format nil "Make one that only you can read, then connect again (SLIME sends it by itself): ~
               (umask 077; head -c 24 /dev/urandom | base64 > ~A)" file))

(defun read-editor-secret (file)
  "(values secret problem): the first line of FILE, as bytes (one character per byte), if only
its owner, the person, can read it."
  (multiple-value-bind (mode mine kind) (file-mode-and-owner file)
    (cond ((null mode)
           (values nil (format nil "There is no ~A: without a secret, any local user could evaluate code in your session through the editor's port, so it stays closed. ~A"
                               file (secret-instructions file))))
          ((not (eq kind :file))
           (values nil (format nil "~A is not a regular file. ~A" file (secret-instructions file))))
          ((not mine)
           (values nil (format nil "~A belongs to another user: it cannot be your secret." file)))
          ((plusp (logand mode #o077))
           (values nil (format nil "~A can be read by other users (mode ~3,'0O): anyone who reads it could evaluate code in your session. Make it yours alone: chmod 600 ~A"
                               file mode file)))
          (t
           ;; As SLIME reads and sends it: the first line, nothing trimmed (engine/swankwire).
           (let ((line (mp:without-interrupts (%secret-line file))))
             (cond ((null line)
                    (values nil (format nil "~A could not be read, or its first line is longer than any secret (4096 bytes). ~A"
                                        file (secret-instructions file))))
                   ((plusp (length line))
                    (values line nil))
                   (t
                    (values nil (format nil "~A is empty. ~A" file (secret-instructions file))))))))))

;;; editor-listen: Swank's server, on the loopback interface only. It runs on the worker, in
;;; order with the jobs: loading Swank proclaims, and the policy is put back before any job
;;; compiles again.

(defvar *editor-server* nil "(port . secret-file) once the server listens.")

(defun editor-listen (request)
  (let* ((id (getf request :id))
         (port (getf request :port 0))
         (token (getf request :descriptor_token))
         (descriptor (getf request :fd))
         (secret-file (or (getf request :secret_file) (default-secret-file)))
         (directory (let ((built (%swank-directory))) (and built (directory-text built)))))
    (when *editor-server*
      (return-from editor-listen
        (ok-reply request "listening" t "already" t "address" "127.0.0.1"
                  "port" (car *editor-server*) "secret_file" (cdr *editor-server*))))
    (unless (and (integerp port) (<= 0 port 65535))
      (return-from editor-listen
        (failed-reply id "BAD-REQUEST" "editor-listen needs a \"port\" from 0 (any free port) to 65535.")))
    (unless (or (null descriptor) (and (integerp descriptor) (<= 0 descriptor 65535)))
      (return-from editor-listen
        (failed-reply id "BAD-REQUEST" "editor-listen's \"fd\", when given, is the descriptor of the listening socket the host passed.")))
    (when (stringp token)
      ;; The port the host holds, passed on the descriptor channel just before this request.
      (setf descriptor (mp:without-interrupts (%receive-descriptor token 10000)))
      (unless descriptor
        (return-from editor-listen
          (failed-reply id "EDITOR-PORT" "The listening socket the host holds for the editor did not reach this engine (its descriptor channel was empty): Swank is not listening. Turn Swank off and on again, or restart Lisp Duet."))))
    (unless directory
      (return-from editor-listen
        (failed-reply id "SWANK-UNAVAILABLE" "This engine was built without Swank (Debian's cl-swank was not installed at build time): install cl-swank and build again.")))
    (multiple-value-bind (secret problem) (read-editor-secret secret-file)
      (declare (ignore secret))
      (when problem
        (return-from editor-listen (failed-reply id "EDITOR-NO-SECRET" problem))))
    (let ((start (%monotonic-us))
          (packages-before (list-all-packages))
          (policy (progn (let ((*standard-output* (make-broadcast-stream)))
                           (require-native-compiler))
                         (compilation-policy))))
      (unwind-protect
           (progn
             ;; Swank is library code, as a load-system's is: its hundreds of definitions are
             ;; not the session's, and are not handed to the native compiler (they kept gcc
             ;; busy for seconds after every engine start with --swank).
             (without-noting-definitions
               (load-swank-sources directory))
             ;; What Swank brought (SB-BSD-SOCKETS from ECL's sockets module...) is library
             ;; code, as a load-system's packages are: not the session's own definitions.
             (setf *system-packages* (union *system-packages*
                                            (set-difference (list-all-packages) packages-before)))
             ;; The bridge's compiled IN-PACKAGE sets *PACKAGE*: bound here, not the global.
             (let ((*package* *package*))
               (%init-swank-bridge))
             (restore-compilation-policy policy)
             (multiple-value-bind (listening problem)
                 (funcall 'start-editor-server port secret-file policy descriptor)
               (if problem
                   (failed-reply id "EDITOR-PORT" problem)
                   (progn
                     (setf *editor-server* (cons listening secret-file))
                     (ok-reply request "listening" t "already" :false "address" "127.0.0.1"
                               "port" listening "secret_file" secret-file
                               "swank_version" (swank-version directory)
                               "load_ms" (round (- (%monotonic-us) start) 1000))))))
        (restore-compilation-policy policy)))))

(define-operation "editor-listen" :worker #'editor-listen)

(defun editor-close (request)
  "Stops listening and closes every editor's connection (the window's setting turned off)."
  (let ((port (car *editor-server*)))
    (when port
      (funcall 'stop-editor-server port)
      (setf *editor-server* nil))
    (ok-reply request "closed" (if port t :false))))

(define-operation "editor-close" :worker #'editor-close)

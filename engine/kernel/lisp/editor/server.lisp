;;;; The bridge between Swank and the session, first file: Swank's server inside the engine.
;;;; The bridge (lisp/editor/*.lisp) is a library of its own, compiled at build time against
;;;; Debian's Swank and initialized once editor-listen has loaded Swank (../editor.lisp).
;;;;
;;;; Swank is told to keep to its own: no global debugger hook (the engine's parks jobs), no
;;;; log on the job's streams, loopback only, one thread per connection (:spawn). Its threads
;;;; work in CL-USER, and what they load (contribs an editor asks for) is not the session's
;;;; work. A client must send the person's secret first, within +HANDSHAKE-SECONDS+; each is
;;;; authenticated on a thread of its own, so one that never speaks delays nobody.

(in-package "LISP-DUET.KERNEL")

(defvar *in-swank-thread* nil "True in the threads Swank starts (SPAWN-IN-SESSION binds it).")
(defvar *editor-secret-file* nil "The secret file editor-listen checked.")
(defvar *editors* '() "(connection number peer pid command) of each connected editor.")
(defvar *editors-lock* (mp:make-lock :name "lisp-duet editors"))
(defvar *editor-counter* 0)
(defvar *handshake-peer* nil
  "In a handshake thread, (peer pid command) of the client, for EDITOR-CONNECTED.")
(defvar *editor-waits* (make-hash-table :test #'eq)
  "Swank thread -> the editor requests it waits on, innermost first (for interrupts).")
(defvar *editor-sldb* '()
  "This thread's debugger levels opened for parked jobs, innermost first (sldb.lisp).")
(defvar *swank-configured* nil)

(defconstant +handshake-seconds+ 10
  "How long a client has to send the secret.")

;;; Swank's threads

(defun forget-mailbox (thread)
  "Swank's ECL backend keeps every thread's mailbox for ever (and with it the thread): about
5 kB per request an editor made, since each runs on a new thread; and the id SLDB gave it, by
a weak pointer ECL 21.2 never clears. Both are forgotten when the thread ends."
  (mp:with-lock (swank/ecl::*mailbox-lock*)
    (setf swank/ecl::*mailboxes*
          (delete thread swank/ecl::*mailboxes* :key #'swank/ecl::mailbox.thread :count 1)))
  (mp:with-lock (swank/ecl::*thread-id-map-lock*)
    (let ((ids '()))
      (maphash (lambda (id pointer)
                 (when (eq (si:weak-pointer-value pointer) thread) (push id ids)))
               swank/ecl::*thread-id-map*)
      (dolist (id ids) (remhash id swank/ecl::*thread-id-map*)))))

(defun spawn-in-session (original)
  "Swank's SPAWN, with each thread it starts marked as Swank's and working in CL-USER."
  (lambda (function &key name)
    (funcall original
             (lambda ()
               (let ((*in-swank-thread* t)
                     (*recording-loads* nil)
                     (*package* (find-package "CL-USER")))
                 (unwind-protect (funcall function)
                   (forget-mailbox mp:*current-process*))))
             :name name)))

;;; Editors

(defun editor-number (connection)
  (mp:with-lock (*editors-lock*)
    (second (assoc connection *editors* :test #'eq))))

(defun editor-connected (connection)
  "Swank's *NEW-CONNECTION-HOOK*, in the handshake thread: number it, tell the host."
  (destructuring-bind (&optional peer pid command) *handshake-peer*
    (let ((number (mp:with-lock (*editors-lock*)
                    (let ((number (incf *editor-counter*)))
                      (push (list connection number peer pid command) *editors*)
                      number))))
      (send-event "editor-connected" "editor" number "peer" (or peer :null)
                  "pid" (or pid :null) "command" (or command :null)))))

(defun editor-disconnected (connection)
  "Swank's *CONNECTION-CLOSED-HOOK*: what the editor asked and no job has begun for is
forgotten (the host drops those jobs: \"dropped\"); jobs running go on, unanswered."
  (let ((record (mp:with-lock (*editors-lock*)
                  (let ((record (assoc connection *editors* :test #'eq)))
                    (setf *editors* (remove record *editors* :test #'eq))
                    record))))
    (when record
      (let ((dropped (loop for entry in (editor-requests-of (second record))
                           when (drop-editor-request (editor-request-id entry) "The editor disconnected.")
                             collect (editor-request-id entry))))
        (send-event "editor-disconnected" "editor" (second record) "dropped" dropped)))))

(defun editor-background-message (text editor)
  "Shows TEXT in the echo area of each connected editor (or of EDITOR); how many were told."
  (let ((told 0))
    (dolist (record (mp:with-lock (*editors-lock*) (copy-list *editors*)) told)
      (when (or (null editor) (eql editor (second record)))
        (let ((swank::*emacs-connection* (first record))
              (swank::*pending-slime-interrupts* '())
              (swank::*send-counter* 0))
          (when (ignore-errors (swank::send-to-emacs (list :background-message text)) t)
            (incf told)))))))

;;; The handshake

(defconstant +most-handshakes+ 32
  "Clients waiting to send the secret at once; more are closed at once (a flood of
connections that never speak would otherwise hold a thread each for +HANDSHAKE-SECONDS+).")
(defvar *handshakes* 0)

(defun peer-address (client)
  "(values \"127.0.0.1:53422\" port) of a connected client socket."
  (multiple-value-bind (address port) (ignore-errors (sb-bsd-sockets:socket-peername client))
    (if (integerp port)
        (values (format nil "~{~D~^.~}:~D" (coerce address 'list) port) port)
        (values "unknown" nil))))

(defun peer-of (client server-port)
  "(peer pid command) of a connected client socket: its address, and the local process that
holds its end, when it is this user's."
  (multiple-value-bind (address port) (peer-address client)
    (multiple-value-bind (pid command)
        (and port (mp:without-interrupts (%socket-process port server-port)))
      (list address pid command))))

(defun accept-editor-connection (socket style dont-close)
  "Replaces SWANK::ACCEPT-CONNECTIONS, which authenticated each client on the one thread that
accepts them (a client that never spoke kept every other out: ECL's backend has no stream
timeouts): this one hands the client to a thread of its own at once."
  (declare (ignore dont-close))
  (let ((client (swank/ecl::accept socket)))
    (if (> (mp:with-lock (*editors-lock*) (incf *handshakes*)) +most-handshakes+)
        (progn
          (mp:with-lock (*editors-lock*) (decf *handshakes*))
          (ignore-errors (sb-bsd-sockets:socket-close client))
          (refuse-editor (peer-address client)
                         (format nil "~D connections were already waiting to send the secret: this one was closed at once." +most-handshakes+)))
        (mp:process-run-function "lisp-duet editor handshake"
                                 (lambda ()
                                   (let ((*in-swank-thread* t)
                                         (*recording-loads* nil)
                                         (*package* (find-package "CL-USER")))
                                     (handshake-editor socket client style)))))))

;;; Refusals reach the host (a line on stderr, a note in the window) at most this often: a
;;; client that connects again and again must not flood the person's terminal and console.

(defconstant +refusals-shown-per-minute+ 5)
(defvar *refusal-window-start* 0)
(defvar *refusals-shown* 0)
(defvar *refusals-hidden* 0)

(defun refuse-editor (peer reason)
  "Tells the host that PEER was refused and why (REASON escapes the client's bytes), unless
+REFUSALS-SHOWN-PER-MINUTE+ were told within the minute: those are counted, and the next
one told says how many."
  (let ((now (get-universal-time)) (show nil) (hidden 0))
    (mp:with-lock (*editors-lock*)
      (when (>= (- now *refusal-window-start*) 60)
        (setf hidden *refusals-hidden*
              *refusal-window-start* now
              *refusals-shown* 0
              *refusals-hidden* 0))
      (if (< *refusals-shown* +refusals-shown-per-minute+)
          (setf show t *refusals-shown* (1+ *refusals-shown*))
          (incf *refusals-hidden*)))
    (when show
      (send-event "editor-refused" "peer" peer
                  "reason" (cond ((plusp hidden)
                                  (format nil "~A (~D more connections were refused in the minute before, not shown one by one.)" reason hidden))
                                 ((= *refusals-shown* +refusals-shown-per-minute+)
                                  (format nil "~A (Further refusals this minute are counted, not shown one by one.)" reason))
                                 (t reason))
                  "hidden" hidden))))

(defun authenticate-editor (client)
  "(values accepted-p reason): whether the client's first message is the person's secret,
judged from its header before it is read (engine/swankwire)."
  (multiple-value-bind (secret problem) (read-editor-secret *editor-secret-file*)
    (if problem
        (values nil problem)
        (mp:without-interrupts
          (%editor-handshake (sb-bsd-sockets:socket-file-descriptor client) secret
                             (* 1000 +handshake-seconds+))))))

(defun handshake-editor (server client style)
  (multiple-value-bind (accepted reason)
      (unwind-protect (handler-case (authenticate-editor client)
                        (serious-condition (c) (values nil (one-line (condition-message c)))))
        (mp:with-lock (*editors-lock*) (decf *handshakes*)))
    (if (not accepted)
        (progn
          (ignore-errors (sb-bsd-sockets:socket-close client))
          (refuse-editor (peer-address client) reason))
        (let ((peer (peer-of client (nth-value 1 (sb-bsd-sockets:socket-name server))))
              (stream nil))
          (handler-case
              (progn
                (setf stream (sb-bsd-sockets:socket-make-stream client :input t :output t :buffering :full
                                                                       :element-type '(unsigned-byte 8)))
                (let ((*handshake-peer* peer))
                  (swank::serve-requests (swank::make-connection server stream style))))
            (serious-condition (c)
              (ignore-errors (if stream (close stream :abort t) (sb-bsd-sockets:socket-close client)))
              (refuse-editor (first peer) (one-line (condition-message c)))))))))

(defun unguessable-secret ()
  "What SWANK::SLIME-SECRET answers without a usable secret file: NIL there would let any
client in."
  (format nil "lisp-duet-no-secret-~36R~36R" (random most-positive-fixnum (make-random-state t))
          (get-internal-real-time)))

(defun current-editor-secret ()
  (or (ignore-errors (read-editor-secret *editor-secret-file*)) (unguessable-secret)))

;;; The kernel's own threads (the supervisor, the worker that runs every job, the service,
;;; the native compiler, their watchdogs) are not Swank's to list: SLIME's thread list could
;;; kill or interrupt them, and with them the whole session's work.

(defun kernel-thread-p (thread)
  (let ((name (mp:process-name thread)))
    (or (eq name 'si:top-level)
        (and (stringp name) (eql 0 (search "lisp-duet" name))))))

;;; Cross-references (../xref.lisp), for SLIME's C-c C-w c and the rest: ECL's backend
;;; answers "not implemented".

(defun unit-location (unit)
  "Where SLIME shows UNIT: its file at its first character, or the text of a definition the
session evaluated."
  (if (xref-unit-file unit)
      (list :location (list :file (xref-unit-file unit))
            (list :position (1+ (xref-unit-position unit))) nil)
      (list :location (list :source-form (or (xref-unit-text unit) (xref-unit-title unit)))
            (list :position 1) nil)))

(defun swank-xref (kind)
  "The implementation of one of Swank's xref interfaces: ((title location) ...)."
  (lambda (name)
    (if (symbolp name)
        (mapcar (lambda (unit) (list (xref-unit-dspec unit) (unit-location unit)))
                (if (eq kind :calls-who)
                    (loop for callee in (callees name)
                          append (units-defining callee))
                    (xref-units kind name)))
        '())))

(defparameter *swank-xrefs*
  '((swank/backend:who-calls . :calls) (swank/backend:calls-who . :calls-who)
    (swank/backend:who-references . :references) (swank/backend:who-binds . :binds)
    (swank/backend:who-sets . :sets) (swank/backend:who-macroexpands . :macroexpands)
    (swank/backend:who-specializes . :specializes) (swank/backend:list-callers . :calls)
    (swank/backend:list-callees . :calls-who)))

(defun session-threads ()
  "Swank's ALL-THREADS: every thread but the kernel's."
  (remove-if #'kernel-thread-p (mp:all-processes)))

;;; Starting and stopping

(defun configure-swank ()
  "Once: Swank's settings and our hooks into it."
  (unless *swank-configured*
    (setf swank::*global-debugger* nil
          swank::*log-output* (make-broadcast-stream)
          swank::*loopback-interface* "127.0.0.1"
          swank::*communication-style* :spawn
          swank-repl::*use-dedicated-output-stream* nil
          swank::*event-hook* (list 'editor-event-hook)
          swank-repl::*listener-eval-function* 'editor-listener-eval)
    (pushnew 'editor-connected swank::*new-connection-hook*)
    (pushnew 'editor-disconnected swank::*connection-closed-hook*)
    (setf (fdefinition 'swank::slime-secret) #'current-editor-secret
          (fdefinition 'swank::accept-connections) #'accept-editor-connection
          (get 'swank/backend:spawn 'swank/backend::implementation)
          (spawn-in-session (get 'swank/backend:spawn 'swank/backend::implementation))
          (get 'swank/backend:all-threads 'swank/backend::implementation) #'session-threads)
    (loop for (interface . kind) in *swank-xrefs*
          do (setf (get interface 'swank/backend::implementation) (swank-xref kind)))
    (route-editor-evaluations)
    (open-sldb-doors)
    (open-the-gate)
    (setf *swank-configured* t)))

(defun inherited-listener (descriptor)
  "(values socket problem): the listening socket DESCRIPTOR the host made and handed to this
engine (the port stays open while engines come and go), if it listens on 127.0.0.1."
  (let ((socket (ignore-errors (make-instance 'sb-bsd-sockets:inet-socket :type :stream :protocol :tcp
                                                                          :descriptor descriptor))))
    (multiple-value-bind (address port) (and socket (ignore-errors (sb-bsd-sockets:socket-name socket)))
      (if (and port (equalp address #(127 0 0 1)))
          (values socket nil)
          (values nil (format nil "The descriptor ~D the host passed is not a socket listening on 127.0.0.1." descriptor))))))

(defun call-creating-socket (socket function)
  "Calls FUNCTION (Swank's CREATE-SERVER) with SOCKET as the socket Swank creates."
  (let ((original (get 'swank/backend:create-socket 'swank/backend::implementation)))
    (setf (get 'swank/backend:create-socket 'swank/backend::implementation)
          (lambda (host port &key backlog) (declare (ignore host port backlog)) socket))
    (unwind-protect (funcall function)
      (setf (get 'swank/backend:create-socket 'swank/backend::implementation) original))))

(defun start-editor-server (port secret-file policy &optional descriptor)
  "(values port problem): Swank listening on 127.0.0.1:PORT (0: any free port), or on the
listening socket DESCRIPTOR the host holds."
  (setf *editor-secret-file* secret-file)
  (configure-swank)
  (restore-compilation-policy policy)
  (handler-case
      (flet ((create () (swank:create-server :port port :interface "127.0.0.1" :style :spawn :dont-close t)))
        (if descriptor
            (multiple-value-bind (socket problem) (inherited-listener descriptor)
              (if problem
                  (values nil problem)
                  (values (call-creating-socket socket #'create) nil)))
            (values (create) nil)))
    (sb-bsd-sockets:address-in-use-error ()
      (values nil (port-taken-message port)))
    (serious-condition (c)
      (values nil (format nil "Swank could not listen on 127.0.0.1:~D: ~A" port
                          (one-line (condition-message c)))))))

(defun port-taken-message (port)
  "What the person must know when another program holds the Swank port: an editor that
connects there sends that program the secret (engine/swankwire's SwankListener says it)."
  (mp:without-interrupts (%port-taken-message port)))

(defun stop-editor-server (port)
  (ignore-errors (swank:stop-server port))
  (dolist (connection (mp:with-lock (*editors-lock*) (mapcar #'first *editors*)))
    (ignore-errors (swank::close-connection connection nil nil))))

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

(defconstant +handshake-seconds+ 10)

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

(defun secret-matches-p (sent secret)
  "Compares in time independent of where they differ."
  (and (stringp sent) (stringp secret) (= (length sent) (length secret))
       (zerop (loop with difference = 0
                    for a across sent for b across secret
                    do (setf difference (logior difference (logxor (char-code a) (char-code b))))
                    finally (return difference)))))

(defun peer-of (client server-port)
  "(peer pid command) of a connected client socket: its address, and the local process that
holds its end, when it is this user's."
  (multiple-value-bind (address port) (ignore-errors (sb-bsd-sockets:socket-peername client))
    (multiple-value-bind (pid command)
        (and (integerp port) (mp:without-interrupts (%socket-process port server-port)))
      (list (if (integerp port) (format nil "~{~D~^.~}:~D" (coerce address 'list) port) "unknown")
            pid command))))

(defun accept-editor-connection (socket style dont-close)
  "Replaces SWANK::ACCEPT-CONNECTIONS, which authenticated each client on the one thread that
accepts them (a client that never spoke kept every other out: ECL's backend has no stream
timeouts): this one hands the client to a thread of its own at once."
  (declare (ignore dont-close))
  (let ((client (swank/ecl::accept socket)))
    (mp:process-run-function "lisp-duet editor handshake"
                             (lambda ()
                               (let ((*in-swank-thread* t)
                                     (*recording-loads* nil)
                                     (*package* (find-package "CL-USER")))
                                 (handshake-editor socket client style))))))

(defun refuse-editor (peer reason)
  (send-event "editor-refused" "peer" peer "reason" reason))

(defun handshake-editor (server client style)
  (let* ((lock (mp:make-lock :name "lisp-duet editor handshake"))
         (over nil)
         (descriptor (sb-bsd-sockets:socket-file-descriptor client))
         (peer (peer-of client (nth-value 1 (sb-bsd-sockets:socket-name server))))
         (stream nil))
    (flet ((end-handshake (&optional close)
             ;; Under the lock, so that the time limit below never shuts a descriptor that
             ;; was closed and given to someone else meanwhile.
             (mp:with-lock (lock)
               (setf over t)
               (when close
                 (ignore-errors (if stream (close stream :abort t) (sb-bsd-sockets:socket-close client)))))))
      (mp:process-run-function "lisp-duet editor handshake limit"
                               (lambda ()
                                 (loop repeat (* 100 +handshake-seconds+) until over do (sleep 0.01))
                                 (mp:with-lock (lock)
                                   (unless over (%shutdown-socket descriptor)))))
      (handler-case
          (progn
            (setf stream (sb-bsd-sockets:socket-make-stream client :input t :output t :buffering :full
                                                                   :element-type '(unsigned-byte 8)))
            (let ((sent (swank/rpc::read-packet stream)))
              (end-handshake)
              (multiple-value-bind (secret problem) (read-editor-secret *editor-secret-file*)
                (cond (problem
                       (end-handshake t)
                       (refuse-editor (first peer) problem))
                      ((not (secret-matches-p sent secret))
                       (end-handshake t)
                       (refuse-editor (first peer) "It did not send the secret first (SLIME sends ~/.slime-secret by itself)."))
                      (t
                       (let ((*handshake-peer* peer))
                         (swank::serve-requests (swank::make-connection server stream style))))))))
        (serious-condition (c)
          (end-handshake t)
          (refuse-editor (first peer)
                         (if (typep c 'end-of-file)
                             (format nil "It sent nothing within ~D s, or closed the connection." +handshake-seconds+)
                             (one-line (condition-message c)))))))))

(defun unguessable-secret ()
  "What SWANK::SLIME-SECRET answers without a usable secret file: NIL there would let any
client in."
  (format nil "lisp-duet-no-secret-~36R~36R" (random most-positive-fixnum (make-random-state t))
          (get-internal-real-time)))

(defun current-editor-secret ()
  (or (ignore-errors (read-editor-secret *editor-secret-file*)) (unguessable-secret)))

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
          (spawn-in-session (get 'swank/backend:spawn 'swank/backend::implementation)))
    (route-editor-evaluations)
    (open-sldb-doors)
    (setf *swank-configured* t)))

(defun start-editor-server (port secret-file policy)
  "(values port problem): Swank listening on 127.0.0.1:PORT (0: any free port)."
  (setf *editor-secret-file* secret-file)
  (configure-swank)
  (restore-compilation-policy policy)
  (handler-case
      (values (swank:create-server :port port :interface "127.0.0.1" :style :spawn :dont-close t) nil)
    (serious-condition (c)
      (values nil (format nil "Swank could not listen on 127.0.0.1:~D: ~A" port
                          (one-line (condition-message c)))))))

(defun stop-editor-server (port)
  (ignore-errors (swank:stop-server port))
  (dolist (connection (mp:with-lock (*editors-lock*) (mapcar #'first *editors*)))
    (ignore-errors (swank::close-connection connection nil nil))))

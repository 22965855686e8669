;;;; Native code for the session's definitions, part 3: the background compiler. A definition
;;;; the worker makes runs at once, bytecoded; it waits here in a queue, a Lisp thread of its
;;;; own (the gcc it runs at a lower priority) takes the queue in batches, compiles them
;;;; (native-compiler.lisp) and swaps each native function in, if and only if the definition
;;;; it was made from is still the one in place (a compare-and-swap: a redefinition meanwhile
;;;; wins). What happened to each definition goes to the host: the job's reply lists what it
;;;; queued ("native"), and an event "native" says what became of them.
;;;;
;;;; Nothing here runs on the worker but noting a definition (a push under a lock). A compile
;;;; that fails, warns, or takes too long leaves the bytecode in place and says why. The
;;;; thread belongs to this engine: a reset replaces the process, and with it the queue.

(in-package "LISP-DUET.KERNEL")

(defvar *native-enabled* t "NIL when the host turned native compilation off.")
(defvar *native-off-reason* nil)
(defvar *native-toolchain-problem* nil "Why this machine cannot compile natively, or NIL.")
(defvar *native-lock* (mp:make-lock :name "lisp-duet native queue"))
(defvar *native-wakeup* (mp:make-condition-variable))
(defvar *native-queue* '() "Entries waiting, newest first.")
(defvar *native-compiling* '() "The entries of the batches being compiled.")
(defvar *slow-batches* 0 "Batches that outlasted the compiler's patience and go on alone.")
(defvar *native-records* (make-hash-table :test #'equal) "Definition key -> its newest entry.")
(defvar *native-serial* 0)
(defvar *native-thread* nil)
(defvar *job-native-queued* '() "Entries the running job queued, newest first (the worker's).")

(defconstant +native-batch-limit+ 16
  "Definitions per gcc run at most. Their translation to C holds MP:+LOAD-COMPILE-LOCK+, which
the worker's LOAD of a compiled file and its COMPILE need: ~3.5 ms per definition, so a batch
of 64 held it ~240 ms, of 16 ~60 ms.")
(defconstant +native-gather-seconds+ 0.03
  "A batch starts once no definition came for this long: a file loaded or a region evaluated
defines many at once, and one gcc run for all of them is ~30 times cheaper per definition.")
(defconstant +native-gather-limit-us+ 250000 "...but no later than this after the first.")
(defparameter *native-batch-time-limit* 60
  "Seconds a batch may take (a macro or LOAD-TIME-VALUE in a definition may loop, gcc may not
end); LISP_DUET_NATIVE_TIME_LIMIT (seconds) sets another.")
(defconstant +batch-patience-seconds+ 3
  "How long the compiler waits for a batch before it takes the next one meanwhile: a batch
whose gcc runs long (up to the time limit) goes on alone, and later definitions do not wait
behind it.")
(defconstant +slow-batches-limit+ 2 "Batches going on alone at most; then the compiler waits.")

(defun native-available-p ()
  (and *native-enabled* (null *native-toolchain-problem*)))

(defun kernel-name-p (name)
  (let ((symbol (if (consp name) (second name) name)))
    (and (symbolp symbol)
         (member (symbol-package symbol)
                 (load-time-value (list (find-package "LISP-DUET.KERNEL") (find-package "LISP-DUET")))))))

(defun note-native-definition (kind name function installed method)
  "Queues a definition the worker just made (the hooks of native-source.lisp)."
  (when (and (native-available-p) installed (bytecoded-definition-p function)
             (not (kernel-name-p name)))
    (queue-native-entry
     (make-native-entry :kind kind :name name :function function
                        :installed installed :method method
                        :package *package* :readtable *readtable*
                        :policy *person-policy*
                        :generation *change-generation*
                        :expansions *recorded-expansions*
                        :job *running-job* :defined-at (%monotonic-us)
                        :since (%wall-clock-ms)
                        ;; Said at once, in the reply of the job that defined it.
                        :notes (let ((note (declared-types-note function))) (and note (list note)))))))

(defun queue-native-entry (entry)
  "Gives ENTRY its serial, makes it its definition's newest, and queues it for the compiler."
  (let ((key (native-entry-key entry)))
    (ensure-native-thread)
    (mp:with-lock (*native-lock*)
      (setf (native-entry-serial entry) (incf *native-serial*)
            (gethash key *native-records*) entry)
      (push entry *native-queue*)
      (mp:condition-variable-signal *native-wakeup*))
    (when (on-worker-p)
      (push entry *job-native-queued*))
    entry))

;;; What the host hears.

(defun native-entry-object (entry)
  (multiple-value-bind (qualifiers specializers)
      (if (eq (native-entry-kind entry) :method) (method-texts (native-entry-method entry)) (values nil nil))
    (let ((home (native-entry-home entry)))
      (obj "serial" (native-entry-serial entry)
           "kind" (string-downcase (symbol-name (native-entry-kind entry)))
           "package" (if home (package-name home) :null)
           "name" (native-entry-name-text entry)
           "qualifiers" qualifiers
           "specializers" specializers
           "state" (string-downcase (symbol-name (native-entry-state entry)))
           "since_ms" (native-entry-since entry)
           "after_ms" (or (native-entry-after-ms entry) :null)
           "job" (or (native-entry-job entry) :null)
           "reason" (or (native-entry-reason entry) :null)
           "notes" (native-entry-notes entry)))))

(defun take-native-facts ()
  "The \"native\" field of the reply of the job that just ended: what it queued."
  (let ((queued (shiftf *job-native-queued* '())))
    (and queued
         (list "native" (mapcar #'native-entry-object (reverse queued))))))

(defun native-pending-count ()
  (mp:with-lock (*native-lock*)
    (+ (length *native-queue*) (length *native-compiling*))))

(defun native-settled-p ()
  (zerop (native-pending-count)))

(defun send-native-event (entries &rest more)
  (when (or entries more)
   (ignore-errors
    (apply #'send-event "native"
          "definitions" (mapcar #'native-entry-object entries)
          "pending" (native-pending-count)
          more))))

(defun finish-entry (entry state &optional reason)
  (setf (native-entry-state entry) state
        (native-entry-reason entry) reason
        (native-entry-since entry) (%wall-clock-ms)
        ;; Its translation is over: what the bytecode expanded is no longer needed.
        (native-entry-expansions entry) nil)
  (when (eq state :native)
    ;; The bytecode is kept: FUNCTION-LAMBDA-EXPRESSION answers with it, and a change of
    ;; what the native version took in puts it back (native-meaning.lisp).
    (setf (native-entry-after-ms entry)
          (round (- (%monotonic-us) (native-entry-defined-at entry)) 1000)))
  entry)

;;; Swapping.

(defun swap-function (old new name)
  "Puts NEW in NAME's function cell (a symbol's, or a (SETF NAME)'s) if it still holds OLD;
true when it did."
  (if (symbolp name)
      (%swap-function-cell name old new)
      (let ((pair (si:setf-definition (second name) nil)))
        (and (consp pair) (eq (mp:compare-and-swap-car pair old new) old)))))

(defun lean-method-function (function)
  "The method function CLOS calls, (ARGUMENTS NEXT-METHODS), around FUNCTION, for a method that
never asks for its next methods. CLOS's own wrapper (CLOS::WRAPPED-METHOD-FUNCTION) binds
.COMBINED-METHOD-ARGS. and *NEXT-METHODS* as specials on every call, for CALL-NEXT-METHOD:
two special bindings that made a one-method generic call 115 ns where this makes it 86."
  (lambda (arguments next-methods)
    (declare (ignore next-methods))
    (apply function arguments)))

(defun uses-next-methods-p (entry)
  "True when ENTRY's method may ask for its next methods (or read CLOS's specials for them)."
  (tree-contains-p (function-lambda-expression (native-entry-function entry))
                   '(call-next-method next-method-p clos::.combined-method-args. clos::*next-methods*)))

(defun entry-in-place-p (entry)
  "True while the definition ENTRY was made from is still the one in place."
  (let ((installed (native-entry-installed entry))
        (name (native-entry-name entry)))
    (ecase (native-entry-kind entry)
      (:macro
       (eq (macro-function name) installed))
      (:function
       (if (symbolp name)
           (and (fboundp name) (not (macro-function name)) (eq (fdefinition name) installed))
           (let ((pair (si:setf-definition (second name) nil)))
             (and (consp pair) (eq (car pair) installed)))))
      (:method
       (let ((method (native-entry-method entry)))
         (and (clos:method-generic-function method)
              (eq (clos:method-function method) installed)))))))

(defun swap-in (entry native)
  "Puts NATIVE in place of ENTRY's definition if it is still there; true when it did."
  (let ((installed (native-entry-installed entry))
        (name (native-entry-name entry)))
    (ecase (native-entry-kind entry)
      ((:function :macro)
       (%adopt-identity native name (native-entry-function entry))
       (setf (native-entry-native entry) native)
       (swap-function installed native name))
      (:method
       (%adopt-identity native name (native-entry-function entry))
       (let* ((method (native-entry-method entry))
              (lean (not (uses-next-methods-p entry)))
              (wrapper (if lean (lean-method-function native) (clos::wrapped-method-function native))))
         (when (eq (mp:compare-and-swap (slot-value method 'clos::the-function) installed wrapper)
                   installed)
           (setf (native-entry-original entry) installed
                 (native-entry-installed entry) wrapper
                 (native-entry-native entry) native
                 (native-entry-lean entry) lean)
           ;; Every thread's dispatch cache forgets this function's effective methods.
           (let ((generic (clos:method-generic-function method)))
             (when generic (si:clear-gfun-hash generic)))
           t))))))

;;; The background thread.

(defun native-thread-alive-p ()
  (and *native-thread* (mp:process-active-p *native-thread*)))

(defun ensure-native-thread ()
  "Starts the background compiler with the first definition (or again, should user code have
ended its thread)."
  (unless (native-thread-alive-p)
    (mp:with-lock (*native-lock*)
      (unless (native-thread-alive-p)
        (setf *native-thread* (mp:process-run-function "lisp-duet native compiler" #'native-compiler-loop))))))

(defun next-native-batch ()
  (mp:with-lock (*native-lock*)
    (loop until *native-queue*
          do (mp:condition-variable-wait *native-wakeup* *native-lock*)))
  (let ((start (%monotonic-us)))
    (loop for before = (mp:with-lock (*native-lock*) (length *native-queue*))
          do (sleep +native-gather-seconds+)
          until (or (= before (mp:with-lock (*native-lock*) (length *native-queue*)))
                    (> (- (%monotonic-us) start) +native-gather-limit-us+))))
  (mp:with-lock (*native-lock*)
    (let* ((oldest-first (reverse *native-queue*))
           (batch (subseq oldest-first 0 (min +native-batch-limit+ (length oldest-first)))))
      (setf *native-queue* (reverse (nthcdr (length batch) oldest-first))
            *native-compiling* (append batch *native-compiling*))
      batch)))

(defun native-compiler-loop ()
  (loop
    (let* ((batch (next-native-batch))
           (done (list nil))
           (thread (mp:process-run-function "lisp-duet native batch" #'batch-thread batch done)))
      (declare (ignore thread))
      ;; A quick batch is waited for; a slow one (gcc running long) goes on alone, and the
      ;; next definitions are compiled meanwhile.
      (loop repeat (* 50 +batch-patience-seconds+) until (car done) do (sleep 0.02))
      (unless (car done)
        (mp:with-lock (*native-lock*) (incf *slow-batches*))
        (setf (cdr done) :slow)
        (loop while (>= (mp:with-lock (*native-lock*) *slow-batches*) +slow-batches-limit+)
              do (sleep 0.05))))))

(defun batch-thread (batch done)
  "Compiles BATCH on a thread of its own; sets the CAR of DONE when it is over."
  ;; Not niced itself: it holds MP:+LOAD-COMPILE-LOCK+ while it translates, and the worker
  ;; may wait for that lock (a priority inversion made that wait 4x longer). gcc is niced.
  (bind-every-special-once) ; the batch watchdog interrupts this thread
  (let ((*standard-output* (make-broadcast-stream))
        (*error-output* (make-broadcast-stream))
        (*debug-io* (make-two-way-stream *refusing-debugger-input* (make-broadcast-stream)))
        (*query-io* (make-two-way-stream *refusing-query-input* (make-broadcast-stream)))
        (*standard-input* *refusing-standard-input*)
        (*batch-phase* (list :translating)))
    (unwind-protect
         (with-standard-printing
           (handler-case (compile-native-batch batch)
             (serious-condition (c)
               (let ((reason (format nil "The background compiler failed: ~A: ~A"
                                     (condition-type-name c) (one-line (condition-message c)))))
                 (send-native-event
                  (loop for entry in batch
                        unless (member (native-entry-state entry) '(:native :interpreted :superseded))
                          collect (finish-entry entry :interpreted reason)))))))
      (forget-compiling batch)
      (mp:with-lock (*native-lock*)
        (when (eq (cdr done) :slow) (decf *slow-batches*))
        (setf (car done) t)))))

(defun forget-compiling (batch)
  (mp:with-lock (*native-lock*)
    (setf *native-compiling* (remove-if (lambda (entry) (member entry batch)) *native-compiling*))))

(defun current-entry-p (entry)
  (eq entry (mp:with-lock (*native-lock*) (gethash (native-entry-key entry) *native-records*))))

(defun call-with-batch-time-limit (thunk)
  "THUNK's values, or :TIMED-OUT after *NATIVE-BATCH-TIME-LIMIT* seconds (the thread is
interrupted there: a definition's macro or LOAD-TIME-VALUE looped, or gcc did not end;
*BATCH-PHASE* says which)."
  (let* ((token (list :batch)) (me mp:*current-process*) (done nil)
         (result (catch token
                   (mp:process-run-function
                    "lisp-duet native watchdog"
                    (lambda ()
                      (loop repeat (* 10 *native-batch-time-limit*) until done do (sleep 0.1))
                      (unless done
                        (ignore-errors
                         (mp:interrupt-process me (lambda () (unless done (throw token :timed-out))))))))
                   (unwind-protect (multiple-value-list (funcall thunk)) (setf done t)))))
    (if (eq result :timed-out) :timed-out (values-list result))))

(defun batch-timed-out-reason (size)
  (case (car *batch-phase*)
    (:gcc (format nil "gcc did not finish compiling it~[~:;~:* and the ~D other definitions of its batch~] within ~D s: it was stopped (with every process it started) and its files removed. It stays interpreted; evaluating it again tries again."
                  (1- size) *native-batch-time-limit*))
    (:loading (format nil "Loading its native code took more than ~D s: it stays interpreted." *native-batch-time-limit*))
    (t (format nil "Translating it took more than ~D s (a macro, or a LOAD-TIME-VALUE, that it uses may loop): it stays interpreted." *native-batch-time-limit*))))

(defun compile-entries (entries items)
  "Compiles ITEMS (parallel to ENTRIES) in as few gcc runs as it can: one for all; when that
fails, the definitions at fault (what their translation signalled) are set apart and the
others compiled again; a failure gcc alone reports is narrowed by halves. Returns a list of
(ENTRY FUNCTION REASON NOTES EXPANDED-MACROS)."
  (multiple-value-bind (functions problem findings) (compile-native-items items)
    (cond (functions
           (loop for entry in entries for i from 0
                 for finding = (svref findings i)
                 collect (list entry (svref functions i) nil
                               (undefined-variable-notes (finding-conditions finding)) finding)))
          ((progn
             ;; gcc or the headers may have gone since the engine started.
             (let ((toolchain (native-toolchain-problem)))
               (when toolchain (setf *native-toolchain-problem* toolchain)))
             (or (null (rest entries)) *native-toolchain-problem*))
           (loop for entry in entries
                 collect (list entry nil (or *native-toolchain-problem* problem) nil nil)))
          (t
           (let* ((reasons (loop for i below (length entries) collect (finding-problem (svref findings i))))
                  (bad (loop for entry in entries for reason in reasons
                             when reason collect (list entry nil reason nil nil)))
                  (good-entries (loop for entry in entries for reason in reasons unless reason collect entry))
                  (good-items (loop for item in items for reason in reasons unless reason collect item)))
             (cond ((null good-entries) bad)
                   (bad (append bad (compile-entries good-entries good-items)))
                   (t (let ((half (ceiling (length entries) 2)))
                        (append (compile-entries (subseq entries 0 half) (subseq items 0 half))
                                (compile-entries (nthcdr half entries) (nthcdr half items)))))))))))

(defun compile-native-batch (batch)
  (let ((finished '()) (entries '()) (items '()))
    (dolist (entry batch)
      (cond ((not (native-available-p))
             (push (finish-entry entry :interpreted (or *native-off-reason* *native-toolchain-problem*)) finished))
            ((not (and (current-entry-p entry) (entry-in-place-p entry)))
             (push (if (wrapped-entry-p entry)
                       (finish-wrapped-entry entry)
                       (finish-entry entry :superseded "A newer definition replaced it before its native version was ready."))
                   finished))
            (t
             (multiple-value-bind (form problem) (native-lambda-form entry)
               (if problem
                   (push (finish-entry entry :interpreted problem) finished)
                   (progn
                     (setf (native-entry-state entry) :compiling
                           (native-entry-translated entry) *change-generation*)
                     (push entry entries)
                     (push (list form (native-entry-package entry) (native-entry-readtable entry)
                                 (car (native-entry-expansions entry)))
                           items)))))))
    (setf entries (nreverse entries) items (nreverse items))
    (when entries
      (send-native-event entries) ; "compiling"
      (ensure-native-compiler)
      (let ((outcomes (call-with-batch-time-limit (lambda () (compile-entries entries items)))))
        (if (eq outcomes :timed-out)
            (dolist (entry entries)
              (push (finish-entry entry :interpreted (batch-timed-out-reason (length entries)))
                    finished))
            (progn
              (loop for (entry function reason notes finding) in outcomes
                    do (push (settle-compiled-entry entry function reason notes finding) finished))
              ;; Generic functions whose methods became native may get a dispatcher of their
              ;; own (native-dispatch.lisp).
              (dolist (generic (remove-duplicates
                                (loop for entry in entries
                                      when (and (eq (native-entry-kind entry) :method)
                                                (eq (native-entry-state entry) :native))
                                        collect (clos:method-generic-function (native-entry-method entry)))))
                (when generic (ignore-errors (plan-native-dispatch generic))))))))
    ;; The event's "pending" no longer counts this batch.
    (forget-compiling batch)
    (if *native-toolchain-problem*
        (send-native-event (nreverse finished) "available" :false "reason" *native-toolchain-problem*)
        (send-native-event (nreverse finished)))))

;;; Switching, and waiting for the compiler to settle.

(defun native-status-fields ()
  (list "enabled" (if *native-enabled* t :false)
        "available" (if *native-toolchain-problem* :false t)
        "reason" (or (and (not *native-enabled*) *native-off-reason*) *native-toolchain-problem* :null)
        "pending" (native-pending-count)))

(defun turn-native-off (reason)
  (setf *native-enabled* nil
        *native-off-reason* reason)
  (let ((dropped (mp:with-lock (*native-lock*) (shiftf *native-queue* '()))))
    (when dropped
      (send-native-event (mapcar (lambda (entry) (finish-entry entry :interpreted reason)) dropped)))))

(defun native-op (request)
  "native: the state of native compilation; \"enabled\" true or false switches it for the
definitions made from now on (those already native stay native)."
  (let ((enabled (getf request :enabled :absent)))
    (cond ((eq enabled t)
           (setf *native-enabled* t *native-off-reason* nil))
          ((member enabled '(nil :false))
           (turn-native-off "Native compilation was turned off (the native request).")))
    (apply #'ok-reply request (native-status-fields))))

(define-operation "native" :supervisor #'native-op)

(defun wait-until-native-settled (seconds)
  "Waits until every queued definition has been compiled or given up, at most SECONDS;
true when it has. On the worker, then installs the dispatchers made meanwhile."
  (let ((deadline (+ (%monotonic-us) (round (* seconds 1000000)))))
    (loop
      (when (native-settled-p)
        (when (on-worker-p) (install-pending-dispatchers))
        (return t))
      (when (> (%monotonic-us) deadline) (return nil))
      (sleep 0.005))))

(defun native-settle-op (request)
  "native-settle: a job that ends when the background compiler has nothing left to do (or
after \"timeout_ms\", default 60 s); its reply has the state of every definition whose
serial is at least \"since_serial\"."
  (let ((timeout (let ((ms (getf request :timeout_ms))) (if (and (integerp ms) (plusp ms)) ms 60000)))
        (since (let ((serial (getf request :since_serial))) (if (integerp serial) serial 0)))
        (waited 0))
    (run-job request
             (lambda ()
               (let* ((start (%monotonic-us))
                      (settled (wait-until-native-settled (/ timeout 1000))))
                 (setf waited (round (- (%monotonic-us) start) 1000))
                 (list* "settled" (if settled t :false)
                        "waited_ms" waited
                        "definitions" (let ((entries '()))
                                        (mp:with-lock (*native-lock*)
                                          (maphash (lambda (key entry) (declare (ignore key))
                                                     (when (>= (native-entry-serial entry) since)
                                                       (push entry entries)))
                                                   *native-records*))
                                        (mapcar #'native-entry-object
                                                (sort entries #'< :key #'native-entry-serial)))
                        (native-status-fields)))))))

(define-operation "native-settle" :worker #'native-settle-op)

;;; The definitions operation (definitions.lisp) says per function, macro and generic function
;;; how it runs.

(defun native-record (kind name)
  (mp:with-lock (*native-lock*) (gethash (list kind name) *native-records*)))

(defun method-states (name)
  "The states of the newest entries of NAME's methods the session defined."
  (let ((states '()))
    (mp:with-lock (*native-lock*)
      (maphash (lambda (key entry)
                 (when (and (eq (first key) :method) (equal (second key) name))
                   (push (native-entry-state entry) states)))
               *native-records*))
    states))

(defun execution-fields (symbol kind)
  "\"execution\" (native, interpreted or compiling), \"native_since_ms\", \"native_reason\"
and \"native_notes\" of a function, macro or generic function's methods the session defined."
  (let* ((function (cond ((not (fboundp symbol)) nil)
                         ((string= kind "macro") (macro-function symbol))
                         ((string= kind "function") (fdefinition symbol))))
         (record (cond ((string= kind "function") (native-record :function symbol))
                       ((string= kind "macro") (native-record :macro symbol))))
         (state (and record (native-entry-state record)))
         ;; The record tells of the function in place only while it is the record's own.
         (own (and record (or (eq function (native-entry-function record))
                              (eq function (native-entry-native record)))))
         (execution
           (cond ((string= kind "generic-function") (generic-execution symbol))
                 ((null function) nil)
                 ((and own (member state '(:queued :compiling))) "compiling")
                 ((bytecoded-p function) "interpreted")
                 (t "native"))))
    (when execution
      (list "execution" execution
            "native_since_ms" (or (and own (eq state :native) (native-entry-since record)) :null)
            "native_reason" (or (and own (eq state :interpreted) (native-entry-reason record))
                                (and function (traced-wrapper-reason symbol function))
                                (and function (string= kind "macro") (compile-time-macro-reason symbol function))
                                :null)
            "native_notes" (or (and own (native-entry-notes record)) '())))))

(defun generic-execution (name)
  "How the session's methods of the generic function NAME run: interpreted when one does."
  (let ((states (method-states name)))
    (cond ((or (member :interpreted states)
               (and (fboundp name) (typep (fdefinition name) 'generic-function)
                    (some (lambda (method) (or (gethash method *uncompiled-methods*)
                                               (gethash method *bytecoded-methods*)))
                          (clos:generic-function-methods (fdefinition name)))))
           "interpreted")
          ((intersection '(:queued :compiling) states) "compiling")
          (t "native"))))

(defun method-execution (name method)
  "How METHOD of the generic function NAME runs, as an object the host matches to the ledger's
method by its qualifiers and specializers: its own record's word when the background compiler
saw it; else interpreted when the session made it while native compilation was off or a
library's bytecode file installed it; else native (compiled by COMPILE-FILE: load-system, the
editor's C-c C-k, a library's native file)."
  (multiple-value-bind (qualifiers specializers) (method-texts method)
    (let* ((record (mp:with-lock (*native-lock*)
                     (gethash (list :method name qualifiers specializers) *native-records*)))
           (state (and record (eq (native-entry-method record) method) (native-entry-state record))))
      (obj "qualifiers" qualifiers
           "specializers" specializers
           "execution" (cond ((member state '(:queued :compiling)) "compiling")
                             ((or (eq state :interpreted) (gethash method *uncompiled-methods*)
                                  (and (null state) (gethash method *bytecoded-methods*)))
                              "interpreted")
                             (t "native"))
           "native_since_ms" (or (and (eq state :native) (native-entry-since record)) :null)
           "native_reason" (or (and (eq state :interpreted) (native-entry-reason record)) :null)))))

(defconstant +methods-listed+ 200
  "At most this many methods of one generic function say how they run: the panel lists the
session's own, never hundreds.")

(defun methods-execution (name)
  "\"methods\": how each method of the generic function NAME runs (METHOD-EXECUTION)."
  (let ((function (and (fboundp name) (fdefinition name))))
    (when (typep function 'generic-function)
      (list "methods" (loop for method in (clos:generic-function-methods function)
                            repeat +methods-listed+
                            collect (method-execution name method))))))

(defun traced-wrapper-reason (name function)
  (let ((record (find name si::*trace-list* :key #'first :test #'equal)))
    (when (and record (eq (second record) function))
      "It is traced: TRACE's wrapper runs interpreted around it; UNTRACE puts back what was there.")))

(defun native-since-text (name)
  "\"this session's definition, native since 14:02:07\" when NAME's function is a definition
the background compiler made native, else NIL."
  (let ((record (native-record :function name)))
    (when (and record (eq (native-entry-state record) :native))
      (multiple-value-bind (seconds minutes hours)
          (decode-universal-time (+ (floor (native-entry-since record) 1000) (encode-universal-time 0 0 0 1 1 1970 0)))
        (format nil "this session's definition, native since ~2,'0D:~2,'0D:~2,'0D" hours minutes seconds)))))

;;; Boot: the switches, the toolchain, the hooks.

(defun native-switched-off-reason ()
  (let ((variable (ext:getenv "LISP_DUET_NATIVE")))
    (cond ((member "--no-native" ext:*command-args* :test #'string=)
           "Native compilation is off (--no-native): the session's definitions run interpreted.")
          ((and variable (member (string-downcase variable) '("0" "off" "no" "false") :test #'string=))
           (format nil "Native compilation is off (LISP_DUET_NATIVE=~A): the session's definitions run interpreted." variable)))))

(defun init-native ()
  "At boot, before the first job: the switches, the toolchain check (a few stat calls), and
the hooks that note definitions. The compiler thread starts with the first definition."
  (let ((off (native-switched-off-reason)))
    (when off (setf *native-enabled* nil *native-off-reason* off)))
  (let ((limit (ignore-errors (parse-integer (or (ext:getenv "LISP_DUET_NATIVE_TIME_LIMIT") "")))))
    (when (and limit (plusp limit)) (setf *native-batch-time-limit* limit)))
  (setf *native-toolchain-problem* (native-toolchain-problem))
  (install-compiler-provider)
  (install-definition-hooks)
  (setf *macroexpand-hook* #'recording-expand-hook)
  (install-gc-giving-memory-back))

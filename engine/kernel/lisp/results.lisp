;;;; Handles for values: evaluate-lisp returns a result id for a non-primitive primary value,
;;;; and inspect-object looks inside it by that id, one page at a time. Ids carry the engine's
;;;; process id, so an id from before a reset (a new process) is recognised as expired
;;;; instead of naming an unrelated object.

(in-package "LISP-DUET.KERNEL")

;; ECL 21.2's weak pointers and weak hash tables never let go of their objects (checked: not
;; one of 10,000 unreferenced lists was released after collections), so the registry bounds
;; itself: it holds the newest results and the newest parts that inspect handed out ids
;; for, and forgets the rest, whoever else still refers to them.
(defconstant +max-results+ 200)
(defconstant +max-parts+ 2000)

(defvar *results* (make-hash-table :test #'eql) "Number -> object.")
(defvar *result-numbers* (make-hash-table :test #'eq)
  "Object -> number, so one object keeps one id.")
(defvar *result-order* '() "The newest results, newest first.")
(defvar *part-order* '() "The newest parts inspect handed out ids for, newest first.")
(defvar *parents* (make-hash-table :test #'eq)
  "Object -> the object it was reached from by inspection, to mark cycles.")
(defvar *next-result* 1)
(defvar *results-lock* (mp:make-lock :name "lisp-duet results" :recursive t)
  "Guards the tables above: the worker remembers results, the service thread inspects.")

(defun primitive-p (object)
  (or (numberp object) (characterp object) (symbolp object)
      (and (stringp object) (<= (length object) 200))))

(defun result-id-text (number)
  (format nil "~D-~D" (%process-id) number))

(defun remember-result (object &optional (hold t))
  "The result id of OBJECT (a string), or NIL for primitive values. HOLD keeps it among the
newest results; the parts of an inspected object need not be held: their whole holds them."
  (unless (primitive-p object)
    (mp:with-lock (*results-lock*)
      (let ((number (gethash object *result-numbers*)))
        (unless number
          (setf number *next-result*)
          (incf *next-result*)
          (setf (gethash number *results*) object
                (gethash object *result-numbers*) number))
        (multiple-value-bind (order dropped)
            (if hold
                (newest object *result-order* +max-results+)
                (newest object *part-order* +max-parts+))
          (if hold (setf *result-order* order) (setf *part-order* order))
          (forget-results dropped))
        (result-id-text number)))))

(defun newest (object list limit)
  "LIST with OBJECT in front, at most LIMIT long: (values list dropped-objects)."
  (let ((list (cons object (delete object list :test #'eq :count 1))))
    (if (> (length list) limit)
        (values (subseq list 0 limit) (nthcdr limit list))
        (values list nil))))

(defun forget-results (objects)
  "Forgets those of OBJECTS that neither list holds any more (with *RESULTS-LOCK* held)."
  (dolist (object objects)
    (unless (or (member object *result-order* :test #'eq) (member object *part-order* :test #'eq))
      (let ((number (gethash object *result-numbers*)))
        (remhash object *result-numbers*)
        (when number (remhash number *results*))
        (remhash object *parents*)))))

(defun find-result (text)
  "(values object found reason)."
  (let* ((text (string-trim " " (princ-to-string text)))
         (dash (position #\- text))
         (pid (and dash (ignore-errors (parse-integer text :end dash))))
         (number (ignore-errors (parse-integer text :start (if dash (1+ dash) 0)))))
    (cond ((null number)
           (values nil nil (format nil "~S is not a result id: result ids look like \"~A\"."
                                   text (result-id-text 1))))
          ((and pid (/= pid (%process-id)))
           (values nil nil (format nil "unknown or expired result_id ~A: results are forgotten when the session is reset."
                                   text)))
          (t
           (multiple-value-bind (object found) (mp:with-lock (*results-lock*) (gethash number *results*))
             (if found
                 (values object t nil)
                 (values nil nil (format nil "unknown or expired result_id ~A: results are forgotten when the session is reset, and older ones as newer ones come (the newest ~D results are kept)."
                                         text +max-results+))))))))

;;; Inspecting

(defun element (key value ancestors)
  "One row of an inspection: KEY (a string), VALUE printed, and a result id when VALUE is
worth opening; a value that is the inspected object or one it came from is a cycle."
  (let ((cycle (member value ancestors :test #'eq)))
    (append (obj "key" key "value" (session-print value 200))
            (unless (primitive-p value)
              (list "result_id" (remember-result value nil)))
            (when cycle (list "cycle" t)))))

(defun ancestors-of (object)
  (mp:with-lock (*results-lock*)
    (loop for o = object then (gethash o *parents*)
          for depth below 100
          while o collect o)))

(defun proper-list-elements (list length offset limit ancestors)
  (values (loop for tail on (nthcdr (min offset length) list)
                for index from offset
                repeat limit
                collect (element (princ-to-string index) (car tail) ancestors))
          length))

(defun list-elements (list offset limit ancestors)
  "Elements of a list, proper, dotted or circular: (values rows total)."
  ;; LIST-LENGTH runs in C and tells a proper list from a circular one; only dotted and
  ;; circular lists take the slower walk below.
  (let ((length (ignore-errors (list-length list))))
    (when length
      (return-from list-elements (proper-list-elements list length offset limit ancestors))))
  (let ((seen (make-hash-table :test #'eq)) (rows '()) (index 0))
    (loop for tail = list then (cdr tail)
          while (consp tail)
          do (when (gethash tail seen)
               (when (and (>= index offset) (< (length rows) limit))
                 (push (append (obj "key" "tail" "value" (format nil "the list from element ~D again" (gethash tail seen)))
                               (list "result_id" (remember-result tail nil) "cycle" t))
                       rows))
               (return-from list-elements (values (nreverse rows) (1+ index))))
             (setf (gethash tail seen) index)
             (when (and (>= index offset) (< (length rows) limit))
               (push (element (princ-to-string index) (car tail) ancestors) rows))
             (incf index)
          finally (when tail
                    (when (and (>= index offset) (< (length rows) limit))
                      (push (element "tail" tail ancestors) rows))
                    (incf index)))
    (values (nreverse rows) index)))

(defun slot-rows (object slots offset limit ancestors)
  (loop for slot in slots
        for i from 0
        for name = (clos:slot-definition-name slot)
        when (and (>= i offset) (< i (+ offset limit)))
          collect (if (ignore-errors (slot-boundp object name))
                      (element (session-print name) (slot-value object name) ancestors)
                      (obj "key" (session-print name) "value" "#<unbound>"))))

(defun inspection (object offset limit)
  "(values kind fields rows total) for OBJECT."
  (let ((ancestors (ancestors-of object)))
    (typecase object
      (cons
       (multiple-value-bind (rows total) (list-elements object offset limit ancestors)
         (values "list" nil rows total)))
      (string
       ;; Pages of a long string are lines of 80 characters: offset and limit count those.
       (let* ((length (length object))
              (chunks (ceiling length 80)))
         (values "string" (list "length" length)
                 (loop for i from offset below (min chunks (+ offset limit))
                       for start = (* i 80)
                       for end = (min length (+ start 80))
                       collect (obj "key" (format nil "~D-~D" start (1- end))
                                    "value" (subseq object start end)))
                 chunks)))
      (vector
       (let ((length (length object)))
         (values "vector" (list "length" length "element_type" (session-print (array-element-type object))
                                "fill_pointer" (if (array-has-fill-pointer-p object) (fill-pointer object) :null))
                 (loop for i from offset below (min length (+ offset limit))
                       collect (element (princ-to-string i) (aref object i) ancestors))
                 length)))
      (array
       (let ((total (array-total-size object)))
         (values "array" (list "dimensions" (array-dimensions object)
                               "element_type" (session-print (array-element-type object)))
                 (loop for i from offset below (min total (+ offset limit))
                       collect (element (session-print (let ((subs '()) (rest i))
                                                         (dolist (d (reverse (array-dimensions object)) subs)
                                                           (multiple-value-bind (q r) (floor rest d)
                                                             (push r subs) (setf rest q)))))
                                        (row-major-aref object i) ancestors))
                 total)))
      (hash-table
       (let ((rows '()) (i 0))
         (maphash (lambda (k v)
                    (when (and (>= i offset) (< i (+ offset limit)))
                      (push (append (element (session-print k 200) v ancestors)
                                    (unless (primitive-p k) (list "key_result_id" (remember-result k nil))))
                            rows))
                    (incf i))
                  object)
         (values "hash-table" (list "test" (session-print (hash-table-test object))
                                    "count" (hash-table-count object))
                 (nreverse rows) (hash-table-count object))))
      (function
       (let ((name (ignore-errors (si::compiled-function-name object))))
         (multiple-value-bind (lambda-list found) (ignore-errors (ext:function-lambda-list object))
           (values (if (typep object 'generic-function) "generic-function" "function")
                   (list "name" (if name (session-print name) :null)
                         "lambda_list" (if found (session-print lambda-list) :null)
                         "compiled" (if (bytecoded-p object) :false t)
                         "documentation" (or (and name (ignore-errors (documentation name 'function))) :null))
                   (if (typep object 'generic-function)
                       (loop for m in (clos:generic-function-methods object)
                             for i from 0
                             when (and (>= i offset) (< i (+ offset limit)))
                               collect (element (princ-to-string i) m ancestors))
                       nil)
                   (if (typep object 'generic-function)
                       (length (clos:generic-function-methods object))
                       0)))))
      ((or structure-object standard-object condition)
       (let ((slots (ignore-errors (clos:class-slots (class-of object)))))
         (values (typecase object
                   (structure-object "structure")
                   (condition "condition")
                   (t "instance"))
                 (list "class" (session-print (class-name (class-of object))))
                 (slot-rows object slots offset limit ancestors)
                 (length slots))))
      (t (values "object" nil nil 0)))))

(defun inspect-result (request)
  (with-service-time-limit (request) (inspect-result-1 request)))

(defun inspect-result-1 (request)
  (let* ((offset (option (getf request :options) :offset 0))
         (limit (option (getf request :options) :limit 50)))
    (multiple-value-bind (object found reason) (find-result (getf request :result_id))
      (unless found
        (return-from inspect-result-1
          (ok-reply request "found" :false "message" reason)))
      (multiple-value-bind (kind fields rows total) (inspection object offset limit)
        ;; Remember where nested values came from, to mark cycles on the way down.
        (labels ((note (value) (unless (or (primitive-p value) (eq value object)
                                           (gethash value *parents*))
                                 (setf (gethash value *parents*) object))))
          (mp:with-lock (*results-lock*)
            (dolist (row rows)
              (let ((rid (second (member "result_id" (cdr row) :test #'equal))))
                (when rid (note (find-result rid)))))))
        (apply #'ok-reply request
               "found" t
               "result_id" (remember-result object)
               "kind" kind
               "type" (session-print (type-of object))
               "summary" (session-print object 500)
               "offset" offset
               "total" total
               "elements" rows
               fields)))))

(define-operation "inspect" :service #'inspect-result)

;;;; A small JSON writer for replies to the host. Requests arrive already parsed (C++ turns
;;;; them into property lists). Representation: strings, integers and floats as themselves;
;;;; (:obj "key" value ...) is an object; other lists and vectors are arrays; T and :TRUE are
;;;; true, :FALSE is false, :NULL is null and NIL is an empty array.

(in-package "LISP-DUET.KERNEL")

(defun obj (&rest keys-and-values)
  (cons :obj keys-and-values))

(defun write-json-string (string stream)
  (write-char #\" stream)
  (loop for ch across string
        for code = (char-code ch)
        do (case ch
             (#\" (write-string "\\\"" stream))
             (#\\ (write-string "\\\\" stream))
             (#\Newline (write-string "\\n" stream))
             (#\Return (write-string "\\r" stream))
             (#\Tab (write-string "\\t" stream))
             (t (if (< code 32)
                    (format stream "\\u~4,'0X" code)
                    (write-char ch stream)))))
  (write-char #\" stream))

(defun write-json (value stream)
  (cond ((stringp value) (write-json-string value stream))
        ((integerp value) (format stream "~D" value))
        ((floatp value) (format stream "~,6F" value))
        ((or (eq value t) (eq value :true)) (write-string "true" stream))
        ((eq value :false) (write-string "false" stream))
        ((eq value :null) (write-string "null" stream))
        ((null value) (write-string "[]" stream))
        ((and (consp value) (eq (car value) :obj))
         (write-char #\{ stream)
         (loop for (key val) on (cdr value) by #'cddr
               for first = t then nil
               do (unless first (write-char #\, stream))
                  (write-json-string (if (stringp key) key (string-downcase key)) stream)
                  (write-char #\: stream)
                  (write-json val stream))
         (write-char #\} stream))
        ((or (listp value) (vectorp value))
         (write-char #\[ stream)
         (let ((first t))
           (map nil (lambda (item)
                      (unless first (write-char #\, stream))
                      (setf first nil)
                      (write-json item stream))
                value))
         (write-char #\] stream))
        ((symbolp value) (write-json-string (symbol-name value) stream))
        (t (write-json-string (princ-to-string value) stream))))

(defun json-text (value)
  ;; The user may have changed the printer's globals; replies must not follow them.
  (let ((*print-base* 10) (*print-radix* nil) (*print-pretty* nil)
        (*print-readably* nil) (*read-default-float-format* 'double-float))
    (with-output-to-string (s) (write-json value s))))

(defun send (value)
  (%send-line (json-text value)))

(defun send-event (event &rest keys-and-values)
  (send (apply #'obj "event" event keys-and-values)))

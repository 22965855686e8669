;;;; A FiveAM test system whose run takes about 150 s, sleeping in steps and printing each one:
;;;; longer than a tool call waits by default (wait_seconds, 100 s), for the end-to-end test of
;;;; long work as shared jobs (issue 21, tests/e2e/jobs-long.test.mjs).

(asdf:defsystem "slowtests"
  :description "Five FiveAM tests of about 30 s each; all pass."
  :depends-on ("fiveam")
  :components ((:file "slowtests"))
  :perform (asdf:test-op (op system)
             (uiop:symbol-call :fiveam '#:run! (uiop:find-symbol* '#:slow-suite '#:slowtests))))

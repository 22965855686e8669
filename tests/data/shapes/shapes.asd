;;;; A small project for Lisp Duet's end-to-end tests of the project tools (issue 11): a system,
;;;; and a FiveAM test system in which one test fails on purpose.

(asdf:defsystem "shapes"
  :description "Areas and perimeters of a few plane shapes."
  :version "0.1.0"
  :serial t
  :components ((:module "src"
                :components ((:file "package")
                             (:file "shapes"))))
  :in-order-to ((asdf:test-op (asdf:test-op "shapes/tests"))))

(asdf:defsystem "shapes/tests"
  :description "FiveAM tests of shapes; AREA-OF-A-SQUARE fails on purpose."
  :depends-on ("shapes" "fiveam")
  :serial t
  :components ((:module "tests"
                :components ((:file "shapes-tests"))))
  :perform (asdf:test-op (op system)
             (uiop:symbol-call :fiveam '#:run! (uiop:find-symbol* '#:shapes-suite '#:shapes-tests))))

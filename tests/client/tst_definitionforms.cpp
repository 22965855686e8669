// What a top-level form defines, read from its text through LispReader: the host's half of
// the definitions panel, and how a file view names a form.

#include "lispsource/DefiningOperators.h"
#include "lispsource/DefinitionForms.h"
#include "lispsource/LispSource.h"
#include "history/Replayer.h"

#include <QTest>

class TestDefinitionForms : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsTheDefiningForms_data()
    {
        QTest::addColumn<QString>("form");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("package");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("detail"); // lambda list or init form
        QTest::newRow("defun") << "(defun fact (n) (if (< n 2) 1 (* n (fact (1- n)))))" << "function" << "" << "FACT" << "(n)";
        QTest::newRow("defun, comment first") << "; helper\n(defun  square\n  (x)\n  (* x x))" << "function" << "" << "SQUARE" << "(x)";
        QTest::newRow("cl:defun") << "(cl:defun f () 1)" << "function" << "" << "F" << "()";
        QTest::newRow("qualified name") << "(defun my-pkg::helper (a &optional b) a)" << "function" << "MY-PKG" << "HELPER" << "(a &optional b)";
        QTest::newRow("defmacro") << "(defmacro with-x ((var) &body body) `(let ((,var 1)) ,@body))" << "macro" << "" << "WITH-X" << "((var) &body body)";
        QTest::newRow("defgeneric") << "(defgeneric area (shape))" << "generic-function" << "" << "AREA" << "(shape)";
        QTest::newRow("defmethod with qualifier") << "(defmethod area :around ((s circle)) (call-next-method))" << "method" << "" << "AREA" << "((s circle))";
        QTest::newRow("setf function") << "(defun (setf thing) (value obj) value)" << "function" << "" << "(SETF THING)" << "(value obj)";
        QTest::newRow("defvar") << "(defvar *count* 10 \"How many.\")" << "variable" << "" << "*COUNT*" << "10";
        QTest::newRow("defvar without value") << "(defvar *later*)" << "variable" << "" << "*LATER*" << "";
        QTest::newRow("defparameter") << "(defparameter *greeting* \"hi there\")" << "variable" << "" << "*GREETING*" << "\"hi there\"";
        QTest::newRow("defconstant") << "(defconstant +limit+ (* 2 512))" << "constant" << "" << "+LIMIT+" << "(* 2 512)";
        QTest::newRow("defclass") << "(defclass circle (shape) ((r :initarg :r)))" << "class" << "" << "CIRCLE" << "";
        QTest::newRow("defstruct") << "(defstruct point x y)" << "structure" << "" << "POINT" << "";
        QTest::newRow("defstruct with options") << "(defstruct (point3 (:include point)) z)" << "structure" << "" << "POINT3" << "";
        QTest::newRow("escaped name") << "(defun |MixedCase| () 1)" << "function" << "" << "MixedCase" << "()";
        QTest::newRow("in-package keyword") << "(in-package :my-app)" << "package" << "" << "MY-APP" << "";
        QTest::newRow("in-package string") << "(in-package \"MY-APP\")" << "package" << "" << "MY-APP" << "";
        QTest::newRow("in-package cl-user") << "(in-package #:cl-user)" << "package" << "" << "COMMON-LISP-USER" << "";
    }
    void readsTheDefiningForms()
    {
        QFETCH(QString, form);
        QFETCH(QString, kind);
        QFETCH(QString, package);
        QFETCH(QString, name);
        QFETCH(QString, detail);
        const DefinedName d = DefinitionForms::read(form);
        QVERIFY(d.isValid());
        QCOMPARE(d.kind, kind);
        QCOMPARE(d.package, package);
        QCOMPARE(d.name, name);
        QCOMPARE(d.lambdaList.isEmpty() ? d.initForm : d.lambdaList, detail);
    }

    void otherFormsDefineNothing_data()
    {
        QTest::addColumn<QString>("form");
        QTest::newRow("a call") << "(+ 1 2)";
        QTest::newRow("an atom") << "42";
        QTest::newRow("a quoted list") << "'(defun x () 1)";
        QTest::newRow("defun without a name") << "(defun)";
        QTest::newRow("empty") << "";
        QTest::newRow("unbalanced") << "(defun (setf broken";
    }
    void otherFormsDefineNothing()
    {
        QFETCH(QString, form);
        QVERIFY(!DefinitionForms::read(form).isValid());
    }

    void readsMethodsAndDocumentation_data()
    {
        QTest::addColumn<QString>("form");
        QTest::addColumn<QString>("qualifiers");
        QTest::addColumn<QString>("specializers");
        QTest::addColumn<QString>("documentation");
        QTest::newRow("primary method") << "(defmethod area ((c circle)) \"Pi r squared.\" (* pi (r c) (r c)))" << "" << "circle" << "Pi r squared.";
        QTest::newRow("around method") << "(defmethod area :around ((c circle)) (call-next-method))" << ":around" << "circle" << "";
        QTest::newRow("two qualifiers") << "(defmethod combine and :before ((a t) b) t)" << "and,:before" << "t,t" << "";
        QTest::newRow("eql and optional") << "(defmethod paint ((k (eql :red)) (s geom:shape) &optional x) x)" << "" << "(eql :red),shape" << "";
        QTest::newRow("no parameters") << "(defmethod tick () 1)" << "" << "" << "";
        QTest::newRow("docstring after declarations") << "(defun f (x) (declare (ignore x)) \"Doc.\" 1)" << "" << "" << "Doc.";
        QTest::newRow("a lone string is the body") << "(defun f () \"just a value\")" << "" << "" << "";
        QTest::newRow("variable") << "(defvar *v* 1 \"How many.\")" << "" << "" << "How many.";
        QTest::newRow("class option") << "(defclass c () () (:documentation \"A class.\"))" << "" << "" << "A class.";
        QTest::newRow("generic option") << "(defgeneric g (x) (:documentation \"Escaped \\\"quote\\\".\"))" << "" << "" << "Escaped \"quote\".";
        QTest::newRow("structure") << "(defstruct (p (:type list)) \"A point.\" x)" << "" << "" << "A point.";
        QTest::newRow("package") << "(defpackage :app (:use :cl) (:documentation \"The app.\"))" << "" << "" << "The app.";
    }
    void readsMethodsAndDocumentation()
    {
        QFETCH(QString, form);
        QFETCH(QString, qualifiers);
        QFETCH(QString, specializers);
        QFETCH(QString, documentation);
        const DefinedName d = DefinitionForms::read(form);
        QVERIFY(d.isValid());
        QCOMPARE(d.qualifiers.join(u','), qualifiers);
        QCOMPARE(d.specializers.join(u','), specializers);
        QCOMPARE(d.documentation, documentation);
    }

    // One list: each of its operators is coloured as a definition (in-package as a special
    // form), read with its kind, and replayed; define-... outside it by convention too.
    void theOneListDrivesHighlightingReadingAndReplay()
    {
        QList<DefiningOperator> operators = DefiningOperators::all();
        operators.append(DefiningOperators::find(QStringLiteral("define-test-suite")));
        QCOMPARE(operators.size(), 20);
        for (const DefiningOperator &op : std::as_const(operators)) {
            const QString name = op.nameShape == DefiningOperator::Name::Package ? QStringLiteral(":app") : QStringLiteral("thing");
            const QString form = QStringLiteral("(%1 %2 () 1)").arg(op.name, name);
            QCOMPARE(LispSource::isDefiningOperator(op.name.toUpper()), op.definesName());
            const LispToken head = LispSource::tokens(form).at(1);
            QCOMPARE(head.kind, op.definesName() ? LispTokenKind::DefiningForm : LispTokenKind::SpecialForm);
            const DefinedName d = DefinitionForms::read(form);
            QVERIFY2(d.kind == op.kind, qPrintable(form));
            QCOMPARE(d.name, op.nameShape == DefiningOperator::Name::Package ? QStringLiteral("APP") : QStringLiteral("THING"));
            QVERIFY2(Replayer::isDefiningForm(form), qPrintable(form));
        }
        QCOMPARE(DefiningOperators::find(QStringLiteral("define-test-suite")).kind, QStringLiteral("definition"));
        QVERIFY(!DefiningOperators::find(QStringLiteral("default-x")).isValid());
        QVERIFY(!DefiningOperators::find(QStringLiteral(":defun")).isValid());
        QCOMPARE(DefiningOperators::find(QStringLiteral("CL:DEFUN")).kind, QStringLiteral("function"));
        QVERIFY(!DefinitionForms::read(QStringLiteral("(|defun| f () 1)")).isValid()); // a symbol named "defun", not DEFUN
    }
};

QTEST_GUILESS_MAIN(TestDefinitionForms)
#include "tst_definitionforms.moc"

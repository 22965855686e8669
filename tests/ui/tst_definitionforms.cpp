// What a top-level form defines, read from its text: the host's half of the definitions panel.

#include "definitions/DefinitionForms.h"
#include "definitions/DefinitionsModel.h"

#include <QJsonArray>
#include <QJsonObject>
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

    void theModelGroupsByPackageAndRemembersWhoAndWhen()
    {
        DefinitionsModel model;
        Job agent;
        agent.request.code = QStringLiteral("(defun a1 (x) x)\n(in-package :tools)\n(defvar *v* 1)");
        agent.request.origin = Origin::agent(QStringLiteral("claude-code"), QStringLiteral("k1"));
        agent.finishedAt = QDateTime::currentDateTime();
        model.record(agent, QStringLiteral("COMMON-LISP-USER"));
        Job failed;
        failed.request.code = QStringLiteral("(defun never () (error \"x\"))");
        failed.result.status = JobResult::Status::Error;
        model.record(failed, QStringLiteral("COMMON-LISP-USER"));
        QCOMPARE(model.rowCount(), 2); // COMMON-LISP-USER, TOOLS
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("COMMON-LISP-USER"));
        QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("TOOLS"));
        const DefinitionsModel::Definition *a1 = model.definition(model.find("COMMON-LISP-USER", "A1"));
        QVERIFY(a1);
        QCOMPARE(a1->definedBy, QStringLiteral("claude-code"));
        QVERIFY(model.find("TOOLS", "*V*").isValid());
        QVERIFY(!model.find("COMMON-LISP-USER", "NEVER").isValid()); // failed evaluations define nothing
        QCOMPARE(model.definitionCount(), 2);
    }

    void theEnginesListWinsAndKeepsTheHostsProvenance()
    {
        DefinitionsModel model;
        Job person;
        person.request.code = QStringLiteral("(defstruct point x y)");
        person.finishedAt = QDateTime::currentDateTime();
        model.record(person, QStringLiteral("COMMON-LISP-USER"));
        QJsonObject reply{{"status", "ok"},
                          {"definitions", QJsonArray{QJsonObject{{"name", "POINT"}, {"package", "COMMON-LISP-USER"}, {"kind", "structure"}},
                                                     QJsonObject{{"name", "POINT-X"}, {"package", "COMMON-LISP-USER"}, {"kind", "function"},
                                                                 {"lambda_list", "(STRUCTURE)"}},
                                                     QJsonObject{{"name", "LOADED"}, {"package", "COMMON-LISP-USER"}, {"kind", "variable"},
                                                                 {"value", "7"}, {"documentation", "From a file."}}}}};
        model.setEngineReply(reply);
        QVERIFY(model.engineHasDefinitions());
        QCOMPARE(model.definitionCount(), 3);
        QCOMPARE(model.definition(model.find("COMMON-LISP-USER", "POINT-X"))->definedBy, QStringLiteral("You")); // from the defstruct
        const DefinitionsModel::Definition *loaded = model.definition(model.find("COMMON-LISP-USER", "LOADED"));
        QCOMPARE(loaded->definedBy, QString());
        QCOMPARE(loaded->documentation, QStringLiteral("From a file."));
        QCOMPARE(DefinitionsModel::displayText(*loaded), QStringLiteral("loaded = 7"));
        // An engine without the operation: the host's own list.
        model.setEngineReply(QJsonObject{{"status", "failed"}});
        QVERIFY(!model.engineHasDefinitions());
        QCOMPARE(model.definitionCount(), 1);
    }
};

QTEST_GUILESS_MAIN(TestDefinitionForms)
#include "tst_definitionforms.moc"

// The definitions panel's model: what the host read from each evaluation (DefinitionForms)
// merged with what the engine reports.

#include "definitions/DefinitionsModel.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

class TestDefinitionsModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
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

QTEST_GUILESS_MAIN(TestDefinitionsModel)
#include "tst_definitionsmodel.moc"

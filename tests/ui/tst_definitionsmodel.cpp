// The definitions panel's model: what the engine lists (read through
// EngineProtocol::DefinitionsReply) merged with who defined what from the ledger. The ledger is
// fed finished jobs whose replies carry the kernel's "defined" facts, as the engine sends them
// (tst_ledgerfacts checks the kernel's side, tst_definitionledger the ledger on the real engine).

#include "definitions/DefinitionsModel.h"

#include "history/DefinitionLedger.h"
#include "client/EngineClient.h"
#include "session/Session.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

namespace {
QJsonObject defined(const QString &kind, const QString &package, const QString &name, const QString &code,
                    const QStringList &specializers = {})
{
    return {{"operator", kind == "method" ? "defmethod" : kind == "structure" ? "defstruct" : "defun"},
            {"kind", kind}, {"package", package}, {"name", name}, {"qualifiers", QJsonArray()},
            {"specializers", QJsonArray::fromStringList(specializers)}, {"start", 0}, {"end", int(code.size())},
            {"read_package", package}};
}

QJsonObject entry(const QString &package, const QString &symbol, const QString &kind, const QJsonObject &more = {})
{
    QJsonObject o{{"name", symbol}, {"package", package}, {"symbol", symbol}, {"kind", kind}, {"lambda_list", QJsonValue::Null},
                  {"value", QJsonValue::Null}, {"documentation", QJsonValue::Null}, {"file", QJsonValue::Null}, {"line", QJsonValue::Null}};
    for (auto it = more.begin(); it != more.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}
} // namespace

class TestDefinitionsModel : public QObject
{
    Q_OBJECT

private:
    quint64 m_nextJob = 1;

    // A job of `origin` that evaluated `code`, which the kernel says defined `facts`.
    void finish(Session &session, const Origin &origin, const QString &code, const QJsonObject &fact)
    {
        auto job = JobPtr::create();
        job->id = m_nextJob++;
        job->request.code = code;
        job->request.origin = origin;
        job->finishedAt = QDateTime::currentDateTime();
        job->result.reply = QJsonObject{{"status", "ok"}, {"defined", QJsonArray{fact}}};
        Q_EMIT session.finished(job);
    }

private Q_SLOTS:
    void theEnginesListGetsWhoDefinedEachNameFromTheLedger()
    {
        EngineClient engine;
        Session session(&engine);
        DefinitionLedger ledger(&session);
        DefinitionsModel model;
        model.setLedger(&ledger);
        const Origin claude = Origin::agent("claude-code", "k1");
        finish(session, Origin::person(), "(defun greet (n) n)", defined("function", "COMMON-LISP-USER", "GREET", "(defun greet (n) n)"));
        finish(session, claude, "(defun greet (n) (list n))", defined("function", "COMMON-LISP-USER", "GREET", "(defun greet (n) (list n))"));
        finish(session, claude, "(defmethod area ((s square)) 1)", defined("method", "SHAPES", "AREA", "(defmethod area ((s square)) 1)", {"SQUARE"}));
        model.setEngineReply({{"status", "ok"}, {"found", true},
                              {"definitions", QJsonArray{entry("COMMON-LISP-USER", "GREET", "function", {{"lambda_list", "(N)"}}),
                                                         entry("SHAPES", "AREA", "generic-function", {{"lambda_list", "(SHAPE)"}}),
                                                         entry("SHAPES", "*UNIT*", "variable", {{"value", "\"cm\""}, {"documentation", "The unit."}}),
                                                         entry("SHAPES", "PERIMETER", "generic-function")}}});
        QVERIFY(model.engineHasDefinitions());
        QCOMPARE(model.packages(), (QStringList{"COMMON-LISP-USER", "SHAPES"}));
        const DefinitionsModel::Definition *greet = model.definition(model.find("COMMON-LISP-USER", "GREET"));
        QVERIFY(greet);
        QCOMPARE(greet->definedBy, QStringLiteral("claude-code"));
        QVERIFY(greet->byAgent);
        QCOMPARE(greet->versions, 2);
        QCOMPARE(greet->form, QStringLiteral("(defun greet (n) (list n))"));
        QCOMPARE(model.data(model.find("COMMON-LISP-USER", "GREET").siblingAtColumn(DefinitionsModel::ByColumn)).toString(),
                 QStringLiteral("claude-code \u00b7 v2"));
        QCOMPARE(DefinitionsModel::displayText(*greet), QStringLiteral("greet (n)"));
        // The generic function's method follows it, as its own row with its own history.
        const QModelIndex shapes = model.index(1, 0);
        QCOMPARE(model.rowCount(shapes), 4);
        QCOMPARE(model.index(0, 0, shapes).data().toString(), QStringLiteral("area (shape)"));
        QCOMPARE(model.index(1, 0, shapes).data().toString(), QStringLiteral("area (square)"));
        QCOMPARE(model.index(1, DefinitionsModel::KindColumn, shapes).data().toString(), QStringLiteral("method"));
        QCOMPARE(model.index(2, 0, shapes).data().toString(), QStringLiteral("perimeter"));
        const DefinitionsModel::Definition *method = model.definition(model.index(1, 0, shapes));
        QCOMPARE(method->key.text(), QStringLiteral("SHAPES::AREA (SQUARE)"));
        QVERIFY(model.find(method->key).isValid());
        const DefinitionsModel::Definition *unit = model.definition(model.find("SHAPES", "*UNIT*"));
        QCOMPARE(DefinitionsModel::displayText(*unit), QStringLiteral("*unit* = \"cm\""));
        QCOMPARE(unit->documentation, QStringLiteral("The unit."));
        QVERIFY(unit->definedBy.isEmpty()); // the ledger never saw it defined
    }

    void aStructuresFunctionsHaveItsProvenance()
    {
        EngineClient engine;
        Session session(&engine);
        DefinitionLedger ledger(&session);
        DefinitionsModel model;
        model.setLedger(&ledger);
        finish(session, Origin::person(), "(defstruct point x y)", defined("structure", "COMMON-LISP-USER", "POINT", "(defstruct point x y)"));
        model.setEngineReply({{"status", "ok"}, {"found", true},
                              {"definitions", QJsonArray{entry("COMMON-LISP-USER", "POINT", "structure"),
                                                         entry("COMMON-LISP-USER", "POINT-X", "function", {{"lambda_list", "(STRUCTURE)"}})}}});
        QCOMPARE(model.definition(model.find("COMMON-LISP-USER", "POINT-X"))->definedBy, QStringLiteral("You"));
        QCOMPARE(model.definition(model.find("COMMON-LISP-USER", "POINT"))->versions, 1);
    }

    void withoutTheEnginesListTheLedgersLiveDefinitionsAreShown()
    {
        EngineClient engine;
        Session session(&engine);
        DefinitionLedger ledger(&session);
        DefinitionsModel model;
        model.setLedger(&ledger);
        finish(session, Origin::person(), "(defun solo () 1)", defined("function", "COMMON-LISP-USER", "SOLO", "(defun solo () 1)"));
        model.setEngineReply(QJsonObject{{"status", "failed"}});
        QVERIFY(!model.engineHasDefinitions());
        QCOMPARE(model.definitionCount(), 1);
        QCOMPARE(model.definition(model.find("COMMON-LISP-USER", "SOLO"))->definedBy, QStringLiteral("You"));
        // Keys the kernel never sends are not read: an entry without "package" is left out.
        model.setEngineReply({{"status", "ok"}, {"found", true}, {"definitions", QJsonArray{QJsonObject{{"symbol", "X"}, {"type", "function"}}}}});
        QCOMPARE(model.definitionCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestDefinitionsModel)
#include "tst_definitionsmodel.moc"

// Agent access modes as the McpServer's call gate, through real tools/call messages; and the
// mode itself (mcp/AccessMode.h) as the plain value headless code uses.

#include "access/AccessController.h"

#include "EngineClient.h"
#include "FakeTools.h"
#include "McpPeer.h"
#include "McpServer.h"
#include "Session.h"
#include "ToolRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

class TestAccessController : public QObject
{
    Q_OBJECT

    struct Rig
    {
        EngineClient engine; // never started: the fake tools need no engine
        Session session{&engine};
        ToolRegistry tools;
        McpServer server{&session, &tools};
        AccessController access;
        EchoTool *eval;
        EchoTool *describe;
        McpPeer *peer;
        QList<QJsonObject> sent;
        int nextId = 1;

        Rig()
        {
            eval = addEchoTool(tools, QStringLiteral("evaluate-lisp"), false);
            describe = addEchoTool(tools, QStringLiteral("describe-symbol"), true);
            access.install(&server);
            peer = server.createPeer(QStringLiteral("test"));
            QObject::connect(peer, &McpPeer::message, [this](const QJsonObject &m) { sent.append(m); });
            receive({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
                     {"params", QJsonObject{{"protocolVersion", "2025-06-18"}, {"clientInfo", QJsonObject{{"name", "tester"}}}}}});
        }
        void receive(const QJsonObject &message) { server.receive(peer, QJsonDocument(message).toJson(QJsonDocument::Compact)); }
        int call(const QString &tool, const QString &code, const QString &description = QString())
        {
            const int id = nextId++;
            QJsonObject arguments{{"code", code}};
            if (!description.isEmpty())
                arguments.insert("description", description);
            receive({{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", QJsonObject{{"name", tool}, {"arguments", arguments}}}});
            return id;
        }
        QJsonObject response(int id) const
        {
            for (const QJsonObject &m : sent) {
                if (m.value("id").toInt(-1) == id && m.contains("result"))
                    return m.value("result").toObject();
            }
            return {};
        }
        static QString text(const QJsonObject &result) { return result.value("content").toArray().at(0).toObject().value("text").toString(); }
    };

private Q_SLOTS:
    void allowRunsEveryCall()
    {
        Rig rig;
        const QJsonObject result = rig.response(rig.call("evaluate-lisp", "(+ 1 2)"));
        QCOMPARE(Rig::text(result), QStringLiteral("echo: (+ 1 2)"));
        QCOMPARE(result.value("isError").toBool(), false);
    }

    void pausedRefusesEveryToolAtOnce_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::newRow("evaluation") << QStringLiteral("evaluate-lisp");
        QTest::newRow("introspection") << QStringLiteral("describe-symbol");
    }
    void pausedRefusesEveryToolAtOnce()
    {
        QFETCH(QString, tool);
        Rig rig;
        rig.access.setMode(AccessMode::Paused);
        const QJsonObject result = rig.response(rig.call(tool, "x"));
        QVERIFY(result.value("isError").toBool());
        QCOMPARE(Rig::text(result), AccessModes::pausedMessage());
        QVERIFY(Rig::text(result).startsWith(QStringLiteral("The person has paused agent access")));
        QCOMPARE(rig.eval->calls + rig.describe->calls, 0);
        QVERIFY(rig.access.pending().isEmpty());
    }

    void readOnlyLetsIntrospectionThroughAndRefusesEvaluation()
    {
        Rig rig;
        rig.access.setMode(AccessMode::ReadOnly);
        QCOMPARE(rig.response(rig.call("describe-symbol", "car")).value("isError").toBool(), false);
        const QJsonObject refused = rig.response(rig.call("evaluate-lisp", "(launch)"));
        QVERIFY(refused.value("isError").toBool());
        QVERIFY(Rig::text(refused).contains(QStringLiteral("read-only")));
        QVERIFY(Rig::text(refused).contains(QStringLiteral("evaluate-lisp")));
        QCOMPARE(rig.eval->calls, 0);
    }

    void askHoldsEvaluationUntilApproved()
    {
        Rig rig;
        rig.access.setMode(AccessMode::Ask);
        QSignalSpy waiting(&rig.access, &AccessController::callAwaitingApproval);
        const int id = rig.call("evaluate-lisp", "(+ 1 2)", "adding");
        QCOMPARE(waiting.size(), 1);
        QCOMPARE(rig.access.pending().size(), 1);
        const AccessController::Pending &p = rig.access.pending().first();
        QCOMPARE(p.clientName, QStringLiteral("tester"));
        QCOMPARE(p.toolName, QStringLiteral("evaluate-lisp"));
        QCOMPARE(p.description, QStringLiteral("adding"));
        QCOMPARE(p.code, QStringLiteral("(+ 1 2)"));
        QVERIFY(rig.response(id).isEmpty());
        QCOMPARE(rig.eval->calls, 0);
        rig.access.approve();
        QCOMPARE(rig.eval->calls, 1);
        QCOMPARE(Rig::text(rig.response(id)), QStringLiteral("echo: (+ 1 2)"));
    }

    void askLetsReadOnlyToolsThroughWithoutAsking()
    {
        Rig rig;
        rig.access.setMode(AccessMode::Ask);
        QCOMPARE(Rig::text(rig.response(rig.call("describe-symbol", "car"))), QStringLiteral("echo: car"));
        QVERIFY(rig.access.pending().isEmpty());
    }

    void askDenialIsAnErrorResultSayingThePersonDeniedIt()
    {
        Rig rig;
        rig.access.setMode(AccessMode::Ask);
        const int first = rig.call("evaluate-lisp", "(first)");
        const int second = rig.call("evaluate-lisp", "(second)");
        QCOMPARE(rig.access.pending().size(), 2);
        rig.access.deny();
        QVERIFY(rig.response(first).value("isError").toBool());
        QCOMPARE(Rig::text(rig.response(first)), AccessModes::deniedMessage(QStringLiteral("evaluate-lisp")));
        QVERIFY(Rig::text(rig.response(first)).contains(QStringLiteral("denied")));
        QVERIFY(rig.response(second).isEmpty()); // still waiting, in order
        rig.access.approve();
        QCOMPARE(Rig::text(rig.response(second)), QStringLiteral("echo: (second)"));
        QCOMPARE(rig.eval->calls, 1);
    }

    void aCancelledCallLeavesTheQueue()
    {
        Rig rig;
        rig.access.setMode(AccessMode::Ask);
        const int id = rig.call("evaluate-lisp", "(slow)");
        QSignalSpy changed(&rig.access, &AccessController::pendingChanged);
        rig.receive({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", QJsonObject{{"requestId", id}}}});
        QVERIFY(rig.access.pending().isEmpty());
        QVERIFY(changed.size() >= 1);
        rig.access.approve(); // nothing left: no crash, nothing runs
        QCOMPARE(rig.eval->calls, 0);
    }

    void aModeChangeDecidesTheWaitingCalls_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("runs");
        QTest::newRow("allow runs them") << int(AccessMode::Allow) << true;
        QTest::newRow("read-only refuses them") << int(AccessMode::ReadOnly) << false;
        QTest::newRow("paused refuses them") << int(AccessMode::Paused) << false;
    }
    void aModeChangeDecidesTheWaitingCalls()
    {
        QFETCH(int, mode);
        QFETCH(bool, runs);
        Rig rig;
        rig.access.setMode(AccessMode::Ask);
        const int id = rig.call("evaluate-lisp", "(x)");
        rig.access.setMode(AccessMode(mode));
        QVERIFY(rig.access.pending().isEmpty());
        QCOMPARE(rig.response(id).value("isError").toBool(), !runs);
        QCOMPARE(rig.eval->calls, runs ? 1 : 0);
    }

    // No AccessController, no ui: what headless code sees of a mode.
    void aModeDecidesEachCallByItself_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("readOnlyTool");
        QTest::addColumn<int>("verdict");
        QTest::addColumn<QString>("refusal");
        using V = AccessDecision::Verdict;
        QTest::newRow("allow, evaluation") << int(AccessMode::Allow) << false << int(V::Run) << QString();
        QTest::newRow("ask, evaluation") << int(AccessMode::Ask) << false << int(V::AskThePerson) << QString();
        QTest::newRow("ask, introspection") << int(AccessMode::Ask) << true << int(V::Run) << QString();
        QTest::newRow("read-only, evaluation") << int(AccessMode::ReadOnly) << false << int(V::Refuse)
                                               << AccessModes::readOnlyMessage(QStringLiteral("evaluate-lisp"));
        QTest::newRow("read-only, introspection") << int(AccessMode::ReadOnly) << true << int(V::Run) << QString();
        QTest::newRow("paused, introspection") << int(AccessMode::Paused) << true << int(V::Refuse) << AccessModes::pausedMessage();
    }
    void aModeDecidesEachCallByItself()
    {
        QFETCH(int, mode);
        QFETCH(bool, readOnlyTool);
        QFETCH(int, verdict);
        QFETCH(QString, refusal);
        const AccessDecision decision = AccessModes::decide(AccessMode(mode), readOnlyTool, QStringLiteral("evaluate-lisp"));
        QCOMPARE(int(decision.verdict), verdict);
        QCOMPARE(decision.refusal, refusal);
    }

    // A tool that changes files: in Ask its call runs and each change it proposes waits for
    // the person with its diff (ProjectFiles' change gate; tests/ui/tst_projectchanges).
    void aFileToolIsDecidedByItsChangesInAsk()
    {
        using V = AccessDecision::Verdict;
        const QString tool = QStringLiteral("write-file");
        QCOMPARE(AccessModes::decide(AccessMode::Allow, false, tool, true).verdict, V::Run);
        QCOMPARE(AccessModes::decide(AccessMode::Ask, false, tool, true).verdict, V::Run);
        const AccessDecision readOnly = AccessModes::decide(AccessMode::ReadOnly, false, tool, true);
        QCOMPARE(readOnly.verdict, V::Refuse);
        QCOMPARE(readOnly.refusal, AccessModes::readOnlyWriteMessage(tool));
        QVERIFY(readOnly.refusal.contains(tool) && readOnly.refusal.contains(QStringLiteral("nothing was written")));
        QCOMPARE(AccessModes::decide(AccessMode::Paused, false, tool, true).refusal, AccessModes::pausedMessage());
    }

    void aModeIsStoredByItsKey()
    {
        QStringList keys;
        for (AccessMode mode : AccessModes::all()) {
            keys << AccessModes::settingsKey(mode);
            QCOMPARE(AccessModes::fromSettingsKey(AccessModes::settingsKey(mode)), mode);
            QVERIFY(!AccessModes::name(mode).isEmpty() && !AccessModes::description(mode).isEmpty());
        }
        QCOMPARE(keys, QStringList({"allow", "ask", "read-only", "paused"}));
        QCOMPARE(AccessModes::fromSettingsKey(QStringLiteral("bogus")), AccessMode::Allow);
    }
};

QTEST_GUILESS_MAIN(TestAccessController)
#include "tst_accesscontroller.moc"

// Agent access modes as the McpServer's call gate, through real tools/call messages.

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
            auto evalTool = std::make_unique<EchoTool>(QStringLiteral("evaluate-lisp"), false);
            auto describeTool = std::make_unique<EchoTool>(QStringLiteral("describe-symbol"), true);
            eval = evalTool.get();
            describe = describeTool.get();
            tools.add(std::move(evalTool));
            tools.add(std::move(describeTool));
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
        rig.access.setMode(AccessController::Mode::Paused);
        const QJsonObject result = rig.response(rig.call(tool, "x"));
        QVERIFY(result.value("isError").toBool());
        QCOMPARE(Rig::text(result), AccessController::pausedMessage());
        QVERIFY(Rig::text(result).startsWith(QStringLiteral("The person has paused agent access")));
        QCOMPARE(rig.eval->calls + rig.describe->calls, 0);
        QVERIFY(rig.access.pending().isEmpty());
    }

    void readOnlyLetsIntrospectionThroughAndRefusesEvaluation()
    {
        Rig rig;
        rig.access.setMode(AccessController::Mode::ReadOnly);
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
        rig.access.setMode(AccessController::Mode::Ask);
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
        rig.access.setMode(AccessController::Mode::Ask);
        QCOMPARE(Rig::text(rig.response(rig.call("describe-symbol", "car"))), QStringLiteral("echo: car"));
        QVERIFY(rig.access.pending().isEmpty());
    }

    void askDenialIsAnErrorResultSayingThePersonDeniedIt()
    {
        Rig rig;
        rig.access.setMode(AccessController::Mode::Ask);
        const int first = rig.call("evaluate-lisp", "(first)");
        const int second = rig.call("evaluate-lisp", "(second)");
        QCOMPARE(rig.access.pending().size(), 2);
        rig.access.deny();
        QVERIFY(rig.response(first).value("isError").toBool());
        QCOMPARE(Rig::text(rig.response(first)), AccessController::deniedMessage(QStringLiteral("evaluate-lisp")));
        QVERIFY(Rig::text(rig.response(first)).contains(QStringLiteral("denied")));
        QVERIFY(rig.response(second).isEmpty()); // still waiting, in order
        rig.access.approve();
        QCOMPARE(Rig::text(rig.response(second)), QStringLiteral("echo: (second)"));
        QCOMPARE(rig.eval->calls, 1);
    }

    void aCancelledCallLeavesTheQueue()
    {
        Rig rig;
        rig.access.setMode(AccessController::Mode::Ask);
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
        QTest::newRow("allow runs them") << int(AccessController::Mode::Allow) << true;
        QTest::newRow("read-only refuses them") << int(AccessController::Mode::ReadOnly) << false;
        QTest::newRow("paused refuses them") << int(AccessController::Mode::Paused) << false;
    }
    void aModeChangeDecidesTheWaitingCalls()
    {
        QFETCH(int, mode);
        QFETCH(bool, runs);
        Rig rig;
        rig.access.setMode(AccessController::Mode::Ask);
        const int id = rig.call("evaluate-lisp", "(x)");
        rig.access.setMode(AccessController::Mode(mode));
        QVERIFY(rig.access.pending().isEmpty());
        QCOMPARE(rig.response(id).value("isError").toBool(), !runs);
        QCOMPARE(rig.eval->calls, runs ? 1 : 0);
    }
};

QTEST_GUILESS_MAIN(TestAccessController)
#include "tst_accesscontroller.moc"

// Agent access (AccessGate) as the McpServer's call gate, through real tools/call messages: in
// the window (the person decides what waits) and without one (the person is asked through the
// client: MCP elicitation, as an elicitation/create request or a 2026-07-28 input_required
// result); and the mode itself (mcp/access/AccessMode.h) as a plain value.

#include "access/AccessGate.h"

#include "../common/FakeTools.h"
#include "client/EngineClient.h"
#include "server/McpPeer.h"
#include "server/McpServer.h"
#include "session/Session.h"
#include "toolapi/ToolRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

class TestAccessGate : public QObject
{
    Q_OBJECT

    struct Rig
    {
        EngineClient engine; // never started: the fake tools need no engine
        Session session{&engine};
        ToolRegistry tools;
        McpServer server{&session, &tools};
        AccessGate access;
        EchoTool *eval;
        EchoTool *describe;
        McpPeer *peer;
        QList<QJsonObject> sent;
        int nextId = 1;

        // In the window unless told otherwise; `capabilities`: what the client declares.
        explicit Rig(AccessGate::Asking asking = AccessGate::Asking::InTheWindow, const QJsonObject &capabilities = {})
        {
            eval = addEchoTool(tools, QStringLiteral("evaluate-lisp"), false);
            describe = addEchoTool(tools, QStringLiteral("describe-symbol"), true);
            access.install(&server);
            access.setAsking(asking);
            peer = server.createPeer(QStringLiteral("test"));
            QObject::connect(peer, &McpPeer::message, [this](const QJsonObject &m) { sent.append(m); });
            receive({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
                     {"params", QJsonObject{{"protocolVersion", "2025-06-18"}, {"capabilities", capabilities},
                                            {"clientInfo", QJsonObject{{"name", "tester"}}}}}});
        }
        void receive(const QJsonObject &message) { server.receive(peer, QJsonDocument(message).toJson(QJsonDocument::Compact)); }
        static QJsonObject arguments(const QString &code, const QString &description)
        {
            QJsonObject arguments{{"code", code}};
            if (!description.isEmpty())
                arguments.insert("description", description);
            return arguments;
        }
        int call(const QString &tool, const QString &code, const QString &description = QString())
        {
            const int id = nextId++;
            receive({{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
                     {"params", QJsonObject{{"name", tool}, {"arguments", arguments(code, description)}}}});
            return id;
        }
        // A 2026-07-28 call (its own _meta, no handshake), with what a retry adds to its params.
        int modernCall(const QString &tool, const QString &code, const QJsonObject &retry = {}, const QJsonObject &capabilities = Forms)
        {
            const int id = nextId++;
            QJsonObject params{{"name", tool}, {"arguments", arguments(code, {})},
                               {"_meta", QJsonObject{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                                     {"io.modelcontextprotocol/clientCapabilities", capabilities},
                                                     {"io.modelcontextprotocol/clientInfo", QJsonObject{{"name", "modern"}, {"version", "2"}}}}}};
            for (auto it = retry.begin(); it != retry.end(); ++it)
                params.insert(it.key(), it.value());
            receive({{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", params}});
            return id;
        }
        // The server's requests to the client, oldest first.
        QList<QJsonObject> requestsToClient(const QString &method) const
        {
            QList<QJsonObject> found;
            for (const QJsonObject &m : sent) {
                if (m.value("method").toString() == method && m.contains("id"))
                    found.append(m);
            }
            return found;
        }
        void answer(const QJsonObject &request, const QJsonObject &result)
        {
            receive({{"jsonrpc", "2.0"}, {"id", request.value("id")}, {"result", result}});
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
        static inline const QJsonObject Forms{{"elicitation", QJsonObject{{"form", QJsonObject{}}}}};
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
        QSignalSpy waiting(&rig.access, &AccessGate::pendingChanged);
        const int id = rig.call("evaluate-lisp", "(+ 1 2)", "adding");
        QCOMPARE(waiting.size(), 1);
        QCOMPARE(rig.access.pending().size(), 1);
        const AccessGate::Pending &p = rig.access.pending().first();
        QCOMPARE(p.call->trace()->state(), RequestTrace::State::AwaitingApproval); // the window shows it so
        QCOMPARE(p.clientName, QStringLiteral("tester"));
        QCOMPARE(p.toolName, QStringLiteral("evaluate-lisp"));
        QCOMPARE(p.description, QStringLiteral("adding"));
        QCOMPARE(p.code, QStringLiteral("(+ 1 2)"));
        QVERIFY(rig.response(id).isEmpty());
        QCOMPARE(rig.eval->calls, 0);
        const RequestTracePtr trace = p.call->traceRef();
        rig.access.approve();
        QCOMPARE(rig.eval->calls, 1);
        QCOMPARE(Rig::text(rig.response(id)), QStringLiteral("echo: (+ 1 2)"));
        QCOMPARE(trace->state(), RequestTrace::State::Done);
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
        QSignalSpy changed(&rig.access, &AccessGate::pendingChanged);
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

    // Without a window (every headless start), Ask asks the person through the client.
    void withoutAWindowAskSendsTheClientAQuestionWithTheCodeAndRunsOnAccept()
    {
        Rig rig(AccessGate::Asking::ThroughTheClient, Rig::Forms);
        rig.access.setMode(AccessMode::Ask);
        const int id = rig.call("evaluate-lisp", "(launch-rockets)", "a test");
        const QList<QJsonObject> asked = rig.requestsToClient("elicitation/create");
        QCOMPARE(asked.size(), 1);
        const QJsonObject params = asked.first().value("params").toObject();
        QCOMPARE(params.value("mode").toString(), QStringLiteral("form"));
        QCOMPARE(params.value("message").toString(),
                 QStringLiteral("tester wants to run evaluate-lisp: a test\n\n(launch-rockets)\n\nAccept to run it; decline to refuse it."));
        QCOMPARE(params.value("requestedSchema").toObject().value("type").toString(), QStringLiteral("object"));
        QVERIFY(rig.access.pending().isEmpty()); // nothing waits in a window that is not there
        QVERIFY(rig.response(id).isEmpty());
        QCOMPARE(rig.eval->calls, 0);
        rig.answer(asked.first(), {{"action", "accept"}, {"content", QJsonObject{}}});
        QCOMPARE(rig.eval->calls, 1);
        QCOMPARE(Rig::text(rig.response(id)), QStringLiteral("echo: (launch-rockets)"));
    }

    void withoutAWindowADeclinedOrCancelledQuestionIsADenial_data()
    {
        QTest::addColumn<QString>("action");
        QTest::newRow("decline") << QStringLiteral("decline");
        QTest::newRow("cancel") << QStringLiteral("cancel");
    }
    void withoutAWindowADeclinedOrCancelledQuestionIsADenial()
    {
        QFETCH(QString, action);
        Rig rig(AccessGate::Asking::ThroughTheClient, QJsonObject{{"elicitation", QJsonObject{}}}); // 2025-06-18's declaration
        rig.access.setMode(AccessMode::Ask);
        const int id = rig.call("evaluate-lisp", "(x)");
        rig.answer(rig.requestsToClient("elicitation/create").value(0), {{"action", action}});
        QCOMPARE(Rig::text(rig.response(id)), AccessModes::deniedMessage(QStringLiteral("evaluate-lisp")));
        QCOMPARE(rig.eval->calls, 0);
    }

    void withoutAWindowAClientThatCannotAskIsRefusedWithHowToAllowIt_data()
    {
        QTest::addColumn<QJsonObject>("capabilities");
        QTest::newRow("no elicitation") << QJsonObject{};
        QTest::newRow("URL mode only") << QJsonObject{{"elicitation", QJsonObject{{"url", QJsonObject{}}}}};
    }
    void withoutAWindowAClientThatCannotAskIsRefusedWithHowToAllowIt()
    {
        QFETCH(QJsonObject, capabilities);
        Rig rig(AccessGate::Asking::ThroughTheClient, capabilities);
        rig.access.setMode(AccessMode::Ask);
        const QJsonObject result = rig.response(rig.call("evaluate-lisp", "(x)"));
        QVERIFY(result.value("isError").toBool());
        QCOMPARE(Rig::text(result), AccessModes::askUnavailableMessage(QStringLiteral("evaluate-lisp did not run")));
        QVERIFY(Rig::text(result).contains(QStringLiteral("--access allow")));
        QVERIFY(rig.requestsToClient("elicitation/create").isEmpty());
        QCOMPARE(rig.eval->calls, 0);
    }

    void withoutAWindowReadOnlyAndPausedRefuseWithoutAsking()
    {
        Rig rig(AccessGate::Asking::ThroughTheClient, Rig::Forms);
        rig.access.setMode(AccessMode::ReadOnly);
        QVERIFY(Rig::text(rig.response(rig.call("evaluate-lisp", "(x)"))).contains(QStringLiteral("read-only")));
        rig.access.setMode(AccessMode::Paused);
        QCOMPARE(Rig::text(rig.response(rig.call("describe-symbol", "car"))), AccessModes::pausedMessage());
        QVERIFY(rig.requestsToClient("elicitation/create").isEmpty());
        QCOMPARE(rig.eval->calls + rig.describe->calls, 0);
    }

    // 2026-07-28 has no requests from the server: the question is the call's result, and the
    // client's retry carries the answer with the state it was given.
    void aModernCallEndsInputRequiredAndItsRetryDecides_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<bool>("runs");
        QTest::newRow("accepted") << QStringLiteral("accept") << true;
        QTest::newRow("declined") << QStringLiteral("decline") << false;
    }
    void aModernCallEndsInputRequiredAndItsRetryDecides()
    {
        QFETCH(QString, action);
        QFETCH(bool, runs);
        Rig rig(AccessGate::Asking::ThroughTheClient);
        rig.access.setMode(AccessMode::Ask);
        const QJsonObject first = rig.response(rig.modernCall("evaluate-lisp", "(x)"));
        QCOMPARE(first.value("resultType").toString(), QStringLiteral("input_required"));
        const QJsonObject question = first.value("inputRequests").toObject().value("approval").toObject();
        QCOMPARE(question.value("method").toString(), QStringLiteral("elicitation/create"));
        QVERIFY(question.value("params").toObject().value("message").toString().startsWith(QStringLiteral("modern wants to run evaluate-lisp")));
        QVERIFY(!first.contains("content"));
        QVERIFY(rig.requestsToClient("elicitation/create").isEmpty());
        QCOMPARE(rig.eval->calls, 0);

        const QJsonObject retry{{"inputResponses", QJsonObject{{"approval", QJsonObject{{"action", action}}}}},
                                {"requestState", first.value("requestState")}};
        const QJsonObject second = rig.response(rig.modernCall("evaluate-lisp", "(x)", retry));
        QCOMPARE(second.value("resultType").toString(), QStringLiteral("complete"));
        QCOMPARE(Rig::text(second), runs ? QStringLiteral("echo: (x)") : AccessModes::deniedMessage(QStringLiteral("evaluate-lisp")));
        QCOMPARE(rig.eval->calls, runs ? 1 : 0);
    }

    void aModernAnswerCountsOnlyForTheQuestionItsStateWasGivenFor_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("forged");
        QTest::newRow("other code") << QStringLiteral("(y)") << false;
        QTest::newRow("forged state") << QStringLiteral("(x)") << true;
    }
    void aModernAnswerCountsOnlyForTheQuestionItsStateWasGivenFor()
    {
        QFETCH(QString, code);
        QFETCH(bool, forged);
        Rig rig(AccessGate::Asking::ThroughTheClient);
        rig.access.setMode(AccessMode::Ask);
        QString state = rig.response(rig.modernCall("evaluate-lisp", "(x)")).value("requestState").toString();
        QVERIFY(!state.isEmpty());
        if (forged)
            state[state.size() - 3] = state.at(state.size() - 3) == QLatin1Char('A') ? QLatin1Char('B') : QLatin1Char('A');
        const QJsonObject retry{{"inputResponses", QJsonObject{{"approval", QJsonObject{{"action", "accept"}}}}}, {"requestState", state}};
        const QJsonObject again = rig.response(rig.modernCall("evaluate-lisp", code, retry));
        QCOMPARE(again.value("resultType").toString(), QStringLiteral("input_required")); // asked again, never run
        QCOMPARE(rig.eval->calls, 0);
    }

    void aModernClientWithoutElicitationIsRefusedNotAsked()
    {
        Rig rig(AccessGate::Asking::ThroughTheClient);
        rig.access.setMode(AccessMode::Ask);
        const QJsonObject result = rig.response(rig.modernCall("evaluate-lisp", "(x)", {}, QJsonObject{}));
        QCOMPARE(result.value("resultType").toString(), QStringLiteral("complete"));
        QCOMPARE(Rig::text(result), AccessModes::askUnavailableMessage(QStringLiteral("evaluate-lisp did not run")));
    }

    // No gate at all: what a mode decides for one call.
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

QTEST_GUILESS_MAIN(TestAccessGate)
#include "tst_accessgate.moc"

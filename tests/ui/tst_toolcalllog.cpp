// The tool calls log as McpServer's signals drive it: one row per request, states, durations,
// request and response, JSON lines.

#include "toolcalls/ToolCallLog.h"

#include "access/AccessGate.h"

#include "../common/FakeTools.h"
#include "client/EngineClient.h"
#include "features/PromptProvider.h"
#include "features/ResourceProvider.h"
#include "server/McpPeer.h"
#include "server/McpServer.h"
#include "session/Session.h"
#include "toolapi/ToolRegistry.h"
#include "tools/JobHandles.h"
#include "tools/Tools.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

class TestToolCallLog : public QObject
{
    Q_OBJECT

    struct Rig
    {
        EngineClient engine;
        Session session{&engine};
        ToolRegistry tools;
        McpServer server{&session, &tools};
        ResourceProvider resources{&server, &session};
        PromptProvider prompts{&server};
        ToolCallLog log;
        EchoTool *echo;
        EchoTool *failing;
        EchoTool *slow;
        EchoTool *eval;
        McpPeer *peer;
        int nextId = 1;

        Rig()
        {
            echo = addEchoTool(tools, QStringLiteral("echo"), true);
            failing = addEchoTool(tools, QStringLiteral("failing"), false, true);
            slow = addEchoTool(tools, QStringLiteral("slow"), false);
            slow->holdCalls();
            eval = addEchoTool(tools, QStringLiteral("evaluate-lisp"), false);
            log.attach(&server);
            peer = server.createPeer(QStringLiteral("test"));
            request("initialize", QJsonObject{{"protocolVersion", "2025-06-18"}, {"clientInfo", QJsonObject{{"name", "inspector"}}}});
        }
        int request(const QString &method, const QJsonObject &params = {})
        {
            const int id = nextId++;
            server.receive(peer, QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}})
                                     .toJson(QJsonDocument::Compact));
            return id;
        }
        int call(const QString &tool, const QJsonObject &arguments)
        {
            return request("tools/call", QJsonObject{{"name", tool}, {"arguments", arguments}});
        }
        const RequestTrace &last() const { return log.entry(log.rowCount() - 1); }
    };

private Q_SLOTS:
    void everyRequestIsARowNamingItsClient()
    {
        Rig rig;
        QCOMPARE(rig.log.rowCount(), 1);
        QCOMPARE(rig.log.entry(0).method(), QStringLiteral("initialize"));
        QCOMPARE(rig.log.entry(0).client(), QStringLiteral("inspector"));
        QCOMPARE(rig.log.entry(0).state(), ToolCallLog::State::Done);
        rig.request("ping");
        QCOMPARE(rig.log.rowCount(), 2);
        QCOMPARE(rig.last().method(), QStringLiteral("ping"));
        QCOMPARE(rig.log.index(1, ToolCallLog::ToolColumn).data().toString(), QStringLiteral("ping"));
        QCOMPARE(rig.log.index(1, ToolCallLog::ClientColumn).data().toString(), QStringLiteral("inspector"));
    }

    void aToolCallRowHasToolSummaryStateDurationAndBothMessages()
    {
        Rig rig;
        rig.call("echo", {{"code", "(+ 1\n   2)"}});
        const RequestTrace &e = rig.last();
        QCOMPARE(e.tool(), QStringLiteral("echo"));
        QCOMPARE(ToolCallLog::summarize(e.arguments()), QStringLiteral("(+ 1 2)"));
        QCOMPARE(e.state(), ToolCallLog::State::Done);
        QVERIFY(e.isOver());
        QCOMPARE(e.request().value("method").toString(), QStringLiteral("tools/call"));
        QCOMPARE(e.response().value("result").toObject().value("content").toArray().at(0).toObject().value("text").toString(),
                 QStringLiteral("echo: (+ 1\n   2)"));
        QVERIFY(rig.log.index(rig.log.rowCount() - 1, ToolCallLog::DurationColumn).data().toString().endsWith(" ms"));
    }

    void errorsShowAsErrors_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("tool");
        QTest::newRow("isError result") << "tools/call" << "failing";
        QTest::newRow("unknown tool") << "tools/call" << "no-such-tool";
        QTest::newRow("unknown method") << "server/discover" << "";
    }
    void errorsShowAsErrors()
    {
        QFETCH(QString, method);
        QFETCH(QString, tool);
        Rig rig;
        if (tool.isEmpty())
            rig.request(method);
        else
            rig.call(tool, {{"code", "x"}});
        QCOMPARE(rig.last().state(), ToolCallLog::State::Error);
        QCOMPARE(rig.log.index(rig.log.rowCount() - 1, ToolCallLog::StateColumn).data().toString(), QStringLiteral("error"));
    }

    // The real evaluate-lisp on the real engine: a call that answered "running" (its job goes on)
    // and one that answered with its evaluation parked in the debugger are neither done nor
    // errors, whichever revision the client speaks (2026-07-28's answer is written apart).
    void aHandedOffCallAndAParkedCallSayWhatBecameOfTheirWork_data()
    {
        QTest::addColumn<bool>("modern");
        QTest::newRow("2025-06-18") << false;
        QTest::newRow("2026-07-28") << true;
    }
    void aHandedOffCallAndAParkedCallSayWhatBecameOfTheirWork()
    {
        QFETCH(bool, modern);
        EngineClient engine;
        Session session(&engine);
        JobHandles jobs(&session);
        ToolRegistry tools;
        McpServer server(&session, &tools);
        ToolCallLog log;
        tools.add(evaluateLispTool(&session, &jobs));
        log.attach(&server);
        McpPeer *peer = server.createPeer(QStringLiteral("test"));
        engine.start();
        QTRY_VERIFY_WITH_TIMEOUT(engine.isReady(), 30000);
        int id = 1;
        auto send = [&](const QString &method, QJsonObject params) {
            if (modern)
                params.insert("_meta", QJsonObject{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                                   {"io.modelcontextprotocol/clientCapabilities", QJsonObject{}},
                                                   {"io.modelcontextprotocol/clientInfo", QJsonObject{{"name", "agent"}, {"version", "1"}}}});
            server.receive(peer, QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"id", id++}, {"method", method}, {"params", params}})
                                     .toJson(QJsonDocument::Compact));
        };
        if (!modern)
            send(QStringLiteral("initialize"), {{"protocolVersion", "2025-06-18"}, {"clientInfo", QJsonObject{{"name", "agent"}}}});
        auto lastState = [&] { return log.entry(log.rowCount() - 1).state(); };
        send(QStringLiteral("tools/call"), {{"name", "evaluate-lisp"}, {"arguments", QJsonObject{{"code", "(sleep 2)"}, {"wait_seconds", 0.2}}}});
        QTRY_COMPARE_WITH_TIMEOUT(lastState(), ToolCallLog::State::HandedOff, 10000);
        QCOMPARE(log.index(log.rowCount() - 1, ToolCallLog::StateColumn).data().toString(), QStringLiteral("goes on as a job"));
        send(QStringLiteral("tools/call"), {{"name", "evaluate-lisp"}, {"arguments", QJsonObject{{"code", "(error \"bad record\")"}, {"debug", true}}}});
        QTRY_COMPARE_WITH_TIMEOUT(lastState(), ToolCallLog::State::Parked, 15000);
        QCOMPARE(log.index(log.rowCount() - 1, ToolCallLog::StateColumn).data().toString(), QStringLiteral("parked"));
        QCOMPARE(log.index(log.rowCount() - 1, ToolCallLog::ClientColumn).data().toString(), QStringLiteral("agent"));
    }

    // A 2026-07-28 request carries its client's name in its own _meta: the window names it so.
    void aModernRequestIsLoggedByItsClientInfoName()
    {
        Rig rig;
        const QJsonObject meta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                               {"io.modelcontextprotocol/clientCapabilities", QJsonObject{}},
                               {"io.modelcontextprotocol/clientInfo", QJsonObject{{"name", "claude-code"}, {"version", "2.1"}}}};
        rig.server.receive(rig.peer, QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"id", 99}, {"method", "tools/list"},
                                                               {"params", QJsonObject{{"_meta", meta}}}})
                                         .toJson(QJsonDocument::Compact));
        QCOMPARE(rig.last().method(), QStringLiteral("tools/list"));
        QCOMPARE(rig.log.index(rig.log.rowCount() - 1, ToolCallLog::ClientColumn).data().toString(), QStringLiteral("claude-code"));
    }

    void aCallInFlightRunsUntilItAnswersAndIsCancelledWhenTheClientCancels()
    {
        Rig rig;
        const int id = rig.call("slow", {{"code", "(sleep 10)"}});
        QCOMPARE(rig.last().state(), ToolCallLog::State::Running);
        QVERIFY(!rig.last().isOver());
        QCOMPARE(rig.log.index(rig.log.rowCount() - 1, ToolCallLog::DurationColumn).data().toString(), QString());
        rig.server.receive(rig.peer, QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"},
                                                               {"params", QJsonObject{{"requestId", id}}}})
                                         .toJson(QJsonDocument::Compact));
        QCOMPARE(rig.last().state(), ToolCallLog::State::Cancelled);
        QVERIFY(rig.last().isOver());
    }

    // The person's approval is not the call's work: the row says how long each took.
    void aCallThatWaitsForApprovalReportsItsWaitApartFromItsRun()
    {
        Rig rig;
        AccessGate access;
        access.install(&rig.server);
        access.setAsking(AccessGate::Asking::InTheWindow);
        access.setMode(AccessMode::Ask);
        rig.call("slow", {{"code", "(think)"}});
        const int row = rig.log.rowCount() - 1;
        QCOMPARE(rig.last().state(), ToolCallLog::State::AwaitingApproval);
        QCOMPARE(rig.log.index(row, ToolCallLog::StateColumn).data().toString(), QStringLiteral("awaiting approval"));
        QTest::qWait(300); // the person reads the code
        access.approve();
        QCOMPARE(rig.last().state(), ToolCallLog::State::Running);
        QTest::qWait(150); // the tool works
        rig.slow->held->finish({QStringLiteral("thought"), {}, false});
        const RequestTrace &e = rig.last();
        QCOMPARE(e.state(), ToolCallLog::State::Done);
        QVERIFY2(e.waitedMs() >= 300, qPrintable(QString::number(e.waitedMs())));
        QVERIFY2(e.ranMs() >= 150, qPrintable(QString::number(e.ranMs())));
        QCOMPARE(e.waitedMs() + e.ranMs(), e.elapsedMs());
        const QString duration = rig.log.index(row, ToolCallLog::DurationColumn).data().toString();
        QCOMPARE(duration, QStringLiteral("%1 \u00b7 waited %2").arg(ToolCallLog::millisecondsText(e.ranMs()), ToolCallLog::millisecondsText(e.waitedMs())));
        QVERIFY(rig.log.index(row, ToolCallLog::DurationColumn).data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Waited ")));
        const QJsonObject exported = QJsonDocument::fromJson(rig.log.toJsonLines().trimmed().split('\n').last()).object();
        QCOMPARE(exported.value("waited_ms").toDouble(), double(e.waitedMs()));
        QCOMPARE(exported.value("duration_ms").toDouble(), double(e.elapsedMs()));
    }

    void aCallThatNeverWaitedShowsOneDuration()
    {
        QCOMPARE(ToolCallLog::millisecondsText(12), QStringLiteral("12 ms"));
        QCOMPARE(ToolCallLog::millisecondsText(3240), QStringLiteral("3.2 s"));
        QCOMPARE(ToolCallLog::millisecondsText(65000), QStringLiteral("65 s"));
        Rig rig;
        rig.call("evaluate-lisp", {{"code", "(x)"}});
        QCOMPARE(rig.last().waitedMs(), 0);
        QVERIFY(!rig.log.index(rig.log.rowCount() - 1, ToolCallLog::DurationColumn).data().toString().contains(QStringLiteral("waited")));
    }

    // What tools report on a call's trace reaches its row without the log looking anything up.
    void theRowFollowsItsTraceThroughTheSessionQueueAndTheFileChange()
    {
        ToolCallLog log;
        auto trace = RequestTracePtr::create(QStringLiteral("claude"), QJsonObject{{"method", "tools/call"},
                                                                                   {"params", QJsonObject{{"name", "edit-form"}}}});
        log.add(trace);
        QSignalSpy redrawn(&log, &ToolCallLog::dataChanged);
        trace->queuedAsJob(7);
        trace->run(); // it waits in the session's queue: not running yet
        QCOMPARE(log.index(0, ToolCallLog::StateColumn).data().toString(), QStringLiteral("queued"));
        trace->jobStarted();
        QCOMPARE(log.index(0, ToolCallLog::StateColumn).data().toString(), QStringLiteral("running"));
        FileChange change;
        change.id = 3;
        change.path = QStringLiteral("src/shapes.lisp");
        change.summary = QStringLiteral("replaced (defmethod area (square)) at lines 36-37");
        trace->proposedChange(change);
        trace->awaitPerson();
        QCOMPARE(log.index(0, ToolCallLog::StateColumn).data().toString(), QStringLiteral("awaiting approval"));
        QVERIFY(log.index(0, ToolCallLog::ArgumentsColumn).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Changes src/shapes.lisp")));
        trace->personDecided();
        QCOMPARE(log.index(0, ToolCallLog::StateColumn).data().toString(), QStringLiteral("running"));
        // A tool that hands the person work of its own (a staged form) waits for them too.
        trace->awaitPerson(RequestTrace::Waiting::ForThePerson);
        QCOMPARE(log.index(0, ToolCallLog::StateColumn).data().toString(), QStringLiteral("waiting for the person"));
        trace->personDecided();
        trace->answer(QJsonObject{{"result", QJsonObject{{"isError", false}}}});
        QCOMPARE(log.index(0, ToolCallLog::StateColumn).data().toString(), QStringLiteral("done"));
        QVERIFY(redrawn.size() >= 5);
        const QJsonObject exported = QJsonDocument::fromJson(log.toJsonLines()).object();
        QCOMPARE(exported.value("job").toInt(), 7);
        QCOMPARE(exported.value("file_change").toObject().value("path").toString(), QStringLiteral("src/shapes.lisp"));
    }

    void aRefusedCallIsDeniedWithItsReason()
    {
        Rig rig;
        rig.server.setCallGate([](McpPeer *, Tool *, const ToolCallPtr &, std::function<void(const QString &)> proceed) {
            proceed(QStringLiteral("Not now."));
        });
        rig.call("echo", {{"code", "x"}});
        QCOMPARE(rig.last().state(), ToolCallLog::State::Denied);
        QCOMPARE(rig.last().refusal(), QStringLiteral("Not now."));
        QVERIFY(rig.last().response().value("result").toObject().value("isError").toBool());
    }

    // Every method answers through the server's one path, so no row is left running.
    void resourcesPromptsAndLoggingRowsEndDone_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QJsonObject>("params");
        QTest::addColumn<QString>("state");
        QTest::newRow("resources/read") << "resources/read" << QJsonObject{{"uri", "lisp-duet://session/transcript"}} << "done";
        QTest::newRow("resources/read of an unknown uri") << "resources/read" << QJsonObject{{"uri", "lisp-duet://nothing"}} << "error";
        QTest::newRow("resources/list") << "resources/list" << QJsonObject{} << "done";
        QTest::newRow("resources/subscribe") << "resources/subscribe" << QJsonObject{{"uri", "lisp-duet://session/transcript"}} << "done";
        QTest::newRow("prompts/get") << "prompts/get" << QJsonObject{{"name", "catch-up"}} << "done";
        QTest::newRow("prompts/get of an unknown prompt") << "prompts/get" << QJsonObject{{"name", "nope"}} << "error";
        QTest::newRow("prompts/list") << "prompts/list" << QJsonObject{} << "done";
        QTest::newRow("logging/setLevel") << "logging/setLevel" << QJsonObject{{"level", "debug"}} << "done";
    }
    void resourcesPromptsAndLoggingRowsEndDone()
    {
        QFETCH(QString, method);
        QFETCH(QJsonObject, params);
        QFETCH(QString, state);
        Rig rig;
        rig.request(method, params);
        const RequestTrace &e = rig.last();
        QCOMPARE(e.method(), method);
        QCOMPARE(ToolCallLog::stateName(e.state()), state);
        QVERIFY(e.isOver());
        QVERIFY(e.response().contains(state == QStringLiteral("done") ? "result" : "error"));
    }

    void summariesAreShortAndOnOneLine_data()
    {
        QTest::addColumn<QJsonObject>("arguments");
        QTest::addColumn<QString>("summary");
        QTest::newRow("code first") << QJsonObject{{"code", "(a\n b)"}, {"package", "CL-USER"}} << "(a b)";
        QTest::newRow("other arguments") << QJsonObject{{"name", "car"}, {"limit", 5}} << "limit=5, name=car";
        QTest::newRow("the reason last") << QJsonObject{{"system", "shapes"}, {"description", "why"}, {"all", true}}
                                         << "all=true, system=shapes, description=why";
        QTest::newRow("no arguments") << QJsonObject{} << "";
        QTest::newRow("long code is cut") << QJsonObject{{"code", QString(100, u'x')}} << QString(79, u'x') + QChar(0x2026);
    }
    void summariesAreShortAndOnOneLine()
    {
        QFETCH(QJsonObject, arguments);
        QFETCH(QString, summary);
        QCOMPARE(ToolCallLog::summarize(arguments), summary);
    }

    void theLogExportsAsJsonLinesOldestFirst()
    {
        Rig rig;
        rig.request("ping");
        rig.call("echo", {{"code", "(x)"}});
        const QList<QByteArray> lines = rig.log.toJsonLines().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QStringList methods;
        for (const QByteArray &line : lines) {
            QJsonParseError error;
            const QJsonObject o = QJsonDocument::fromJson(line, &error).object();
            QCOMPARE(error.error, QJsonParseError::NoError);
            QVERIFY(o.contains("time") && o.contains("state") && o.contains("request") && o.contains("response") && o.contains("duration_ms"));
            methods << o.value("method").toString();
        }
        QCOMPARE(methods, (QStringList{"initialize", "ping", "tools/call"}));
    }

    void theOldestRowsGoBeyondTheCapacity()
    {
        Rig rig;
        rig.log.setCapacity(3);
        for (int i = 0; i < 5; ++i)
            rig.request("ping");
        QCOMPARE(rig.log.rowCount(), 3);
        QCOMPARE(rig.log.entry(0).method(), QStringLiteral("ping"));
    }
};

QTEST_GUILESS_MAIN(TestToolCallLog)
#include "tst_toolcalllog.moc"

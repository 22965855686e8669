// The tool calls log as McpServer's signals drive it: one row per request, states, durations,
// request and response, JSON lines.

#include "toolcalls/ToolCallLog.h"

#include "EngineClient.h"
#include "../common/FakeTools.h"
#include "McpPeer.h"
#include "McpServer.h"
#include "PromptProvider.h"
#include "ResourceProvider.h"
#include "Session.h"
#include "ToolRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
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
        McpPeer *peer;
        int nextId = 1;

        Rig()
        {
            echo = addEchoTool(tools, QStringLiteral("echo"), true);
            failing = addEchoTool(tools, QStringLiteral("failing"), false, true);
            slow = addEchoTool(tools, QStringLiteral("slow"), false);
            slow->holdCalls();
            log.attach(&server, &session);
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
        const ToolCallLog::Entry &last() const { return log.entry(log.rowCount() - 1); }
    };

private Q_SLOTS:
    void everyRequestIsARowNamingItsClient()
    {
        Rig rig;
        QCOMPARE(rig.log.rowCount(), 1);
        QCOMPARE(rig.log.entry(0).method, QStringLiteral("initialize"));
        QCOMPARE(rig.log.entry(0).client, QStringLiteral("inspector"));
        QCOMPARE(rig.log.entry(0).state, ToolCallLog::State::Done);
        rig.request("ping");
        QCOMPARE(rig.log.rowCount(), 2);
        QCOMPARE(rig.last().method, QStringLiteral("ping"));
        QCOMPARE(rig.log.index(1, ToolCallLog::ToolColumn).data().toString(), QStringLiteral("ping"));
        QCOMPARE(rig.log.index(1, ToolCallLog::ClientColumn).data().toString(), QStringLiteral("inspector"));
    }

    void aToolCallRowHasToolSummaryStateDurationAndBothMessages()
    {
        Rig rig;
        rig.call("echo", {{"code", "(+ 1\n   2)"}});
        const ToolCallLog::Entry &e = rig.last();
        QCOMPARE(e.tool, QStringLiteral("echo"));
        QCOMPARE(e.summary, QStringLiteral("(+ 1 2)"));
        QCOMPARE(e.state, ToolCallLog::State::Done);
        QVERIFY(e.finished.isValid());
        QCOMPARE(e.request.value("method").toString(), QStringLiteral("tools/call"));
        QCOMPARE(e.response.value("result").toObject().value("content").toArray().at(0).toObject().value("text").toString(),
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
        QCOMPARE(rig.last().state, ToolCallLog::State::Error);
        QCOMPARE(rig.log.index(rig.log.rowCount() - 1, ToolCallLog::StateColumn).data().toString(), QStringLiteral("error"));
    }

    void aCallInFlightIsQueuedUntilItAnswersAndCancelledWhenTheClientCancels()
    {
        Rig rig;
        const int id = rig.call("slow", {{"code", "(sleep 10)"}});
        QCOMPARE(rig.last().state, ToolCallLog::State::Queued);
        QVERIFY(!rig.last().finished.isValid());
        QCOMPARE(rig.log.index(rig.log.rowCount() - 1, ToolCallLog::DurationColumn).data().toString(), QString());
        rig.server.receive(rig.peer, QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"},
                                                               {"params", QJsonObject{{"requestId", id}}}})
                                         .toJson(QJsonDocument::Compact));
        QCOMPARE(rig.last().state, ToolCallLog::State::Cancelled);
        QVERIFY(rig.last().finished.isValid());
    }

    void aRefusedCallIsDeniedWithItsReason()
    {
        Rig rig;
        rig.server.setCallGate([](McpPeer *, Tool *, const ToolCallPtr &, std::function<void(const QString &)> proceed) {
            proceed(QStringLiteral("Not now."));
        });
        rig.call("echo", {{"code", "x"}});
        QCOMPARE(rig.last().state, ToolCallLog::State::Denied);
        QCOMPARE(rig.last().refusal, QStringLiteral("Not now."));
        QVERIFY(rig.last().response.value("result").toObject().value("isError").toBool());
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
        const ToolCallLog::Entry &e = rig.last();
        QCOMPARE(e.method, method);
        QCOMPARE(ToolCallLog::stateName(e.state), state);
        QVERIFY(e.finished.isValid());
        QVERIFY(e.response.contains(state == QStringLiteral("done") ? "result" : "error"));
    }

    void summariesAreShortAndOnOneLine_data()
    {
        QTest::addColumn<QJsonObject>("arguments");
        QTest::addColumn<QString>("summary");
        QTest::newRow("code first") << QJsonObject{{"code", "(a\n b)"}, {"package", "CL-USER"}} << "(a b)";
        QTest::newRow("other arguments") << QJsonObject{{"name", "car"}, {"limit", 5}} << "limit=5, name=car";
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
        QCOMPARE(rig.log.entry(0).method, QStringLiteral("ping"));
    }
};

QTEST_GUILESS_MAIN(TestToolCallLog)
#include "tst_toolcalllog.moc"

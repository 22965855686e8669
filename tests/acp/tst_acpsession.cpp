// AgentSession and its Conversation against the real mock agent: a turn of each scenario, what
// the model holds afterwards and what the agent was answered (its log). The MCP call is served by
// the real app (lisp-duet --headless, over HTTP with its token, and over stdio).

#include "MockAgent.h"

#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

#include <memory>

namespace {

// lisp-duet --headless --stdio as the stdio MCP server the agent starts itself, with this test's
// machine (XDG folders, the engine) passed on as the server's environment.
Acp::McpServer stdioServer()
{
    Acp::McpServer server;
    server.name = QStringLiteral("lisp-duet");
    server.command = QStringLiteral(DUET_BIN_DIR "/lisp-duet");
    server.args = {QStringLiteral("--headless"), QStringLiteral("--stdio")};
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &key : env.keys()) {
        if (key.startsWith(QLatin1String("XDG_")) || key.startsWith(QLatin1String("LISP_DUET_")) || key == QLatin1String("QT_QPA_PLATFORM"))
            server.env.append({key, env.value(key)});
    }
    return server;
}

} // namespace

class tst_AcpSession : public QObject
{
    Q_OBJECT

    std::unique_ptr<MockAgent> m_mock;
    std::unique_ptr<AcpClient> m_client;
    qint64 m_group = 0;

    AgentSession *startSession(const QStringList &flags, const QList<Acp::McpServer> &servers = {})
    {
        m_client = std::make_unique<AcpClient>();
        if (!startReady(*m_client, m_mock->command(flags)))
            return nullptr;
        m_group = m_client->process()->processGroup();
        return openSession(*m_client, servers);
    }
    static QList<Acp::ContentBlock> text(const QString &words) { return {Acp::ContentBlock::fromText(words)}; }

private Q_SLOTS:
    void initTestCase()
    {
        SKIP_UNLESS_MOCK_RUNS();
    }
    void init() { m_mock = std::make_unique<MockAgent>(); }
    void cleanup()
    {
        m_client.reset();
        expectGroupGone(m_group);
    }

    void aPromptWithAnEmbeddedResource()
    {
        AgentSession *session = startSession({});
        QVERIFY(session);
        const QString definition = QStringLiteral("(defun square (x) (* x x))");
        const QString outcome = runTurn(session, {Acp::ContentBlock::fromText(QStringLiteral("Explain this")),
                                                  Acp::ContentBlock::fromResource(QStringLiteral("lisp-duet://definition/SQUARE"), definition,
                                                                                  QStringLiteral("text/x-common-lisp"))});
        QCOMPARE(outcome, QStringLiteral("end_turn"));
        const Conversation *conversation = session->conversation();
        QCOMPARE(conversation->count(), 2);
        QCOMPARE(conversation->entry(0).kind, Conversation::Entry::Kind::UserMessage);
        QCOMPARE(conversation->entry(0).turn, 1);
        QCOMPARE(conversation->entry(1).text(),
                 QStringLiteral("You said: Explain this\nResource: lisp-duet://definition/SQUARE (26 characters)"));
        const QJsonArray prompt = m_mock->received(QStringLiteral("session/prompt")).value(0)
                                      .value(QStringLiteral("params")).toObject().value(QStringLiteral("prompt")).toArray();
        QCOMPARE(prompt.size(), 2);
        const QJsonObject resource = prompt.at(1).toObject().value(QStringLiteral("resource")).toObject();
        QCOMPARE(resource.value(QStringLiteral("text")).toString(), definition);
        QCOMPARE(resource.value(QStringLiteral("mimeType")).toString(), QStringLiteral("text/x-common-lisp"));
    }

    void streamedChunksBuildOneMessage()
    {
        AgentSession *session = startSession({QStringLiteral("--stream"), QStringLiteral("50")});
        QVERIFY(session);
        QSignalSpy appended(session->conversation(), &Conversation::textAppended);
        QSignalSpy added(session->conversation(), &Conversation::entryAdded);
        QCOMPARE(runTurn(session, text(QStringLiteral("square?"))), QStringLiteral("end_turn"));
        QCOMPARE(session->conversation()->count(), 2);
        QCOMPARE(added.size(), 2);
        QCOMPARE(appended.size(), 50);
        const QString answer = session->conversation()->entry(1).text();
        QVERIFY(answer.startsWith(QStringLiteral("# Squares\n\nHere is a function that squares a number:\n\n```lisp\n(defun square (x)\n  (* x x))\n```\n")));
        QVERIFY(answer.endsWith(QStringLiteral("Line 50 of the answer.\n")));
        QCOMPARE(appended.constLast().at(1).toString(), QStringLiteral("Line 50 of the answer.\n"));
    }

    void everyUpdateKindLandsInTheModel()
    {
        AgentSession *session = startSession({QStringLiteral("--updates-all")});
        QVERIFY(session);
        Conversation *c = session->conversation();
        QSignalSpy toolChanges(c, &Conversation::toolCallChanged);
        QSignalSpy unknown(c, &Conversation::unknownUpdate);
        // What a panel hears as each part of the model changes.
        QSignalSpy turnStarted(session, &AgentSession::turnStarted);
        QSignalSpy planChanged(c, &Conversation::planChanged);
        QSignalSpy commandsChanged(c, &Conversation::commandsChanged);
        QSignalSpy configOptionsChanged(c, &Conversation::configOptionsChanged);
        QSignalSpy usageChanged(c, &Conversation::usageChanged);
        QSignalSpy infoChanged(c, &Conversation::infoChanged);
        QCOMPARE(runTurn(session, text(QStringLiteral("everything"))), QStringLiteral("end_turn"));
        QCOMPARE(turnStarted.size(), 1);
        QVERIFY(!planChanged.isEmpty());
        QVERIFY(!commandsChanged.isEmpty());
        QVERIFY(!configOptionsChanged.isEmpty());
        QVERIFY(!usageChanged.isEmpty());
        QVERIFY(!infoChanged.isEmpty());
        using Kind = Conversation::Entry::Kind;
        QList<Kind> kinds;
        for (const Conversation::Entry &entry : c->entries())
            kinds.append(entry.kind);
        QCOMPARE(kinds, (QList<Kind>{Kind::UserMessage, Kind::UserMessage, Kind::Thought, Kind::AgentMessage, Kind::ToolCall, Kind::AgentMessage}));
        QCOMPARE(c->entry(1).text(), QStringLiteral("Replayed question"));
        QCOMPARE(c->entry(2).text(), QStringLiteral("Let me think."));
        QCOMPARE(c->entry(5).text(), QStringLiteral(" Done."));
        QCOMPARE(c->plan().size(), 3);
        QCOMPARE(c->plan().at(1).content, QStringLiteral("Change the function"));
        QCOMPARE(c->plan().at(1).status, QStringLiteral("in_progress"));
        QCOMPARE(c->plan().at(0).priority, QStringLiteral("high"));
        const Acp::ToolCall *call = c->toolCall(c->entry(4).toolCallId);
        QVERIFY(call);
        QCOMPARE(call->kind, QStringLiteral("edit"));
        QCOMPARE(call->status, QStringLiteral("completed"));
        QCOMPARE(call->title, QStringLiteral("Edit square.lisp"));
        QCOMPARE(call->locations.value(0).path, QStringLiteral("/tmp/square.lisp"));
        QCOMPARE(call->locations.value(0).line, 1);
        QCOMPARE(call->rawInput.toObject().value(QStringLiteral("file")).toString(), QStringLiteral("/tmp/square.lisp"));
        QCOMPARE(call->content.size(), 3);
        QCOMPARE(call->content.at(0).type, Acp::ToolCallContent::Type::Content);
        QCOMPARE(call->content.at(0).content.text, QStringLiteral("Edited."));
        QCOMPARE(call->content.at(1).type, Acp::ToolCallContent::Type::Diff);
        QCOMPARE(call->content.at(1).path, QStringLiteral("/tmp/square.lisp"));
        QCOMPARE(call->content.at(1).oldText.value_or(QString()), QStringLiteral("(defun square (x) x)\n"));
        QCOMPARE(call->content.at(1).newText, QStringLiteral("(defun square (x)\n  (* x x))\n"));
        QCOMPARE(call->content.at(2).type, Acp::ToolCallContent::Type::Terminal);
        QCOMPARE(call->content.at(2).terminalId, QStringLiteral("term-1"));
        QCOMPARE(call->meta.value(QStringLiteral("mock")).toObject().value(QStringLiteral("note")).toString(), QStringLiteral("tool meta"));
        QCOMPARE(toolChanges.size(), 2);
        QCOMPARE(c->commands().size(), 2);
        QCOMPARE(c->commands().at(0).name, QStringLiteral("explain"));
        QCOMPARE(c->commands().at(0).inputHint, QStringLiteral("what to explain"));
        QVERIFY(c->commands().at(1).inputHint.isEmpty());
        QCOMPARE(c->currentModeId(), QStringLiteral("plan"));
        QCOMPARE(c->configOptions().size(), 1);
        QCOMPARE(c->configOptions().at(0).category, QStringLiteral("model"));
        QCOMPARE(c->configOptions().at(0).currentValue.toString(), QStringLiteral("fast"));
        QCOMPARE(c->configOptions().at(0).options.size(), 2);
        QCOMPARE(c->title(), QStringLiteral("Squares"));
        QCOMPARE(c->updatedAt(), QStringLiteral("2026-11-28T12:00:00Z"));
        QCOMPARE(c->usage().used, 1234);
        QCOMPARE(c->usage().size, 200000);
        QCOMPARE(c->usage().costAmount.value_or(0), 0.0123);
        QCOMPARE(c->usage().costCurrency, QStringLiteral("USD"));
        QCOMPARE(unknown.size(), 0);
    }

    void unknownUpdatesAndFieldsAreIgnored()
    {
        AgentSession *session = startSession({QStringLiteral("--unknown-update")});
        QVERIFY(session);
        QStringList log;
        connect(m_client.get(), &AcpClient::logLine, this, [&](const QString &line) { log.append(line); });
        QSignalSpy unknown(session->conversation(), &Conversation::unknownUpdate);
        QSignalSpy blocks(session->conversation(), &Conversation::blockAdded);
        QCOMPARE(runTurn(session, text(QStringLiteral("surprise me"))), QStringLiteral("end_turn"));
        QCOMPARE(unknown.size(), 1);
        QCOMPARE(unknown.at(0).at(0).toString(), QStringLiteral("hologram_update"));
        const Conversation::Entry &answer = session->conversation()->entry(1);
        QCOMPARE(answer.text(), QStringLiteral("Before. After."));
        QCOMPARE(blocks.size(), 1); // a content type nobody knows: kept, as a block of its own
        QCOMPARE(answer.blocks.constLast().type, QStringLiteral("hologram"));
        const QString logged = log.join(QLatin1Char('\n'));
        QVERIFY2(logged.contains(QStringLiteral("mock/unknown_notification")), qPrintable(logged));
        QVERIFY2(logged.contains(QStringLiteral("agent_message_chunk.colour")), qPrintable(logged));
        QVERIFY2(logged.contains(QStringLiteral(": futureField")), qPrintable(logged));
    }

    void aPermissionIsAnsweredWithTheOptionChosen_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("optionId");
        QTest::addColumn<QString>("status");
        QTest::newRow("allow once") << "allow_once" << "allow-once" << "completed";
        QTest::newRow("allow always") << "allow_always" << "allow-always" << "completed";
        QTest::newRow("reject once") << "reject_once" << "reject-once" << "failed";
    }
    void aPermissionIsAnsweredWithTheOptionChosen()
    {
        QFETCH(QString, kind);
        QFETCH(QString, optionId);
        QFETCH(QString, status);
        AgentSession *session = startSession({QStringLiteral("--permission")});
        QVERIFY(session);
        QPointer<PermissionRequest> asked;
        connect(session, &AgentSession::permissionRequested, this, [&](PermissionRequest *request) {
            asked = request;
            QCOMPARE(request->options().size(), 3);
            QCOMPARE(request->toolCall().kind, QStringLiteral("edit"));
            QCOMPARE(request->diffs().size(), 1);
            QVERIFY(request->diffs().at(0).path.endsWith(QStringLiteral("/square.lisp")));
            QCOMPARE(request->diffs().at(0).newText, QStringLiteral("(defun square (x)\n  (* x x))\n"));
            QVERIFY(!request->select(QStringLiteral("no-such-option")));
            QVERIFY(request->select(request->optionOfKind(kind)->id));
            QVERIFY(!request->select(request->optionOfKind(kind)->id)); // once
        });
        QCOMPARE(runTurn(session, text(QStringLiteral("fix square"))), QStringLiteral("end_turn"));
        QVERIFY(session->pendingPermissions().isEmpty());
        const QList<QJsonObject> answers = m_mock->events(QStringLiteral("permission-answer"));
        QCOMPARE(answers.size(), 1);
        QCOMPARE(answers.at(0).value(QStringLiteral("outcome")).toObject().value(QStringLiteral("optionId")).toString(), optionId);
        const Conversation *c = session->conversation();
        QCOMPARE(c->entry(c->count() - 1).text(), QStringLiteral("The client chose %1.").arg(optionId));
        QCOMPARE(c->toolCall(c->entry(1).toolCallId)->status, status);
        QTRY_VERIFY(!asked); // deleted once answered
    }

    void cancelDuringAPermissionAnswersItCancelled()
    {
        AgentSession *session = startSession({QStringLiteral("--cancel-during-permission")});
        QVERIFY(session);
        QPointer<PermissionRequest> asked;
        PermissionRequest::Outcome outcome = PermissionRequest::Outcome::Pending;
        connect(session, &AgentSession::permissionRequested, this, [&](PermissionRequest *request) {
            asked = request;
            connect(request, &PermissionRequest::finished, this, [&](PermissionRequest::Outcome how) { outcome = how; });
            QCOMPARE(session->pendingPermissions().size(), 1);
            session->cancel(); // the person presses Stop while the agent waits for them
        });
        QCOMPARE(runTurn(session, text(QStringLiteral("fix square"))), QStringLiteral("cancelled"));
        QCOMPARE(outcome, PermissionRequest::Outcome::Cancelled);
        const QList<QJsonObject> after = m_mock->events(QStringLiteral("permission-after-cancel"));
        QCOMPARE(after.size(), 1);
        QVERIFY2(after.at(0).value(QStringLiteral("ok")).toBool(), "the agent did not get session/cancel before `cancelled`");
        QCOMPARE(m_mock->received(QStringLiteral("session/cancel")).size(), 1);
    }

    void aSessionClosedWhileItAsksAnswersCancelled()
    {
        AgentSession *session = startSession({QStringLiteral("--permission")});
        QVERIFY(session);
        QPointer<AgentSession> alive = session;
        connect(session, &AgentSession::permissionRequested, this, [&] { session->deleteLater(); });
        QVERIFY(session->prompt(text(QStringLiteral("fix square"))));
        QTRY_VERIFY(!alive);
        QTRY_COMPARE(m_mock->events(QStringLiteral("permission-answer")).size(), 1);
        QCOMPARE(m_mock->events(QStringLiteral("permission-answer")).at(0).value(QStringLiteral("outcome")).toObject()
                     .value(QStringLiteral("outcome")).toString(), QStringLiteral("cancelled"));
        QVERIFY(m_client->sessions().isEmpty());
    }

    void aPermissionForAnotherSessionIsRefused()
    {
        AgentSession *session = startSession({QStringLiteral("--foreign-permission")});
        QVERIFY(session);
        QSignalSpy asked(session, &AgentSession::permissionRequested);
        QCOMPARE(runTurn(session, text(QStringLiteral("go"))), QStringLiteral("end_turn"));
        QCOMPARE(asked.size(), 0);
        QCOMPARE(m_mock->events(QStringLiteral("foreign-permission")).value(0).value(QStringLiteral("code")).toInt(), -32002);
    }

    void methodsWeDoNotOfferAre32601ForTheAgent()
    {
        AgentSession *session = startSession({QStringLiteral("--unknown-method")});
        QVERIFY(session);
        QCOMPARE(runTurn(session, text(QStringLiteral("read a file"))), QStringLiteral("end_turn"));
        const QList<QJsonObject> answers = m_mock->events(QStringLiteral("unknown-method"));
        QCOMPARE(answers.size(), 2);
        for (const QJsonObject &answer : answers)
            QCOMPARE(answer.value(QStringLiteral("code")).toInt(), -32601);
        QCOMPARE(answers.at(0).value(QStringLiteral("method")).toString(), QStringLiteral("fs/read_text_file"));
    }

    void aCrashMidTurnEndsTheTurnWithItsLastWords()
    {
        AgentSession *session = startSession({QStringLiteral("--crash-on-prompt")});
        QVERIFY(session);
        const QString outcome = runTurn(session, text(QStringLiteral("think hard")));
        QVERIFY2(outcome.contains(QStringLiteral("exited with status 3")), qPrintable(outcome));
        QVERIFY2(outcome.contains(QStringLiteral("lost my train of thought")), qPrintable(outcome));
        QCOMPARE(m_client->state(), AcpClient::State::Exited);
        // What it said before it died is kept.
        QCOMPARE(session->conversation()->entry(1).text(), QStringLiteral("Starting to work on it"));
    }

    // The MCP call the agent makes for a tool call carries its id (_meta claudecode/toolUseId, as
    // Claude Code does), and the result comes back in the tool call's content.
    void theMcpCallIsTiedToItsToolCall_data()
    {
        QTest::addColumn<bool>("http");
        QTest::newRow("http with the token") << true;
        QTest::newRow("stdio") << false;
    }
    void theMcpCallIsTiedToItsToolCall()
    {
        QFETCH(bool, http);
        HeadlessApp app;
        if (http)
            QVERIFY(app.start());
        AgentSession *session = startSession({QStringLiteral("--mcp-call")}, {http ? app.server() : stdioServer()});
        QVERIFY(session);
        QCOMPARE(runTurn(session, text(QStringLiteral("eval (* 6 7)")), 60000), QStringLiteral("end_turn"));
        const Conversation *c = session->conversation();
        QCOMPARE(c->entry(1).kind, Conversation::Entry::Kind::ToolCall);
        const Acp::ToolCall *call = c->toolCall(c->entry(1).toolCallId);
        QVERIFY(call);
        QCOMPARE(call->status, QStringLiteral("completed"));
        QVERIFY(!call->content.isEmpty());
        QCOMPARE(call->content.at(0).content.text, QStringLiteral("=> 42"));
        const QList<QJsonObject> calls = m_mock->events(QStringLiteral("mcp-call"));
        QCOMPARE(calls.size(), 1);
        QCOMPARE(calls.at(0).value(QStringLiteral("toolCallId")).toString(), call->id);
        QCOMPARE(call->meta.value(QStringLiteral("claudeCode")).toObject().value(QStringLiteral("toolName")).toString(),
                 QStringLiteral("mcp__lisp-duet__evaluate-lisp"));
    }
};

QTEST_GUILESS_MAIN(tst_AcpSession)
#include "tst_acpsession.moc"

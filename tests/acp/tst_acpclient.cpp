// AcpClient against the real mock agent (tests/acp/mock-agent.mjs on the official ACP SDK): start,
// initialize and its time limit, agents that crash, write garbage or need a login, modes, and
// session list, resume and load. What the agent was answered is read from its log.

#include "MockAgent.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <memory>

class tst_AcpClient : public QObject
{
    Q_OBJECT

    std::unique_ptr<MockAgent> m_mock;
    qint64 m_group = 0; // the agent's process group: nothing of it may outlive a test

    std::unique_ptr<AcpClient> client()
    {
        auto made = std::make_unique<AcpClient>();
        made->setInitializeTimeoutMs(20000);
        connect(made.get(), &AcpClient::stateChanged, this, [this, raw = made.get()] {
            if (raw->process() && raw->process()->processGroup())
                m_group = raw->process()->processGroup();
        });
        return made;
    }

private Q_SLOTS:
    void initTestCase()
    {
        SKIP_UNLESS_MOCK_RUNS();
    }
    void init() { m_mock = std::make_unique<MockAgent>(); }
    void cleanup()
    {
        expectGroupGone(m_group);
    }

    void initializesAndReadsTheAgent()
    {
        auto acp = client();
        QSignalSpy ready(acp.get(), &AcpClient::ready);
        QVERIFY(startReady(*acp, m_mock->command()));
        QCOMPARE(ready.size(), 1);
        const Acp::AgentCapabilities &caps = acp->capabilities();
        QCOMPARE(caps.protocolVersion, 1);
        QCOMPARE(caps.info.name, QStringLiteral("mock-agent"));
        QCOMPARE(caps.info.title, QStringLiteral("Mock Agent"));
        QVERIFY(caps.mcpHttp);
        QVERIFY(caps.promptEmbeddedContext);
        QVERIFY(!caps.loadSession);
        // What we declared: no fs, no terminal, terminal login; who we are.
        const QList<QJsonObject> init = m_mock->received(QStringLiteral("initialize"));
        QCOMPARE(init.size(), 1);
        const QJsonObject params = init.at(0).value(QStringLiteral("params")).toObject();
        QCOMPARE(params.value(QStringLiteral("protocolVersion")).toInt(), 1);
        const QJsonObject client = params.value(QStringLiteral("clientCapabilities")).toObject();
        QCOMPARE(client.value(QStringLiteral("fs")).toObject().value(QStringLiteral("readTextFile")).toBool(true), false);
        QCOMPARE(client.value(QStringLiteral("fs")).toObject().value(QStringLiteral("writeTextFile")).toBool(true), false);
        QCOMPARE(client.value(QStringLiteral("terminal")).toBool(true), false);
        QCOMPARE(client.value(QStringLiteral("auth")).toObject().value(QStringLiteral("terminal")).toBool(), true);
        QCOMPARE(params.value(QStringLiteral("clientInfo")).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("lisp-duet"));
        acp->stop();
        QTRY_COMPARE(acp->state(), AcpClient::State::Exited);
    }

    void aSlowStartIsWaitedFor()
    {
        auto acp = client();
        QElapsedTimer clock;
        clock.start();
        QVERIFY(startReady(*acp, m_mock->command({QStringLiteral("--slow-start"), QStringLiteral("1500")})));
        QVERIFY(clock.elapsed() >= 1500);
    }

    void anAgentThatNeverInitializesIsGivenUpWithAClearMessage()
    {
        auto acp = client();
        acp->setInitializeTimeoutMs(1500);
        QSignalSpy failed(acp.get(), &AcpClient::failed);
        acp->start(m_mock->command({QStringLiteral("--never-initialize")}));
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("did not answer initialize within 1 s")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("mock-agent.mjs --never-initialize")), qPrintable(message));
        QCOMPARE(acp->state(), AcpClient::State::Failed);
        // ... and it is ended.
        QTRY_VERIFY_WITH_TIMEOUT(!acp->process()->isRunning(), 5000);
    }

    void anAgentThatCrashesAtStartSaysWhy()
    {
        auto acp = client();
        QSignalSpy exited(acp.get(), &AcpClient::exited);
        acp->start(m_mock->command({QStringLiteral("--crash-at-start")}));
        QTRY_COMPARE_WITH_TIMEOUT(exited.size(), 1, 10000);
        QCOMPARE(exited.at(0).at(0).toInt(), 2);
        QCOMPARE(acp->state(), AcpClient::State::Exited);
        QVERIFY2(acp->failure().contains(QStringLiteral("exited with status 2")), qPrintable(acp->failure()));
        QVERIFY2(acp->failure().contains(QStringLiteral("the configuration is broken")), qPrintable(acp->failure()));
    }

    void anAgentThatIsNotInstalledSaysSo()
    {
        auto acp = client();
        QSignalSpy failed(acp.get(), &AcpClient::failed);
        acp->start(AgentCommand::parse(QStringLiteral("/nonexistent/claude-agent-acp")));
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("/nonexistent/claude-agent-acp does not exist")),
                 qPrintable(failed.at(0).at(0).toString()));
    }

    // Non-JSON lines and a line of 64 MB before initialize's answer: logged, dropped, and the
    // connection serves a session afterwards.
    void garbageAndAHugeLineAreSurvived()
    {
        auto acp = client();
        QStringList log;
        connect(acp.get(), &AcpClient::logLine, this, [&](const QString &line) { log.append(line); });
        QVERIFY(startReady(*acp, m_mock->command({QStringLiteral("--garbage")}), 60000));
        QCOMPARE(acp->process()->droppedLines(), 1);
        QCOMPARE(acp->connection()->ignoredLines(), 3);
        QVERIFY2(log.join(QLatin1Char('\n')).contains(QStringLiteral("more than 32 MiB")), qPrintable(log.join(QLatin1Char('\n'))));
        AgentSession *session = openSession(*acp);
        QVERIFY(session);
        QCOMPARE(runTurn(session, {Acp::ContentBlock::fromText(QStringLiteral("still there?"))}), QStringLiteral("end_turn"));
        QCOMPARE(session->conversation()->entry(1).text(), QStringLiteral("You said: still there?"));
    }

    void aLoginIsAskedForAndTaken()
    {
        auto acp = client();
        QVERIFY(startReady(*acp, m_mock->command({QStringLiteral("--auth-required")})));
        const QList<Acp::AuthMethod> methods = acp->capabilities().authMethods;
        QCOMPARE(methods.size(), 2);
        QVERIFY(methods.at(0).isTerminal());
        QCOMPARE(methods.at(0).args, QStringList{QStringLiteral("--login")});
        QCOMPARE(methods.at(0).env.value(0).first, QStringLiteral("MOCK_LOGIN"));
        QVERIFY(!methods.at(1).isTerminal());
        std::optional<Acp::Error> error;
        QVERIFY(!openSession(*acp, {}, &error));
        QVERIFY(error && error->isAuthRequired());
        QVERIFY2(error->describe().contains(QStringLiteral("log in")), qPrintable(error->describe()));
        // The agent's own way: authenticate with a method that needs no terminal.
        bool authenticated = false;
        acp->authenticate(QStringLiteral("mock-key"), [&](const std::optional<Acp::Error> &failure) { authenticated = !failure; });
        QTRY_VERIFY(authenticated);
        QVERIFY(openSession(*acp));
        QCOMPARE(m_mock->events(QStringLiteral("authenticate")).value(0).value(QStringLiteral("methodId")).toString(),
                 QStringLiteral("mock-key"));
    }

    void aTerminalLoginIsTheAgentsCommandWithItsArguments()
    {
        auto acp = client();
        QVERIFY(startReady(*acp, m_mock->command({QStringLiteral("--auth-required")})));
        const AgentCommand login = acp->command().forLogin(acp->capabilities().authMethods.at(0));
        QProcess terminal; // what a terminal window would run
        terminal.setProcessEnvironment(login.processEnvironment());
        terminal.start(login.resolvedProgram(), login.arguments);
        QVERIFY(terminal.waitForFinished(20000));
        QCOMPARE(terminal.exitCode(), 0);
        QVERIFY2(terminal.readAllStandardOutput().contains("Logged in"), "the mock's login did not run");
        QVERIFY(openSession(*acp)); // logged in: no authenticate needed
    }

    void modesAndConfigOptionsAreReadAndSet()
    {
        auto acp = client();
        QVERIFY(startReady(*acp, m_mock->command({QStringLiteral("--modes")})));
        // A session is announced before its state is read in: a panel hears its modes arrive.
        QSignalSpy added(acp.get(), &AcpClient::sessionAdded);
        int modesAnnounced = 0;
        connect(acp.get(), &AcpClient::sessionAdded, this, [&](AgentSession *announced) {
            connect(announced->conversation(), &Conversation::modesChanged, this, [&] { ++modesAnnounced; });
        });
        AgentSession *session = openSession(*acp);
        QVERIFY(session);
        QCOMPARE(added.size(), 1);
        QVERIFY(modesAnnounced >= 1);
        Conversation *conversation = session->conversation();
        QCOMPARE(conversation->modes().size(), 4);
        QCOMPARE(conversation->currentModeId(), QStringLiteral("default"));
        QCOMPARE(conversation->modes().at(1).id, QStringLiteral("acceptEdits"));
        QSignalSpy changed(conversation, &Conversation::currentModeChanged);
        bool done = false;
        session->setMode(QStringLiteral("plan"), [&](const std::optional<Acp::Error> &error) { done = !error; });
        QTRY_VERIFY(done);
        QCOMPARE(conversation->currentModeId(), QStringLiteral("plan"));
        QCOMPARE(changed.size(), 1); // the answer and the agent's current_mode_update: one change
        std::optional<Acp::Error> refused;
        bool answered = false;
        session->setMode(QStringLiteral("yolo"), [&](const std::optional<Acp::Error> &error) { refused = error; answered = true; });
        QTRY_VERIFY(answered);
        QVERIFY(refused && refused->code == -32602);
        QCOMPARE(conversation->currentModeId(), QStringLiteral("plan"));

        // The same through config options (v2's way; Claude Code offers both): the mode option
        // moves the current mode, a boolean goes as one.
        QCOMPARE(conversation->configOptions().size(), 2);
        bool configured = false;
        session->setConfigOption(QStringLiteral("mode"), QStringLiteral("acceptEdits"),
                                 [&](const std::optional<Acp::Error> &error) { configured = !error; });
        QTRY_VERIFY(configured);
        QCOMPARE(conversation->currentModeId(), QStringLiteral("acceptEdits"));
        configured = false;
        session->setConfigOption(QStringLiteral("thinking"), true, [&](const std::optional<Acp::Error> &error) { configured = !error; });
        QTRY_VERIFY(configured);
        QCOMPARE(conversation->configOptions().at(1).currentValue, QJsonValue(true));
        const QList<QJsonObject> sets = m_mock->events(QStringLiteral("set-config-option"));
        QCOMPARE(sets.size(), 2);
        QCOMPARE(sets.at(1).value(QStringLiteral("type")).toString(), QStringLiteral("boolean"));
    }

    void sessionsAreListedResumedAndLoaded()
    {
        auto acp = client();
        QVERIFY(startReady(*acp, m_mock->command({QStringLiteral("--list-sessions"), QStringLiteral("--modes")})));
        QVERIFY(acp->capabilities().listSessions);
        QVERIFY(acp->capabilities().resumeSession);
        QVERIFY(acp->capabilities().loadSession);
        AgentSession *ours = openSession(*acp);
        QVERIFY(ours);
        QCOMPARE(runTurn(ours, {Acp::ContentBlock::fromText(QStringLiteral("remember me"))}), QStringLiteral("end_turn"));

        QList<Acp::SessionInfo> listed;
        bool done = false;
        acp->listSessions(QDir::tempPath(), [&](const QList<Acp::SessionInfo> &sessions, const std::optional<Acp::Error> &) {
            listed = sessions;
            done = true;
        });
        QTRY_VERIFY(done);
        QCOMPARE(listed.size(), 2);
        QCOMPARE(listed.at(0).sessionId, QStringLiteral("mock-past-1"));
        QCOMPARE(listed.at(0).title, QStringLiteral("An earlier conversation"));
        QCOMPARE(listed.at(1).sessionId, ours->id());
        QCOMPARE(listed.at(1).title, QStringLiteral("remember me"));

        AgentSession *resumed = nullptr;
        acp->resumeSession(QStringLiteral("mock-past-1"), QDir::tempPath(), {}, [&](AgentSession *session, const std::optional<Acp::Error> &) {
            resumed = session;
        });
        QTRY_VERIFY(resumed);
        QCOMPARE(resumed->conversation()->count(), 0); // resume replays nothing
        QCOMPARE(resumed->conversation()->currentModeId(), QStringLiteral("default"));
        QCOMPARE(runTurn(resumed, {Acp::ContentBlock::fromText(QStringLiteral("and now?"))}), QStringLiteral("end_turn"));

        // A second client loads it: the agent replays the history into the conversation first.
        auto other = client();
        QVERIFY(startReady(*other, m_mock->command({QStringLiteral("--list-sessions")})));
        AgentSession *loaded = nullptr;
        other->loadSession(QStringLiteral("mock-past-1"), QDir::tempPath(), {}, [&](AgentSession *session, const std::optional<Acp::Error> &) {
            loaded = session;
        });
        QTRY_VERIFY(loaded);
        const Conversation *history = loaded->conversation();
        QCOMPARE(history->count(), 2);
        QCOMPARE(history->entry(0).kind, Conversation::Entry::Kind::UserMessage);
        QCOMPARE(history->entry(0).text(), QStringLiteral("What is (+ 1 2)?"));
        QCOMPARE(history->entry(0).turn, 0);
        QCOMPARE(history->entry(1).text(), QStringLiteral("It is 3."));

        std::optional<Acp::Error> missing;
        bool answered = false;
        other->loadSession(QStringLiteral("no-such-session"), QDir::tempPath(), {}, [&](AgentSession *, const std::optional<Acp::Error> &error) {
            missing = error;
            answered = true;
        });
        QTRY_VERIFY(answered);
        QVERIFY(missing && missing->code == -32002);
        QVERIFY(!other->session(QStringLiteral("no-such-session")));
        other.reset();
    }

    void stoppingLeavesNoProcess()
    {
        auto acp = client();
        QVERIFY(startReady(*acp, m_mock->command()));
        const qint64 group = acp->process()->processGroup();
        QSignalSpy exited(acp.get(), &AcpClient::exited);
        acp->stop();
        QTRY_COMPARE(exited.size(), 1);
        QTRY_VERIFY(groupMembers(group).isEmpty());
    }

    void destroyingItMidTurnLeavesNoProcess()
    {
        auto acp = client();
        QVERIFY(startReady(*acp, m_mock->command({QStringLiteral("--stream"), QStringLiteral("100000"),
                                                  QStringLiteral("--chunk-delay"), QStringLiteral("5")})));
        AgentSession *session = openSession(*acp);
        QVERIFY(session);
        QVERIFY(session->prompt({Acp::ContentBlock::fromText(QStringLiteral("talk"))}));
        QTRY_VERIFY(session->conversation()->count() >= 2 && session->conversation()->entry(1).text().size() > 20);
        const qint64 group = acp->process()->processGroup();
        acp.reset();
        QTRY_VERIFY_WITH_TIMEOUT(groupMembers(group).isEmpty(), 3000);
    }
};

QTEST_GUILESS_MAIN(tst_AcpClient)
#include "tst_acpclient.moc"

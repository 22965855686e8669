// The hosted agent in the real window (issue 38), offscreen: the app's services, MainWindow,
// WindowSetup and AgentSetup as lisp-duet makes them, and the scripted ACP agent
// (tests/acp/mock-agent.mjs). The approval bar with an agent's options and the diff of its file
// change; the person's choice (and reason) reaching the agent, as its log shows; an MCP tool's
// code in the bar, its evaluation in the transcript and the Tool calls panel saying it came from
// the chat; a Read-only refusal's line in the transcript; File ▸ Settings ▸ Agents; and the
// window's own Agent panel joined to the host (app/core/AgentPanelWiring): a prompt typed in the
// panel, the streamed answer in its chat, the permission in the approval bar, the evaluation in
// the shared session shown in the REPL, the Tool calls panel and its chat row; Stop during a
// permission; the agent's crash told with its last stderr lines, and Restart. Skipped until
// `cd tests && npm ci`.
//
// With DUET_SCREENSHOT_DIR set (under Xvfb) it saves agent-approval-*.png there, in the dark
// theme when DUET_SCREENSHOT_THEME=dark.

#include "HostedWindow.h"

#include "access/AccessGate.h"
#include "access/ApprovalBar.h"
#include "acp/AgentSession.h"
#include "agent/AgentPanel.h"
#include "agent/AgentPromptEdit.h"
#include "agent/ChatDocument.h"
#include "AgentSetup.h"
#include "AgentsPage.h"
#include "ClientConfig.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "Preferences.h"
#include "SettingsDialog.h"
#include "toolcalls/ToolCallLog.h"
#include "window/AgentDock.h"
#include "window/MainWindow.h"
#include "WindowSetup.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QTableWidget>
#include <QtTest>

namespace {
void isolate()
{
    isolateFolders();
    useBuiltEngine();
}
Q_CONSTRUCTOR_FUNCTION(isolate)

QPushButton *optionNamed(ApprovalBar *bar, const QString &name)
{
    for (QPushButton *button : bar->optionButtons()) {
        if (button->text() == name)
            return button;
    }
    return nullptr;
}
} // namespace

class TestAgentInWindow : public QObject
{
    Q_OBJECT

    HostedApp m_app;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<WindowSetup> m_setup;
    std::unique_ptr<AgentSetup> m_agents;
    std::unique_ptr<MockAgent> m_mock;
    qint64 m_group = 0;

    AgentHost *host() const { return m_agents->host(); }
    AgentPanel *panel() const { return m_window->agentPanel(); }
    QString chatText() const
    {
        panel()->chat()->flush();
        return panel()->chat()->document()->toPlainText();
    }
    // The mock with `flags` made the agent the panel's chooser offers, started with its Start button.
    bool startFromPanel(const QStringList &flags)
    {
        const AgentCommand mock = m_mock->command(flags);
        QList<AgentCommand> agents = host()->agents();
        agents << mock;
        host()->setAgents(agents, mock.name);
        m_window->agentDock()->showPanel();
        if (panel()->currentAgent().name != mock.name || !panel()->startButton()->isEnabled()) {
            qWarning() << "the panel offers" << panel()->currentAgent().name << "start enabled:" << panel()->startButton()->isEnabled() << panel()->stateText() << panel()->client() << int(host()->state());
            return false;
        }
        QTest::mouseClick(panel()->startButton(), Qt::LeftButton);
        m_group = groupOf(*host());
        return settles(*host()) && host()->state() == AgentHost::State::Ready && panel()->session() == host()->session();
    }
    void typePrompt(const QString &text)
    {
        QTest::keyClicks(panel()->promptBox(), text);
        QTest::keyClick(panel()->promptBox(), Qt::Key_Return);
    }
    ApprovalBar *bar() const { return m_window->console()->approvalBar(); }
    QString transcript() const
    {
        m_window->console()->transcript()->flushNow();
        return m_window->console()->transcript()->toPlainText();
    }
    bool open(const QStringList &flags)
    {
        host()->start(m_mock->command(flags));
        m_group = groupOf(*host());
        return settles(*host()) && host()->state() == AgentHost::State::Ready;
    }
    bool send(const QString &text) { return host()->session()->prompt({Acp::ContentBlock::fromText(text)}); }
    bool turnEnded(int ms = 30000)
    {
        return QTest::qWaitFor([&] { return host()->session() && !host()->session()->isPrompting(); }, ms);
    }
    void saveScreenshot(const QString &name)
    {
        const QString dir = qEnvironmentVariable("DUET_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        m_window->console()->transcript()->flushNow();
        QTest::qWait(300);
        const QString theme = qEnvironmentVariable("DUET_SCREENSHOT_THEME", QStringLiteral("light"));
        QVERIFY(m_window->grab().save(QDir(dir).filePath(QStringLiteral("agent-%1-%2.png").arg(name, theme))));
    }

private Q_SLOTS:
    void initTestCase()
    {
        SKIP_UNLESS_MOCK_RUNS();
        QCoreApplication::setOrganizationName(QStringLiteral("lisp-duet"));
        QCoreApplication::setApplicationName(QStringLiteral("lisp-duet"));
        if (qEnvironmentVariable("DUET_SCREENSHOT_THEME") == QLatin1String("dark")) {
            Preferences dark = Preferences::load();
            dark.theme = Preferences::Theme::Dark;
            dark.save();
        }
        QVERIFY(m_app.start());
        QVERIFY(openHostedWindow(m_app, m_window, m_setup, m_agents));
        m_window->activateWindow();
    }
    void init()
    {
        m_mock = std::make_unique<MockAgent>();
        m_app.services->access()->setMode(AccessMode::Ask);
    }
    void cleanup()
    {
        host()->stop();
        expectGroupGone(m_group);
        // The client hears of its end a moment after its processes are gone.
        QTRY_VERIFY(host()->state() != AgentHost::State::Ready && host()->state() != AgentHost::State::Starting);
        QTRY_VERIFY(bar()->isHidden());
    }
    void cleanupTestCase()
    {
        m_agents.reset();
        m_setup.reset();
        m_window.reset();
        m_app.endpoints.reset();
        m_app.services.reset();
    }

    void theApprovalBarShowsTheAgentsOptionsAndTheDiffAndTheReasonReachesTheAgent()
    {
        QVERIFY(open({"--permission"}));
        QVERIFY(send(QStringLiteral("fix square")));
        QTRY_VERIFY(bar()->isVisible());
        QVERIFY2(bar()->headline().contains(QStringLiteral("<b>mock-agent</b> asks to run <b>Edit square.lisp</b> (edit)")), qPrintable(bar()->headline()));
        QStringList names;
        for (QPushButton *button : bar()->optionButtons())
            names << button->text();
        QCOMPARE(names, QStringList({"Allow", "Always allow edits", "Reject"}));
        QVERIFY(bar()->approveButton()->isHidden());
        QVERIFY(bar()->denyButton()->isHidden());
        QVERIFY(bar()->showsDiff());
        QVERIFY2(bar()->diffText().contains(QStringLiteral("-(defun square (x) x)")), qPrintable(bar()->diffText()));
        QVERIFY(bar()->diffText().contains(QStringLiteral("+  (* x x))")));
        QVERIFY2(bar()->summary().startsWith(QStringLiteral("changes square.lisp")), qPrintable(bar()->summary()));
        QTest::keyClicks(bar()->reasonEdit(), QStringLiteral("keep it short"));
        saveScreenshot(QStringLiteral("approval"));
        QTest::mouseClick(optionNamed(bar(), QStringLiteral("Reject")), Qt::LeftButton);
        QTRY_VERIFY(bar()->isHidden());
        QTRY_COMPARE(m_mock->events("permission-answer").size(), 1);
        QCOMPARE(m_mock->events("permission-answer").first().value("outcome").toObject().value("optionId").toString(), QStringLiteral("reject-once"));
        // The reason is the person's next message.
        QTRY_COMPARE(m_mock->received("session/prompt").size(), 2);
        QVERIFY(QJsonDocument(m_mock->received("session/prompt").at(1)).toJson().contains("keep it short"));
        QTRY_VERIFY(bar()->isVisible()); // the mock asks again in that turn
        QTest::mouseClick(optionNamed(bar(), QStringLiteral("Allow")), Qt::LeftButton);
        QVERIFY(turnEnded());
        QTRY_VERIFY2(transcript().contains(QStringLiteral("You denied mock-agent's Edit square.lisp")), qPrintable(transcript().right(400)));
    }

    void thePersonsChoiceOfAlwaysReachesTheAgent()
    {
        QVERIFY(open({"--permission"}));
        QVERIFY(send(QStringLiteral("fix square")));
        QTRY_VERIFY(bar()->isVisible());
        QTest::mouseClick(optionNamed(bar(), QStringLiteral("Always allow edits")), Qt::LeftButton);
        QVERIFY(turnEnded());
        QCOMPARE(m_mock->events("permission-answer").first().value("outcome").toObject().value("optionId").toString(), QStringLiteral("allow-always"));
        QCOMPARE(m_mock->received("session/prompt").size(), 1);
    }

    void aLispDuetToolsCodeShowsInTheBarAndItsCallComesFromTheChat()
    {
        QVERIFY(open({"--ask-mcp-call"}));
        QVERIFY(send(QStringLiteral("eval (expt 2 10)")));
        QTRY_VERIFY(bar()->isVisible());
        QVERIFY2(bar()->headline().contains(QStringLiteral("asks to run Lisp Duet's <b>evaluate-lisp</b>")), qPrintable(bar()->headline()));
        saveScreenshot(QStringLiteral("code"));
        QTest::mouseClick(optionNamed(bar(), QStringLiteral("Yes")), Qt::LeftButton);
        QVERIFY(turnEnded());
        QTRY_VERIFY2(transcript().contains(QStringLiteral("(expt 2 10)")), qPrintable(transcript().right(400)));
        QVERIFY(transcript().contains(QStringLiteral("1024")));
        // The Tool calls panel: one evaluate-lisp, from the chat, allowed there.
        ToolCallLog *log = m_window->toolCallLog();
        int row = -1;
        for (int i = 0; i < log->rowCount(); ++i) {
            if (log->entry(i).tool() == QLatin1String("evaluate-lisp") && log->entry(i).arguments().value("code").toString() == QLatin1String("(expt 2 10)"))
                row = i;
        }
        QVERIFY(row >= 0);
        QCOMPARE(log->data(log->index(row, ToolCallLog::ClientColumn)).toString(), QStringLiteral("mock-agent \u00b7 chat"));
        QVERIFY2(log->data(log->index(row, ToolCallLog::ClientColumn), Qt::ToolTipRole).toString().endsWith(QStringLiteral("allowed once in the chat")),
                 qPrintable(log->data(log->index(row, ToolCallLog::ClientColumn), Qt::ToolTipRole).toString()));
        QCOMPARE(log->entry(row).state(), RequestTrace::State::Done);
        QCOMPARE(log->entry(row).waitedMs(), 0); // never asked a second time
    }

    void readOnlyRefusesTheAgentsChangeWithALineInTheTranscript()
    {
        m_app.services->access()->setMode(AccessMode::ReadOnly);
        QVERIFY(open({"--permission"}));
        QVERIFY(send(QStringLiteral("fix square")));
        QTRY_VERIFY2(transcript().contains(QStringLiteral("mock-agent's Edit square.lisp was refused: agent access is Read-only")),
                     qPrintable(transcript().right(400)));
        QVERIFY(bar()->isHidden());
        QTRY_COMPARE(m_mock->received("session/prompt").size(), 2);
        QVERIFY(turnEnded());
    }

    void theSettingsAgentsPageAddsAnAgentTheHostOffers()
    {
        SettingsDialog *dialog = m_setup->openSettings();
        dialog->showAgentsPage();
        AgentsPage *page = dialog->agentsPage();
        QCOMPARE(page->table()->rowCount(), 3); // Claude Code, Gemini CLI, Codex
        QCOMPARE(page->table()->item(0, AgentsPage::NameColumn)->text(), QStringLiteral("Claude Code"));
        QVERIFY(!page->removeButton()->isEnabled()); // built in
        QTest::mouseClick(page->addButton(), Qt::LeftButton);
        const int row = page->table()->rowCount() - 1;
        page->table()->item(row, AgentsPage::NameColumn)->setText(QStringLiteral("Mock"));
        page->table()->item(row, AgentsPage::CommandColumn)->setText(m_mock->command({"--modes"}).commandLine());
        page->table()->item(row, AgentsPage::EnvironmentColumn)->setText(QStringLiteral("ACP_MOCK_LOG=%1").arg(m_mock->logPath()));
        page->table()->setCurrentCell(row, AgentsPage::NameColumn);
        QVERIFY(page->removeButton()->isEnabled());
        QVERIFY2(page->status().startsWith(QStringLiteral("Mock starts as: ")), qPrintable(page->status()));
        dialog->apply();
        dialog->close();
        QStringList names;
        for (const AgentCommand &agent : host()->agents())
            names << agent.name;
        QCOMPARE(names, QStringList({"Claude Code", "Gemini CLI", "Codex", "Mock"}));
        // Its mode is kept with it once the person chooses one.
        host()->start(host()->agents().last());
        m_group = groupOf(*host());
        QVERIFY(settles(*host()));
        QCOMPARE(host()->state(), AgentHost::State::Ready);
        host()->chooseMode(QStringLiteral("plan"));
        QTRY_COMPARE(AgentSettings::modeOf(Preferences::load().agents, QStringLiteral("Mock")), QStringLiteral("plan"));
    }

    // The whole path through the window: typed in the panel, answered in its chat as it streams,
    // approved once in the approval bar, evaluated in the shared session (the REPL shows it, the
    // Tool calls panel says it came from the chat) and the result shown in the chat's row, which
    // the host tied to Lisp Duet's own MCP call by claudecode/toolUseId.
    void aPromptTypedInThePanelIsAnsweredApprovedOnceAndEvaluatedInTheSharedSession()
    {
        QVERIFY(startFromPanel({"--stream", "7", "--chunk-delay", "5", "--ask-mcp-call"}));
        QCOMPARE(panel()->client(), host()->client());
        typePrompt(QStringLiteral("eval (expt 3 4)"));
        QTRY_COMPARE(m_mock->received("session/prompt").size(), 1);
        QTRY_VERIFY2(chatText().contains(QStringLiteral("Try (square 12): it gives 144.")), qPrintable(chatText()));
        QVERIFY(chatText().contains(QStringLiteral("(defun square (x)")));
        QTRY_VERIFY(bar()->isVisible());
        QVERIFY2(bar()->headline().contains(QStringLiteral("asks to run Lisp Duet's <b>evaluate-lisp</b>")), qPrintable(bar()->headline()));
        QVERIFY(bar()->codeText().contains(QStringLiteral("(expt 3 4)")));
        const QString id = QStringLiteral("call-%1-1").arg(host()->session()->id());
        const int row = host()->session()->conversation()->indexOfToolCall(id);
        QVERIFY(row >= 0);
        QTRY_VERIFY2(panel()->chat()->entryText(row).contains(QStringLiteral("awaiting your approval")), qPrintable(panel()->chat()->entryText(row)));
        saveScreenshot(QStringLiteral("conversation-approval"));
        QTest::mouseClick(optionNamed(bar(), QStringLiteral("Yes")), Qt::LeftButton);
        QVERIFY(turnEnded());
        QTRY_VERIFY(bar()->isHidden());
        QCOMPARE(m_mock->events("permission-answer").first().value("outcome").toObject().value("optionId").toString(), QStringLiteral("allow-once"));
        // The shared session ran it, in the agent's lane.
        QTRY_VERIFY2(transcript().contains(QStringLiteral("(expt 3 4)")), qPrintable(transcript().right(400)));
        QVERIFY(transcript().contains(QStringLiteral("=> 81")));
        QCOMPARE(m_app.jobsOf(QStringLiteral("(expt 3 4)")).size(), 1);
        // Its chat row shows what the session answered, tied by the MCP call's toolUseId.
        QTRY_VERIFY2(panel()->chat()->entryText(row).contains(QStringLiteral("In the session: done")), qPrintable(panel()->chat()->entryText(row)));
        QVERIFY(panel()->chat()->entryText(row).contains(QStringLiteral("=> 81")));
        QVERIFY(!panel()->chat()->entryText(row).contains(QStringLiteral("Session activity"))); // the agent's digest, not the person's
        QVERIFY(chatText().contains(QStringLiteral("The evaluation is done.")));
        ToolCallLog *log = m_window->toolCallLog();
        bool fromChat = false;
        for (int i = 0; i < log->rowCount(); ++i) {
            if (log->entry(i).arguments().value("code").toString() == QLatin1String("(expt 3 4)"))
                fromChat = log->data(log->index(i, ToolCallLog::ClientColumn)).toString() == QStringLiteral("mock-agent \u00b7 chat");
        }
        QVERIFY(fromChat);
        saveScreenshot(QStringLiteral("conversation"));
        QCOMPARE(panel()->chat()->entryText(row).count(QStringLiteral("=> 81")), 1);
    }

    // Stop (the Send button during a turn) while the approval bar asks: the permission is answered
    // `cancelled`, the bar drops it, the chat says the turn was stopped; the agent keeps running.
    void stopDuringAPermissionCancelsItAndTheBarDropsIt()
    {
        QVERIFY(startFromPanel({"--ask-mcp-call"}));
        typePrompt(QStringLiteral("eval (sleep 1)"));
        QTRY_VERIFY(bar()->isVisible());
        QCOMPARE(panel()->sendButton()->text(), QStringLiteral("Stop"));
        QTest::mouseClick(panel()->sendButton(), Qt::LeftButton);
        QVERIFY(turnEnded());
        QTRY_VERIFY(bar()->isHidden());
        QTRY_COMPARE(m_mock->events("permission-answer").size(), 1);
        QCOMPARE(m_mock->events("permission-answer").first().value("outcome").toObject().value("outcome").toString(), QStringLiteral("cancelled"));
        QVERIFY(m_app.jobsOf(QStringLiteral("(sleep 1)")).isEmpty());
        QTRY_VERIFY2(chatText().contains(QStringLiteral("Stopped: the agent ended its turn when asked.")), qPrintable(chatText()));
        QCOMPARE(host()->state(), AgentHost::State::Ready);
        QTRY_COMPARE(m_window->focusWidget(), panel()->promptBox()); // where the keyboard goes in the window
    }

    // The agent crashes mid-turn: the chat says so with its last stderr lines, nothing the REPL
    // needs waits, no process is left; Restart (the panel's) brings a new conversation.
    void anAgentsCrashIsToldInThePanelAndRestartBringsItBack()
    {
        QVERIFY(startFromPanel({"--crash-on-prompt"}));
        QSignalSpy states(host(), &AgentHost::stateChanged);
        typePrompt(QStringLiteral("think hard"));
        QTRY_VERIFY_WITH_TIMEOUT(host()->state() == AgentHost::State::Failed, 15000);
        QCOMPARE(states.size(), 1);
        QCOMPARE(states.first().at(0).value<AgentHost::State>(), AgentHost::State::Failed);
        expectGroupGone(m_group);
        QTRY_VERIFY2(chatText().contains(QStringLiteral("lost my train of thought")), qPrintable(chatText()));
        QVERIFY2(chatText().contains(QStringLiteral("status 3")), qPrintable(chatText()));
        QVERIFY2(panel()->stateText().contains(QStringLiteral("3")), qPrintable(panel()->stateText()));
        QVERIFY(panel()->restartButton()->isEnabled());
        m_window->console()->evaluate(QStringLiteral("(+ 40 2)"));
        QTRY_VERIFY(transcript().contains(QStringLiteral("=> 42")));
        QTest::mouseClick(panel()->restartButton(), Qt::LeftButton);
        m_group = groupOf(*host());
        QVERIFY(settles(*host()));
        QCOMPARE(host()->state(), AgentHost::State::Ready);
        QCOMPARE(panel()->session(), host()->session());
    }

    // Claude Code chosen in the panel while it is not installed: the panel says so and shows the
    // command that installs it; nothing starts.
    void anAgentNotInstalledIsToldInThePanelWithTheCommandThatFixesIt()
    {
        qputenv("LISP_DUET_AGENTS_DIR", QDir::temp().filePath(QStringLiteral("no-agents-here")).toUtf8());
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", "/nonexistent");
        const auto restore = qScopeGuard([&] {
            qputenv("PATH", path);
            qunsetenv("LISP_DUET_AGENTS_DIR");
        });
        m_agents->apply(Preferences::load());
        m_window->agentDock()->showPanel();
        QCOMPARE(panel()->currentAgent().name, QStringLiteral("Claude Code"));
        QVERIFY2(panel()->agentBox()->currentText().contains(QStringLiteral("not installed")), qPrintable(panel()->agentBox()->currentText()));
        QTest::mouseClick(panel()->startButton(), Qt::LeftButton);
        QCOMPARE(host()->state(), AgentHost::State::Missing);
        QVERIFY(!host()->client());
        QVERIFY2(panel()->missingText().contains(QStringLiteral("Claude Code is not installed")), qPrintable(panel()->missingText()));
        QVERIFY(panel()->missingText().endsWith(QStringLiteral("installer/agents.sh claude")));
        QCOMPARE(panel()->stateText(), QStringLiteral("Claude Code cannot start yet: what it needs is below."));
        saveScreenshot(QStringLiteral("missing"));
        m_agents->apply(Preferences::load());
    }

    // The panel's other requests reach the host: earlier conversations listed, a mode chosen
    // (kept for the agent), Stop ending the agent and its process group.
    void thePanelsRequestsReachTheHost()
    {
        QVERIFY(startFromPanel({"--modes", "--list-sessions"}));
        Q_EMIT panel()->listSessionsRequested();
        QTRY_VERIFY(!panel()->earlierConversations().isEmpty());
        const int plan = panel()->modeBox()->findText(QStringLiteral("Plan"), Qt::MatchStartsWith);
        QVERIFY2(plan >= 0, qPrintable(panel()->modeNames().join(u',')));
        QSignalSpy kept(host(), &AgentHost::modeChosen);
        panel()->modeBox()->setCurrentIndex(plan);
        Q_EMIT panel()->modeBox()->activated(plan);
        QTRY_COMPARE(host()->session()->conversation()->currentModeId(), QStringLiteral("plan"));
        QCOMPARE(kept.size(), 1);
        QCOMPARE(kept.first().at(1).toString(), QStringLiteral("plan"));
        QTest::mouseClick(panel()->stopButton(), Qt::LeftButton);
        QTRY_COMPARE(host()->state(), AgentHost::State::Stopped);
        expectGroupGone(m_group);
        // The conversation stays in view; Start and Restart are offered again.
        QTRY_VERIFY(panel()->startButton()->isEnabled());
        QVERIFY(panel()->restartButton()->isEnabled());
        QVERIFY2(panel()->stateText().contains(QStringLiteral("Restart starts it again")), qPrintable(panel()->stateText()));
    }
};

QTEST_MAIN(TestAgentInWindow)
#include "tst_agentinwindow.moc"

// The hosted agent in the real window (issue 38), offscreen: the app's services, MainWindow,
// WindowSetup and AgentSetup as lisp-duet makes them, and the scripted ACP agent
// (tests/acp/mock-agent.mjs). The approval bar with an agent's options and the diff of its file
// change; the person's choice (and reason) reaching the agent, as its log shows; an MCP tool's
// code in the bar, its evaluation in the transcript and the Tool calls panel saying it came from
// the chat; a Read-only refusal's line in the transcript; File ▸ Settings ▸ Agents; and the
// panel's wiring, with a stand-in for ui/agent/AgentPanel (its own branch) that has the
// contract's setters and signals. Skipped until `cd tests && npm ci`.
//
// With DUET_SCREENSHOT_DIR set (under Xvfb) it saves agent-approval-*.png there, in the dark
// theme when DUET_SCREENSHOT_THEME=dark.

#include "HostedApp.h"

#include "access/AccessGate.h"
#include "access/ApprovalBar.h"
#include "acp/AgentSession.h"
#include "AgentPanelWiring.h"
#include "AgentSetup.h"
#include "AgentsPage.h"
#include "ClientConfig.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "Preferences.h"
#include "SettingsDialog.h"
#include "toolcalls/ToolCallLog.h"
#include "window/MainWindow.h"
#include "WindowSetup.h"

#include <QLineEdit>
#include <QPushButton>
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

// What ui/agent/AgentPanel offers the wiring (the contract in AgentPanelWiring.h), recorded.
class StandInPanel : public QObject
{
    Q_OBJECT
public:
    QList<AgentCommand> agents;
    QString current;
    QPointer<AcpClient> client;
    QPointer<AgentSession> session;
    QString missing, fix;
    QList<Acp::AuthMethod> authMethods;
    QList<Acp::SessionInfo> sessions;
    QStringList traced;

    void setAgents(const QList<AgentCommand> &list, const QString &chosen) { agents = list, current = chosen; }
    void setClient(AcpClient *c) { client = c; }
    void setSession(AgentSession *s) { session = s; }
    void setMissing(const QString &what, const QString &command) { missing = what, fix = command; }
    void setAuthMethods(const QList<Acp::AuthMethod> &methods) { authMethods = methods; }
    void setSessions(const QList<Acp::SessionInfo> &earlier) { sessions = earlier; }
    void showToolCallTrace(const QString &toolCallId, RequestTrace *trace) { traced << toolCallId + (trace ? QString() : QStringLiteral("?")); }

Q_SIGNALS:
    void startRequested(const AgentCommand &command);
    void stopRequested();
    void restartRequested();
    void loginRequested(const Acp::AuthMethod &method);
    void listSessionsRequested();
    void resumeRequested(const QString &sessionId);
    void modeChosen(const QString &modeId);
};

class TestAgentWindow : public QObject
{
    Q_OBJECT

    HostedApp m_app;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<WindowSetup> m_setup;
    std::unique_ptr<AgentSetup> m_agents;
    std::unique_ptr<MockAgent> m_mock;
    qint64 m_group = 0;

    AgentHost *host() const { return m_agents->host(); }
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
        AppServices *services = m_app.services.get();
        m_window = std::make_unique<MainWindow>(services->session(), services->server(), services->access());
        ClientConfig::Target target;
        target.token = m_app.endpoints->token();
        m_setup = std::make_unique<WindowSetup>(m_window.get(), services, target, false);
        m_agents = std::make_unique<AgentSetup>(m_window.get(), services, m_app.server());
        m_setup->setAgentSetup(m_agents.get());
        m_window->resize(1200, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
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
        QVERIFY2(bar()->headline().contains(QStringLiteral("mcp__lisp-duet__evaluate-lisp")), qPrintable(bar()->headline()));
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

    void thePanelIsWiredToTheHost()
    {
        StandInPanel panel;
        wireAgentPanel(&panel, host());
        QCOMPARE(panel.agents.size(), host()->agents().size());
        Q_EMIT panel.startRequested(m_mock->command({"--mcp-call", "--list-sessions"}));
        m_group = groupOf(*host());
        QVERIFY(panel.client);
        QTRY_VERIFY(panel.session);
        QCOMPARE(panel.session.data(), host()->session());
        QCOMPARE(panel.current, QStringLiteral("mock-agent"));
        m_app.services->access()->setMode(AccessMode::Allow);
        QVERIFY(panel.session->prompt({Acp::ContentBlock::fromText(QStringLiteral("eval (+ 3 4)"))}));
        QTRY_COMPARE(panel.traced.size(), 1);
        QVERIFY(panel.session->conversation()->toolCall(panel.traced.first()));
        Q_EMIT panel.listSessionsRequested();
        QTRY_VERIFY(!panel.sessions.isEmpty());
        QVERIFY(turnEnded());
        Q_EMIT panel.stopRequested();
        QTRY_COMPARE(host()->state(), AgentHost::State::Stopped);
        expectGroupGone(m_group);
        Q_EMIT panel.restartRequested();
        m_group = groupOf(*host());
        QTRY_VERIFY(panel.session);
        QCOMPARE(panel.current, QStringLiteral("mock-agent"));
    }
};

QTEST_MAIN(TestAgentWindow)
#include "tst_agentwindow.moc"

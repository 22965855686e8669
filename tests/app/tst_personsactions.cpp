// What the person does to an agent's work reaches that agent (issue 32), end to end: the app's
// own services and window (AppServices, MainWindow, WindowSetup), offscreen, serving Streamable
// HTTP on 127.0.0.1, and agents that are the official TypeScript SDK client
// (tests/e2e/agent-repl.mjs). The person's undo of the agent's file change, Interrupt of its
// job, denial with a reason, and choice in its debugger each reach the agent's next answer (its
// digest) and the answer of the call they concern; an agent waiting with the tool job for the
// person's choice on its parked evaluation gets it without polling; a client that closes
// leaves the status bar and the Connect dialog, which says when it left.
// Skipped when tests/node_modules is missing (cd tests && npm ci).
//
// With DUET_SCREENSHOT_DIR set (under Xvfb), it saves told-*.png there, in the dark theme when
// DUET_SCREENSHOT_THEME=dark: the approval bar with a reason, the transcript with the lines the
// person's actions left, the Tool calls panel following its jobs, the Debugger panel while an
// agent waits for the person's choice, and the Connect dialog saying who left.

#include "../common/IsolatedFolders.h"
#include "SdkAgent.h"

#include "access/AccessGate.h"
#include "access/ApprovalBar.h"
#include "AppServices.h"
#include "ClientConfig.h"
#include "console/LispConsole.h"
#include "console/RunningJobBar.h"
#include "console/TranscriptView.h"
#include "debugger/DebuggerPanel.h"
#include "dialogs/ConnectDialog.h"
#include "Preferences.h"
#include "project/ProjectFiles.h"
#include "session/Session.h"
#include "SettingsDialog.h"
#include "toolcalls/ToolCallLog.h"
#include "toolcalls/ToolCallsPanel.h"
#include "transports/HttpTransport.h"
#include "window/MainWindow.h"
#include "WindowSetup.h"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTableView>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QtTest>

namespace {
// Before QApplication exists, so QSettings and QStandardPaths never see the real folders.
void isolate()
{
    isolateFolders();
    useBuiltEngine();
}
Q_CONSTRUCTOR_FUNCTION(isolate)

const QByteArray Token = "persons-actions-test-token-0123456789";
} // namespace

class TestPersonsActions : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<WindowSetup> m_setup;
    std::unique_ptr<HttpTransport> m_http;
    std::unique_ptr<SdkAgent> m_agent;
    QTemporaryDir m_project;

    QString transcript() const
    {
        m_window->console()->transcript()->flushNow();
        return m_window->console()->transcript()->toPlainText();
    }
    void saveScreenshot(QWidget *widget, const QString &name)
    {
        const QString dir = qEnvironmentVariable("DUET_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        m_window->console()->transcript()->flushNow();
        QTest::qWait(400);
        const QString theme = qEnvironmentVariable("DUET_SCREENSHOT_THEME", QStringLiteral("light"));
        const QString path = QDir(dir).filePath(QStringLiteral("told-%1-%2.png").arg(name, theme));
        QVERIFY2(widget->grab().save(path), qPrintable(path));
    }
    QJsonObject run(const QString &tool, const QJsonObject &arguments, int ms = 60000)
    {
        const QJsonObject answer = m_agent->answer(m_agent->call(tool, arguments), ms);
        if (answer.isEmpty() || answer.contains("error"))
            qWarning().noquote() << tool << "gave no result:" << answer.value("error").toString() << m_agent->errors();
        return answer;
    }
    // The agent's next answer, to a call that has nothing to do with what happened: what it
    // learns of the person's doings is in its digest.
    QString nextDigest()
    {
        const QJsonObject answer = run(QStringLiteral("evaluate-lisp"), {{"code", "(+ 1 1)"}});
        const QString all = SdkAgent::allText(answer);
        const qsizetype at = all.indexOf(QStringLiteral("[Session activity since your last call]"));
        return at < 0 ? QString() : all.mid(at);
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo::exists(QStringLiteral(DUET_SOURCE_DIR "/tests/node_modules/@modelcontextprotocol/sdk")))
            QSKIP("The official SDK client is not installed: run npm ci in tests/.");
        if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
            QSKIP("node is not installed.");
        QCoreApplication::setOrganizationName(QStringLiteral("lisp-duet"));
        QCoreApplication::setApplicationName(QStringLiteral("lisp-duet"));
        if (qEnvironmentVariable("DUET_SCREENSHOT_THEME") == QLatin1String("dark")) {
            Preferences dark = Preferences::load();
            dark.theme = Preferences::Theme::Dark;
            dark.save(); // WindowSetup applies the saved settings, theme included
        }
        m_services = std::make_unique<AppServices>();
        m_window = std::make_unique<MainWindow>(m_services->session(), m_services->server(), m_services->access());
        m_window->setNativeCompilation(m_services->native());
        m_window->setEditorBridge(m_services->editors());
        ClientConfig::Target target;
        target.token = Token;
        m_setup = std::make_unique<WindowSetup>(m_window.get(), m_services.get(), target, false);
        HttpTransport::Options options;
        options.port = 0;
        options.token = Token;
        m_http = std::make_unique<HttpTransport>(m_services->server(), options);
        QVERIFY2(m_http->listen(), qPrintable(m_http->errorString()));
        m_services->start();
        QVERIFY(m_project.isValid());
        QVERIFY(m_window->openProject(m_project.path()));
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(QTest::qWaitFor([this] { return m_services->session()->isEngineReady(); }, 30000));
        m_agent = std::make_unique<SdkAgent>();
        QVERIFY2(m_agent->start(m_http->url(), Token, QStringLiteral("claude-code")), qPrintable(m_agent->errors()));
    }

    void cleanupTestCase()
    {
        m_agent.reset();
        m_http.reset();
        m_setup.reset();
        m_window.reset();
        m_services.reset();
    }

    void init()
    {
        if (m_services)
            m_services->access()->setMode(AccessMode::Allow);
    }

    void thePersonsUndoOfTheAgentsFileChangeReachesItsNextAnswer()
    {
        const QJsonObject written = run(QStringLiteral("write-file"), {{"path", "NOTES.md"}, {"content", "the agent's notes\n"},
                                                                       {"description", "write down what I found"}});
        QVERIFY2(!SdkAgent::isError(written), qPrintable(SdkAgent::text(written)));
        const QList<FileChange> &history = m_services->projectFiles()->history();
        QVERIFY(!history.isEmpty());
        const quint64 changeId = history.last().id;
        // The person clicks the change's Undo link in the transcript.
        Q_EMIT m_window->console()->transcript()->linkActivated(QStringLiteral("undo:%1").arg(changeId));
        QTRY_VERIFY(!QFile::exists(m_project.filePath(QStringLiteral("NOTES.md"))));
        QTRY_VERIFY(transcript().contains(QStringLiteral("You undid claude-code's change to NOTES.md")));
        const QString digest = nextDigest();
        QVERIFY2(digest.contains(QStringLiteral("- the person at ")), qPrintable(digest));
        QVERIFY2(digest.contains(QStringLiteral(": undid your change to NOTES.md (write-file) made at ")), qPrintable(digest));
        QVERIFY2(digest.contains(QStringLiteral("the file is back to what it was before it. Read it again before you edit it.")), qPrintable(digest));
        QVERIFY2(!nextDigest().contains(QStringLiteral("undid")), "told once");
    }

    void thePersonsInterruptOfTheAgentsJobReachesTheJobsAnswerAndTheDigest()
    {
        const QJsonObject running = run(QStringLiteral("evaluate-lisp"), {{"code", "(sleep 30)"}, {"wait_seconds", 1}, {"description", "wait a while"}});
        const QJsonObject handle = SdkAgent::structured(running);
        QCOMPARE(handle.value("status").toString(), QStringLiteral("running"));
        QVERIFY2(SdkAgent::text(running).contains(QStringLiteral("Its time limit stops it after 300 s of running")), qPrintable(SdkAgent::text(running)));
        QCOMPARE(handle.value("time_limit_ms").toDouble(), 300000.0);
        RunningJobBar *bar = m_window->console()->runningJobBar();
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 5000);
        QTest::mouseClick(bar->interruptButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!m_services->session()->current(), 10000);
        const QString digest = nextDigest();
        QVERIFY2(digest.contains(QStringLiteral("(wait a while): (sleep 30) [INTERRUPTED] The person interrupted the evaluation at ")), qPrintable(digest));
        const QJsonObject fetched = run(QStringLiteral("job"), {{"job_id", handle.value("job_id")}});
        QVERIFY2(SdkAgent::text(fetched).startsWith(QStringLiteral("[ERROR] INTERRUPTED\nThe person interrupted the evaluation at ")),
                 qPrintable(SdkAgent::text(fetched)));
    }

    void aDenialWithAReasonReachesTheCallAndLeavesALine()
    {
        m_services->access()->setMode(AccessMode::Ask);
        const int call = m_agent->call(QStringLiteral("evaluate-lisp"), {{"code", "(defparameter *threshold* 0)"}, {"description", "loosen the check"}});
        ApprovalBar *bar = m_window->console()->approvalBar();
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 10000);
        QTest::keyClicks(bar->reasonEdit(), QStringLiteral("zero lets everything through"));
        saveScreenshot(m_window.get(), QStringLiteral("deny-reason"));
        QTest::keyClick(bar->reasonEdit(), Qt::Key_Return);
        const QJsonObject denied = m_agent->answer(call);
        QVERIFY(SdkAgent::isError(denied));
        QVERIFY2(SdkAgent::text(denied).endsWith(QStringLiteral(" They said: \u201czero lets everything through\u201d.")), qPrintable(SdkAgent::text(denied)));
        QTRY_VERIFY2(transcript().contains(QStringLiteral("; You denied claude-code's evaluate-lisp \u2014 loosen the check: (defparameter *threshold* 0) "
                                                          "(your reason: \u201czero lets everything through\u201d)")),
                     qPrintable(transcript().right(300)));
        m_window->toolCallsPanel()->table()->selectRow(m_window->toolCallLog()->rowCount() - 1);
        saveScreenshot(m_window.get(), QStringLiteral("transcript"));
    }

    void anAgentWaitingForThePersonsChoiceGetsItWithoutPolling()
    {
        const QJsonObject parked = run(QStringLiteral("evaluate-lisp"),
                                       {{"code", "(+ 1 (restart-case (error \"no value yet\") (use-value (v) :report \"Use a value.\" v)))"},
                                        {"debug", true}});
        QCOMPARE(SdkAgent::structured(parked).value("status").toString(), QStringLiteral("parked"));
        const double jobId = SdkAgent::structured(parked).value("job_id").toDouble();
        QVERIFY(jobId > 0);
        QVERIFY2(SdkAgent::allText(parked).contains(QStringLiteral("job with job_id %1 waits for that choice").arg(qint64(jobId))), qPrintable(SdkAgent::allText(parked)));
        const int waiting = m_agent->call(QStringLiteral("job"), {{"job_id", jobId}, {"wait_seconds", 60}});
        QTest::qWait(1500);
        QVERIFY2(!m_agent->answered(waiting), "the job call waits for the choice");
        DebuggerPanel *panel = m_window->debuggerPanel();
        QTRY_VERIFY(panel->shown());
        saveScreenshot(m_window.get(), QStringLiteral("debugger-waiting"));
        panel->setArguments(QStringLiteral("41"));
        QVERIFY(panel->chooseRestart(0)); // USE-VALUE
        const QJsonObject outcome = m_agent->answer(waiting, 20000);
        QCOMPARE(SdkAgent::text(outcome), QStringLiteral("=> 42"));
        // The answer says who chose what, and its digest has the choice among what others did.
        const QString all = SdkAgent::allText(outcome);
        QVERIFY2(QRegularExpression(QStringLiteral("\\[Debugger\\]\nDebugger \\d+: the person chose USE-VALUE \\(41\\) at \\d\\d:\\d\\d:\\d\\d\\."))
                     .match(all).hasMatch(),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral(": chose USE-VALUE (41) in debugger ")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("(the evaluation goes on)")), qPrintable(all));
        QTRY_VERIFY(m_window->debuggerPanel()->notice().contains(QStringLiteral("you chose USE-VALUE")));
        saveScreenshot(m_window.get(), QStringLiteral("after-choice"));
    }

    void aClientThatClosesLeavesTheListWithTheTimeItLeft()
    {
        SdkAgent other;
        QVERIFY2(other.start(m_http->url(), Token, QStringLiteral("tool-lister")), qPrintable(other.errors()));
        QTRY_COMPARE(m_window->clientsText(), QStringLiteral("Clients: claude-code, tool-lister"));
        QVERIFY(other.close());
        // Its event stream closed and no session was deleted: gone within the stream's grace.
        QTRY_COMPARE_WITH_TIMEOUT(m_window->clientsText(), QStringLiteral("Clients: claude-code"), 15000);
        ConnectDialog *dialog = m_setup->openConnect();
        QVERIFY2(dialog->connectedText().startsWith(QStringLiteral("Connected now: claude-code (http). Left: tool-lister (http) at ")),
                 qPrintable(dialog->connectedText()));
        saveScreenshot(dialog, QStringLiteral("connect"));
        dialog->close();
    }

    // The agents' optional tool groups are where the person sets what agents may use.
    void theSettingsOfferTheOptionalToolGroups()
    {
        SettingsDialog *settings = m_setup->openSettings();
        for (const char *name : {"projectTools", "debuggerTools", "handoffTools"}) {
            auto *box = settings->findChild<QCheckBox *>(QLatin1String(name));
            QVERIFY2(box && box->isChecked(), name);
        }
        saveScreenshot(settings, QStringLiteral("settings"));
        settings->close();
    }
};

QTEST_MAIN(TestPersonsActions)
#include "tst_personsactions.moc"

// The running job in the window (issue 21, item 3): an agent's evaluation that outlasts its
// call's wait_seconds goes on in the shared session, and the bar above the REPL input shows who
// runs what, the time it has run (ticking), its newest output line, and Interrupt, which ends
// it as the agent's later `job` call then reports. Quick evaluations never show the bar; a job
// parked in the debugger leaves it.
// With DUET_SCREENSHOT_DIR set (tests/ui/screenshots.sh), running-job.png.

#include "UiTestSupport.h"

#include "tools/ToolSet.h"
#include "console/LispConsole.h"
#include "console/RunningJobBar.h"
#include "console/TranscriptView.h"
#include "window/MainWindow.h"

#include <QLabel>
#include <QPushButton>
#include <QStandardPaths>

class TestRunningJob : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<AgentClient> m_agent;

    RunningJobBar *bar() const { return m_window->console()->runningJobBar(); }
    void saveScreenshot(const QString &name)
    {
        QVERIFY2(saveScreenshotIfAsked(m_window.get(), name, [this] { m_window->console()->transcript()->flushNow(); }), qPrintable(name));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_live = std::make_unique<LiveSession>();
        QVERIFY2(m_live->engine.isReady(), "the engine did not start");
        addSessionTools(&m_live->tools, &m_live->session, &m_live->jobs, &m_live->rooms.native); // time-execution, run-tests, job...
        m_window = m_live->showWindow(QSize(1200, 760), true);
        QVERIFY(m_window);
        m_agent = std::make_unique<AgentClient>(&m_live->server, QStringLiteral("claude-code"));
    }
    void cleanupTestCase()
    {
        m_agent.reset();
        m_window.reset();
        m_live.reset();
    }
    void init()
    {
        QVERIFY(QTest::qWaitFor([this] { return !m_live->session.current(); }, 30000));
    }

    void theClockReadsMinutesAndSeconds()
    {
        QCOMPARE(RunningJobBar::clock(0), QStringLiteral("0:00"));
        QCOMPARE(RunningJobBar::clock(7999), QStringLiteral("0:07"));
        QCOMPARE(RunningJobBar::clock(150000), QStringLiteral("2:30"));
        QCOMPARE(RunningJobBar::clock(3723000), QStringLiteral("1:02:03"));
    }

    void aQuickEvaluationNeverShowsTheBar()
    {
        bool shown = false;
        QTimer watch;
        connect(&watch, &QTimer::timeout, this, [&] { shown = shown || bar()->isVisible(); });
        watch.start(20);
        const int id = m_agent->evaluate(QStringLiteral("(+ 1 2)"));
        QCOMPARE(AgentClient::resultText(m_agent->response(id)), QStringLiteral("=> 3"));
        QTest::qWait(100);
        QVERIFY(!shown);
    }

    void anAgentsJobThatOutlastsItsCallShowsWhoWhatElapsedAndOutputAndInterruptEndsIt()
    {
        const int call = m_agent->callTool(QStringLiteral("evaluate-lisp"),
                                           {{"code", "(dotimes (i 600) (format t \"step ~D of 600~%\" i) (sleep 0.1))"},
                                            {"description", "counting slowly"},
                                            {"wait_seconds", 1}});
        const QJsonObject running = m_agent->response(call);
        const QJsonObject structured = running.value("result").toObject().value("structuredContent").toObject();
        QCOMPARE(structured.value("status").toString(), QStringLiteral("running"));
        const qint64 jobId = qint64(structured.value("job_id").toDouble());

        // The call was answered; the work goes on in the window.
        QVERIFY(QTest::qWaitFor([this] { return bar()->isVisible(); }, 5000));
        QCOMPARE(bar()->jobId(), quint64(jobId));
        QVERIFY2(bar()->headline().contains(QStringLiteral("<b>claude-code</b> is running evaluate-lisp \u2014 counting slowly")),
                 qPrintable(bar()->headline()));
        QVERIFY2(bar()->headline().contains(QStringLiteral("(dotimes (i 600)")), qPrintable(bar()->headline()));
        const QString before = bar()->elapsedText();
        QVERIFY(QTest::qWaitFor([&] { return bar()->elapsedText() != before; }, 3000)); // it ticks
        QVERIFY(QTest::qWaitFor([this] { return bar()->outputLine().startsWith(QStringLiteral("step ")); }, 5000));
        QVERIFY2(bar()->outputLine().endsWith(QStringLiteral(" of 600")), qPrintable(bar()->outputLine()));
        // The clock, and when the time limit stops it (the session's: 300 s).
        QVERIFY(QTest::qWaitFor([this] { return bar()->elapsedText() == QStringLiteral("0:03 \u00b7 limit 5:00"); }, 5000));
        saveScreenshot(QStringLiteral("running-job.png"));

        // The agent waits for it with job; the person interrupts it meanwhile.
        const int wait = m_agent->callTool(QStringLiteral("job"), {{"job_id", jobId}, {"wait_seconds", 30}});
        QTest::mouseClick(bar()->interruptButton(), Qt::LeftButton);
        const QJsonObject ended = m_agent->response(wait);
        QVERIFY(AgentClient::isError(ended));
        QVERIFY2(AgentClient::resultText(ended).contains(QStringLiteral("[ERROR] INTERRUPTED\nThe person interrupted the evaluation at ")),
                 qPrintable(AgentClient::resultText(ended)));
        QVERIFY(QTest::qWaitFor([this] { return !bar()->isVisible(); }, 5000));
    }

    void aJobParkedInTheDebuggerLeavesTheBar()
    {
        const int call = m_agent->callTool(QStringLiteral("evaluate-lisp"), {{"code", "(progn (sleep 1.5) (error \"stops here\"))"}, {"debug", true}});
        QVERIFY(QTest::qWaitFor([this] { return bar()->isVisible(); }, 5000));
        const QJsonObject parked = m_agent->response(call);
        QCOMPARE(parked.value("result").toObject().value("structuredContent").toObject().value("status").toString(), QStringLiteral("parked"));
        QVERIFY(QTest::qWaitFor([this] { return !bar()->isVisible(); }, 2000));
        const int debuggerId = parked.value("result").toObject().value("structuredContent").toObject().value("debugger").toObject().value("id").toInt();
        const int abort = m_agent->callTool(QStringLiteral("invoke-restart"), {{"debugger_id", debuggerId}, {"restart", "ABORT"}});
        QVERIFY(!m_agent->response(abort).isEmpty());
        QVERIFY(!bar()->isVisible());
    }

    void thePersonsOwnLongEvaluationShowsTooAndSaysYou()
    {
        m_window->console()->evaluate(QStringLiteral("(sleep 2.5)"));
        QVERIFY(QTest::qWaitFor([this] { return bar()->isVisible(); }, 5000));
        QVERIFY2(bar()->headline().startsWith(QStringLiteral("You are evaluating")), qPrintable(bar()->headline()));
        QCOMPARE(bar()->outputLine(), QStringLiteral("(no output yet)"));
        QVERIFY(QTest::qWaitFor([this] { return !bar()->isVisible(); }, 10000));
    }
};

QTEST_MAIN(TestRunningJob)
#include "tst_runningjob.moc"

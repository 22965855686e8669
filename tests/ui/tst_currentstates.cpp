// What the window shows stays current and true (issue 32), with the real engine, Session,
// McpServer and window offscreen, and an agent fed through a real peer: a call that answered
// "goes on as a job" or "parked" follows its job until it ends (and says who interrupted it);
// the Tool calls table follows new rows and keeps its Arguments column readable; the detail
// pane says who, why and the answer; the Debugger panel drops what it said of an earlier
// debugger, gives the transcript its width back, selects the frame it expands and shows a
// restart without a report as its name; the interrupt hint says whose and ends when the job
// parks; the running-job bar says when the time limit stops the job; a refusal or a denial
// (with the person's reason) leaves a line in the transcript; a client that leaves is dropped
// from the status bar with the time it left; the states keep readable colours on a dark theme.

#include "UiTestSupport.h"

#include "access/AccessGate.h"
#include "access/ApprovalBar.h"
#include "client/EngineProtocol.h"
#include "console/LispConsole.h"
#include "console/RunningJobBar.h"
#include "console/TranscriptView.h"
#include "debugger/DebuggerPanel.h"
#include "server/ClientPresence.h"
#include "toolcalls/ToolCallLog.h"
#include "toolcalls/ToolCallsPanel.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QStatusBar>
#include <QStandardPaths>
#include <QTableView>
#include <QTreeWidget>

class TestCurrentStates : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<AgentClient> m_agent;

    Session &session() { return m_live->session; }
    ToolCallLog *log() const { return m_window->toolCallLog(); }
    DebuggerPanel *panel() const { return m_window->debuggerPanel(); }
    QString transcript() const
    {
        m_window->console()->transcript()->flushNow();
        return m_window->console()->transcript()->toPlainText();
    }
    // The State column of the newest tools/call row of `tool`.
    QString stateOf(const QString &tool) const
    {
        for (int row = log()->rowCount() - 1; row >= 0; --row) {
            if (log()->entry(row).tool() == tool)
                return log()->index(row, ToolCallLog::StateColumn).data().toString();
        }
        return {};
    }
    static QJsonObject structured(const QJsonObject &response)
    {
        return response.value("result").toObject().value("structuredContent").toObject();
    }
    static QString allText(const QJsonObject &response)
    {
        QStringList texts;
        for (const QJsonValue &part : response.value("result").toObject().value("content").toArray())
            texts << part.toObject().value("text").toString();
        return texts.join('\n');
    }
    bool waitParked()
    {
        return QTest::qWaitFor([&] { return !session().debugger()->openDebuggers().isEmpty(); }, 20000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_live = std::make_unique<LiveSession>();
        QVERIFY2(m_live->engine.isReady(), "the engine did not start");
        m_live->tools.add(jobTool(&m_live->session, &m_live->jobs));
        m_live->tools.add(invokeRestartTool(&m_live->session, &m_live->jobs));
        session().debugger()->setDebugDefaults(true, false); // as the app's settings have it by default
        m_window = m_live->showWindow(QSize(1400, 860));
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
        m_live->access.setMode(AccessMode::Allow);
        for (const DebuggerPtr &d : session().debugger()->openDebuggers())
            session().debugger()->invokeRestart(d->id, QStringLiteral("ABORT"), {}, Origin::person());
        QVERIFY(QTest::qWaitFor([&] { return session().debugger()->openDebuggers().isEmpty() && !session().current(); }, 20000));
    }

    // Before: the row said "goes on as a job" for good, after the job had ended.
    void aCallHandedOffAsAJobFollowsItToItsEnd()
    {
        const QJsonObject running = m_agent->response(m_agent->callTool(QStringLiteral("evaluate-lisp"),
                                                                         {{"code", "(progn (sleep 1.5) :slept)"}, {"wait_seconds", 0.2}}));
        QCOMPARE(structured(running).value("status").toString(), QStringLiteral("running"));
        QCOMPARE(stateOf(QStringLiteral("evaluate-lisp")), QStringLiteral("goes on as a job"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("evaluate-lisp")), QStringLiteral("ended: done"), 10000);
    }

    // Before: "parked" stayed after the person had answered the debugger.
    void aParkedCallFollowsTheChoiceAndTheEnd()
    {
        const QJsonObject parked = m_agent->response(m_agent->callTool(QStringLiteral("evaluate-lisp"),
                                                                        {{"code", "(error \"bad record\")"}, {"debug", true}}));
        QCOMPARE(structured(parked).value("status").toString(), QStringLiteral("parked"));
        QCOMPARE(stateOf(QStringLiteral("evaluate-lisp")), QStringLiteral("parked"));
        QVERIFY(waitParked());
        QVERIFY(panel()->chooseRestart(panel()->shown()->restarts.size() - 1)); // ABORT, the last one
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(QStringLiteral("evaluate-lisp")).startsWith(QStringLiteral("ended: SIMPLE-ERROR")), 10000);
        const QString tip = log()->index(log()->rowCount() - 1, ToolCallLog::StateColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.startsWith(QStringLiteral("parked \u2192 ")), qPrintable(tip));
    }

    // Before: the answer said only "The evaluation was interrupted", and the agent's digest
    // never said who did it.
    void thePersonsInterruptOfAnAgentsJobIsInItsAnswerItsRowAndItsDigest()
    {
        const QJsonObject running = m_agent->response(m_agent->callTool(QStringLiteral("evaluate-lisp"),
                                                                         {{"code", "(sleep 20)"}, {"wait_seconds", 0.3}, {"description", "a long nap"}}));
        const qint64 jobId = qint64(structured(running).value("job_id").toDouble());
        QVERIFY(jobId > 0);
        QVERIFY2(AgentClient::resultText(running).contains(QStringLiteral("Its time limit stops it after 300 s of running")),
                 qPrintable(AgentClient::resultText(running)));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->console()->runningJobBar()->isVisible(), 5000);
        QVERIFY2(m_window->console()->runningJobBar()->elapsedText().endsWith(QStringLiteral(" \u00b7 limit 5:00")),
                 qPrintable(m_window->console()->runningJobBar()->elapsedText()));
        m_window->console()->interrupt();
        QVERIFY(QTest::qWaitFor([&] { return !session().current(); }, 10000));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("evaluate-lisp")), QStringLiteral("ended: INTERRUPTED by the person"), 5000);
        // Another call of the agent tells it; the job's own answer says it too (and its digest
        // does not repeat it).
        const QJsonObject next = m_agent->response(m_agent->evaluate(QStringLiteral("(+ 1 2)")));
        QVERIFY2(allText(next).contains(QStringLiteral("- claude-code at ")), qPrintable(allText(next)));
        QVERIFY2(allText(next).contains(QStringLiteral(" (a long nap): (sleep 20) [INTERRUPTED] The person interrupted the evaluation at ")), qPrintable(allText(next)));
        const QJsonObject fetched = m_agent->response(m_agent->callTool(QStringLiteral("job"), {{"job_id", jobId}}));
        QVERIFY2(AgentClient::resultText(fetched).startsWith(QStringLiteral("[ERROR] INTERRUPTED\nThe person interrupted the evaluation at ")),
                 qPrintable(AgentClient::resultText(fetched)));
        QVERIFY(!allText(fetched).contains(QStringLiteral("[Session activity")));
    }

    // Before: "Interrupting You's evaluation…", and it stayed once the break had parked.
    void theInterruptHintSaysWhoseAndEndsWhenTheBreakParks()
    {
        m_window->console()->evaluate(QStringLiteral("(loop)"));
        QVERIFY(QTest::qWaitFor([&] { return bool(session().current()); }, 5000));
        QTest::qWait(200);
        m_window->console()->interrupt();
        QCOMPARE(m_window->console()->hintText(), QStringLiteral("Interrupting your evaluation\u2026"));
        QVERIFY(waitParked());
        QTRY_COMPARE(m_window->console()->hintText(), QString());
    }

    // Before: the table stayed where it was while calls came in, and a long state squeezed
    // the Arguments column to a sliver.
    void theTableFollowsNewCallsAndKeepsTheArgumentsReadable()
    {
        QTableView *table = m_window->toolCallsPanel()->table();
        table->clearSelection();
        table->setCurrentIndex({});
        for (int i = 0; i < 30; ++i)
            m_agent->response(m_agent->evaluate(QStringLiteral("(+ %1 1)").arg(i), QStringLiteral("counting")));
        const QModelIndex newest = log()->index(log()->rowCount() - 1, 0);
        QTRY_VERIFY(table->viewport()->rect().contains(table->visualRect(newest).center()));
        QTRY_VERIFY2(table->horizontalHeader()->sectionSize(ToolCallLog::ArgumentsColumn) >= 160,
                     qPrintable(QString::number(table->horizontalHeader()->sectionSize(ToolCallLog::ArgumentsColumn))));
        // A narrow dock too: the short columns give way, never the arguments.
        m_window->resize(900, 700);
        QTRY_VERIFY(table->horizontalHeader()->sectionSize(ToolCallLog::ArgumentsColumn) >= 160);
        // ... and how each call stands stays in view: the state comes before the arguments.
        const QHeaderView *header = table->horizontalHeader();
        QVERIFY(header->visualIndex(ToolCallLog::StateColumn) < header->visualIndex(ToolCallLog::ArgumentsColumn));
        m_window->resize(1400, 860);
    }

    // Before: the pane showed the raw JSON-RPC request and response only.
    void theDetailPaneSaysWhoWhyAndTheAnswer()
    {
        m_agent->response(m_agent->evaluate(QStringLiteral("(* 6 7)"), QStringLiteral("check the arithmetic")));
        QTableView *table = m_window->toolCallsPanel()->table();
        table->selectRow(log()->rowCount() - 1);
        const QString details = m_window->toolCallsPanel()->detailText();
        QVERIFY2(details.startsWith(QStringLiteral("claude-code \u00b7 evaluate-lisp \u00b7 ")), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("\nWhy: check the arithmetic\nState: done (job ")), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("), answered after ")), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("Arguments:\n  code: (* 6 7)\n\nAnswer:\n=> 42")), qPrintable(details));
        QVERIFY(details.contains(QStringLiteral("// Response"))); // the JSON-RPC follows, for who wants it
    }

    // Before: "Debugger 6 … chose ABORT" stayed under the next debugger; the dock kept the
    // width the debugger had taken; expanding a frame left the selection where it was; a
    // restart without a report read "USE-VALUE — USE-VALUE".
    void theDebuggerPanelSaysOnlyWhatHoldsAndGivesTheWidthBack()
    {
        auto *definitions = m_window->findChild<QDockWidget *>(QStringLiteral("definitionsDock"));
        QVERIFY(definitions);
        const int widthBefore = definitions->width();
        m_window->console()->evaluate(QStringLiteral("(defun deep (n) (if (= n 0) (restart-case (error \"at the bottom\") (use-value (v) v) "
                                                     "(store-value (v) :report \"Store a long value for this record in the place it "
                                                     "came from, which is a very long report indeed\" v)) (+ 1 (deep (- n 1)))))\n(deep 3)"));
        QVERIFY(waitParked());
        QVERIFY2(panel()->restartTexts().contains(QStringLiteral("0   USE-VALUE")), qPrintable(panel()->restartTexts().join('|')));
        auto *frames = panel()->findChild<QTreeWidget *>(QStringLiteral("debuggerFrames"));
        QVERIFY(frames && frames->topLevelItemCount() > 2);
        panel()->expandFrame(2);
        QCOMPARE(panel()->selectedFrame(), 2);
        QVERIFY(panel()->chooseRestart(panel()->shown()->restarts.size() - 1));
        QTRY_VERIFY(session().debugger()->openDebuggers().isEmpty());
        QTRY_VERIFY2(panel()->notice().contains(QStringLiteral("you chose ABORT")), qPrintable(panel()->notice()));
        QTRY_VERIFY2(qAbs(definitions->width() - widthBefore) <= 8, qPrintable(QStringLiteral("%1 then %2").arg(widthBefore).arg(definitions->width())));
        m_window->console()->evaluate(QStringLiteral("(error \"another one\")"));
        QVERIFY(waitParked());
        QCOMPARE(panel()->notice(), QString());
    }

    // Before: a denial took no reason and left no line; a Read-only refusal left none either.
    void refusalsAndDenialsLeaveALineAndTheReasonReachesTheAgent()
    {
        m_live->access.setMode(AccessMode::ReadOnly);
        const QJsonObject refused = m_agent->response(m_agent->evaluate(QStringLiteral("(+ 1 1)"), QStringLiteral("just adding")));
        QVERIFY(AgentClient::isError(refused));
        QTRY_VERIFY2(transcript().contains(QStringLiteral("; claude-code's evaluate-lisp was refused: agent access is Read-only \u2014 just adding: (+ 1 1)")),
                     qPrintable(transcript().right(400)));

        m_live->access.setMode(AccessMode::Ask);
        const int call = m_agent->evaluate(QStringLiteral("(delete-everything)"), QStringLiteral("tidy up"));
        ApprovalBar *bar = m_window->console()->approvalBar();
        QTRY_VERIFY(bar->isVisible());
        QTest::keyClicks(bar->reasonEdit(), QStringLiteral("not on my data"));
        QTest::mouseClick(bar->denyButton(), Qt::LeftButton);
        const QJsonObject denied = m_agent->response(call);
        QVERIFY(AgentClient::isError(denied));
        QVERIFY2(AgentClient::resultText(denied).endsWith(QStringLiteral(" They said: \u201cnot on my data\u201d.")), qPrintable(AgentClient::resultText(denied)));
        QTRY_VERIFY2(transcript().contains(QStringLiteral("; You denied claude-code's evaluate-lisp \u2014 tidy up: (delete-everything) (your reason: \u201cnot on my data\u201d)")),
                     qPrintable(transcript().right(400)));
        QVERIFY(bar->reasonEdit()->text().isEmpty());
    }

    // Before: a client that had gone stayed in the status bar.
    void aClientThatLeavesIsDroppedWithTheTimeItLeft()
    {
        auto other = std::make_unique<AgentClient>(&m_live->server, QStringLiteral("tool-lister"));
        QTRY_VERIFY2(m_window->clientsText().contains(QStringLiteral("tool-lister")), qPrintable(m_window->clientsText()));
        m_live->server.closePeer(other->peer());
        QTRY_COMPARE(m_window->clientsText(), QStringLiteral("Clients: claude-code"));
        auto *label = m_window->findChild<QLabel *>(QStringLiteral("clientsLabel"));
        QVERIFY(label);
        QVERIFY2(label->toolTip().contains(QStringLiteral("tool-lister (test) left at ")), qPrintable(label->toolTip()));
        // One that went away without closing (its transport says so) is dropped too, and
        // comes back with its next request.
        m_live->server.presence()->setPresent(m_agent->peer(), false);
        QTRY_COMPARE(m_window->clientsText(), QStringLiteral("No clients"));
        m_live->server.presence()->setPresent(m_agent->peer(), true);
        QTRY_COMPARE(m_window->clientsText(), QStringLiteral("Clients: claude-code"));
    }

    // Before: "Agent access: Ask. Each evaluation and each file change by an agent waits until
    // you appr" — the endpoints took the status bar's room.
    void theStatusBarSaysTheAccessModeWhole()
    {
        m_window->setEndpoints({QStringLiteral("http://127.0.0.1:7878/mcp"), QStringLiteral("/run/user/1000/lisp-duet")});
        m_window->resize(1280, 800);
        QTest::qWait(100);
        for (AccessMode mode : {AccessMode::Ask, AccessMode::ReadOnly, AccessMode::Paused, AccessMode::Allow}) {
            m_live->access.setMode(mode);
            QStatusBar *bar = m_window->statusBar();
            const QString message = bar->currentMessage();
            QVERIFY2(message.startsWith(QStringLiteral("Agent access: ")), qPrintable(message));
            QApplication::processEvents();
            int permanent = 0;
            for (QLabel *label : bar->findChildren<QLabel *>(QString(), Qt::FindDirectChildrenOnly)) {
                if (label->isVisible())
                    permanent += label->width();
            }
            const int room = bar->width() - permanent - 24;
            QVERIFY2(bar->fontMetrics().horizontalAdvance(message) <= room,
                     qPrintable(QStringLiteral("%1 px of message, %2 px of room: %3").arg(bar->fontMetrics().horizontalAdvance(message)).arg(room).arg(message)));
        }
        m_window->resize(1400, 860);
    }

    // Before: "error" and "goes on as a job" were dark red and dark blue on the dark theme's
    // dark rows.
    void statesKeepReadableColoursOnADarkTheme()
    {
        const QPalette light = QApplication::palette();
        QPalette dark = light;
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
        QApplication::setPalette(dark);
        m_agent->response(m_agent->evaluate(QStringLiteral("(error \"on purpose\")")));
        int row = log()->rowCount() - 1;
        QCOMPARE(log()->index(row, ToolCallLog::StateColumn).data().toString(), QStringLiteral("error"));
        const QColor onDark = log()->index(row, ToolCallLog::StateColumn).data(Qt::ForegroundRole).value<QBrush>().color();
        QVERIFY2(onDark.lightness() > 150, qPrintable(onDark.name()));
        QApplication::setPalette(light);
        const QColor onLight = log()->index(row, ToolCallLog::StateColumn).data(Qt::ForegroundRole).value<QBrush>().color();
        QVERIFY2(onLight.lightness() < 110, qPrintable(onLight.name()));
    }
};

QTEST_MAIN(TestCurrentStates)
#include "tst_currentstates.moc"

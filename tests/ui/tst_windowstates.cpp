// The main window in the states people see most, driven by the person's keys and an agent's
// MCP calls: idle after both worked, an agent call awaiting approval (with code, and without:
// run-tests), presentation mode.
// Each test function starts from a fresh engine, window and agent (init/cleanup) and builds
// what it shows itself, so any one runs alone: `tst_windowstates presentationMode`.
// With DUET_SCREENSHOT_DIR set (tests/ui/screenshots.sh does, under Xvfb), each state is saved
// as a PNG there for a person to look at.

#include "UiTestSupport.h"

#include "access/AccessGate.h"
#include "access/ApprovalBar.h"
#include "console/ConsoleWidget.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "definitions/DefinitionsModel.h"
#include "definitions/DefinitionsPanel.h"
#include "toolcalls/ToolCallLog.h"
#include "toolcalls/ToolCallsPanel.h"
#include "window/MainWindow.h"

#include <QDir>
#include <QDockWidget>
#include <QFontInfo>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>

class TestWindowStates : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<AgentClient> m_agent;

    void personTypes(const QString &code)
    {
        ConsoleWidget *input = m_window->console()->input();
        input->setFocus();
        // Line by line, as a person types: Enter on an incomplete form opens an indented line.
        const QStringList lines = code.split(u'\n');
        for (const QString &line : lines) {
            QTest::keyClicks(input, line);
            QTest::keyClick(input, Qt::Key_Return);
        }
        QVERIFY(QTest::qWaitFor([&] { return !m_live->session.current() && m_live->session.queuedCount() == 0; }, 15000));
    }
    void agentRuns(const QString &code, const QString &description)
    {
        QVERIFY(!m_agent->response(m_agent->evaluate(code, description)).isEmpty());
    }
    void settle()
    {
        QTest::qWait(400); // the transcript's batch timer and the definitions refresh
        m_window->console()->transcript()->flushNow();
        QApplication::processEvents();
    }
    void defineFact()
    {
        personTypes(QStringLiteral("(defun fact (n)\n\"The factorial of N.\"\n(if (< n 2) 1 (* n (fact (1- n)))))"));
    }
    QDockWidget *dock(const char *name) const
    {
        return m_window->findChild<QDockWidget *>(QLatin1String(name));
    }
    // The toolbar button a person clicks, found by the text it shows.
    QToolButton *toolbarButton(const QString &text) const
    {
        auto *toolbar = m_window->findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        for (QAction *action : toolbar->actions()) {
            if (action->iconText() == text)
                return qobject_cast<QToolButton *>(toolbar->widgetForAction(action));
        }
        return nullptr;
    }
    void save(const QString &name)
    {
        const QString dir = qEnvironmentVariable("DUET_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        QDir().mkpath(dir);
        QTest::qWait(100); // pending layout requests (a label that grew) before the picture
        const QString path = QDir(dir).filePath(name);
        QVERIFY2(m_window->grab().save(path), qPrintable(path));
        qInfo("saved %s", qPrintable(path));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
    }

    // A fresh engine, session, window and agent for each function: nothing carries over.
    void init()
    {
        QFile::remove(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/history.jsonl"));
        m_live = std::make_unique<LiveSession>();
        QVERIFY2(m_live->engine.isReady(), "the engine did not start");
        m_window = std::make_unique<MainWindow>(&m_live->session, &m_live->server, &m_live->access);
        m_live->furnish(m_window.get());
        m_window->setDefinitionLedger(&m_live->ledger);
        m_window->setEndpoints({QStringLiteral("http://127.0.0.1:7878/mcp")});
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_agent = std::make_unique<AgentClient>(&m_live->server, QStringLiteral("claude-code"));
    }

    void cleanup()
    {
        m_agent.reset();
        m_window.reset();
        m_live.reset();
    }

    void idleAfterBothSidesEvaluated()
    {
        defineFact();
        personTypes(QStringLiteral("(fact 20)"));
        agentRuns(QStringLiteral("(loop for i from 1 to 6 collect (fact i))"), QStringLiteral("checking the factorial"));
        agentRuns(QStringLiteral("(defparameter *greeting* \"Hello from the agent\")\n(format t \"~a~%\" *greeting*)"),
                  QStringLiteral("leaving a note"));
        personTypes(QStringLiteral("(fact 'ten)"));
        agentRuns(QStringLiteral("(defstruct point x y)\n(make-point :x 1 :y 2)"), QStringLiteral("a small structure"));
        personTypes(QStringLiteral("(values (fact 5) *greeting*)"));
        QTest::keyClicks(m_window->console()->input(), QStringLiteral("(mapcar #'fact "));
        QVERIFY(QTest::qWaitFor([&] { return m_window->console()->hintText().startsWith(QStringLiteral("(mapcar")); }, 5000));
        settle();
        QVERIFY(QTest::qWaitFor([&] { return m_window->definitions()->engineHasDefinitions(); }, 5000));
        QVERIFY(m_window->definitions()->definitionCount() >= 3);
        // Show the details a person would click for: fact's documentation and form, a call's JSON.
        DefinitionsPanel *panel = m_window->definitionsPanel();
        const QModelIndex fact = panel->proxy()->mapFromSource(m_window->definitions()->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("FACT")));
        QVERIFY(fact.isValid());
        panel->tree()->setCurrentIndex(fact);
        QVERIFY(panel->detailText().contains(QStringLiteral("Defined by <b>You</b>")));
        QVERIFY(panel->detailText().contains(QStringLiteral("The factorial of N.\n(defun fact"))); // the engine's documentation, then the form
        m_window->toolCallsPanel()->table()->selectRow(1);
        QCOMPARE(m_window->engineStateText(), QStringLiteral("Engine: idle"));
        const QString text = m_window->console()->transcript()->toPlainText();
        QVERIFY(text.contains(QStringLiteral("=> 2432902008176640000")));
        QVERIFY(text.contains(QStringLiteral("claude-code \u2014 checking the factorial")));
        QVERIFY(text.contains(QStringLiteral("[ERROR]")));
        save(QStringLiteral("1-idle.png"));
        m_window->console()->input()->clear();
    }

    void anAgentCallAwaitingApproval()
    {
        defineFact();
        m_window->access()->setMode(AccessMode::Ask);
        m_agent->evaluate(QStringLiteral("(defun fact (n)\n  \"Iterative, so big N do not grow the stack.\"\n  (loop with r = 1\n        for i from 2 to n\n        do (setf r (* r i))\n        finally (return r)))"),
                          QStringLiteral("rewriting fact without recursion"));
        m_agent->evaluate(QStringLiteral("(fact 25)"), QStringLiteral("trying a larger factorial"));
        QVERIFY(QTest::qWaitFor([&] { return m_window->console()->approvalBar()->isVisible(); }, 3000));
        QCOMPARE(m_window->access()->pending().size(), 2);
        QCOMPARE(m_window->toolCallLog()->entry(m_window->toolCallLog()->rowCount() - 1).state(), ToolCallLog::State::AwaitingApproval);
        settle();
        save(QStringLiteral("2-awaiting-approval.png"));
        m_window->access()->approve();
        m_window->access()->approve();
        m_window->access()->setMode(AccessMode::Allow);
        QVERIFY(QTest::qWaitFor([&] { return !m_live->session.current() && m_live->session.queuedCount() == 0; }, 15000));
    }

    // A call without code waits with a sentence of what it will do; the Tool calls panel shows
    // how long the calls before it waited for the person apart from how long they ran.
    void anAgentCallWithoutCodeAwaitingApproval()
    {
        m_live->tools.add(runTestsTool(&m_live->session, &m_live->jobs));
        m_window->access()->setMode(AccessMode::Ask);
        const int first = m_agent->evaluate(QStringLiteral("(+ 1 2)"), QStringLiteral("a warm-up"));
        QVERIFY(QTest::qWaitFor([&] { return m_window->console()->approvalBar()->isVisible(); }, 3000));
        QTest::qWait(1200); // the person reads it
        m_window->access()->approve();
        QVERIFY(!m_agent->response(first).isEmpty());
        m_agent->callTool(QStringLiteral("run-tests"), {{"system", "shapes"}, {"description", "checking the fix"}});
        QVERIFY(QTest::qWaitFor([&] { return m_window->console()->approvalBar()->isVisible(); }, 3000));
        QCOMPARE(m_window->console()->approvalBar()->summary(), QStringLiteral("It will run the tests of system shapes."));
        ToolCallLog *log = m_window->toolCallLog();
        QVERIFY(log->index(log->rowCount() - 2, ToolCallLog::DurationColumn).data().toString().contains(QStringLiteral("waited 1.")));
        settle();
        save(QStringLiteral("4-awaiting-approval-without-code.png"));
        m_window->access()->deny();
        m_window->access()->setMode(AccessMode::Allow);
    }

    // What a person sees: the code twice as large, the side panels gone and the console in
    // their place; and everything back as it was when they leave it.
    void presentationMode()
    {
        defineFact();
        settle();
        ConsoleWidget *input = m_window->console()->input();
        TranscriptView *transcript = m_window->console()->transcript();
        const double points = input->font().pointSizeF();
        const int pixels = QFontInfo(input->font()).pixelSize(); // as drawn: whole pixels
        const int lineHeight = input->fontMetrics().height();
        const int consoleWidth = m_window->console()->width();
        QVERIFY(dock("definitionsDock")->isVisible());
        QVERIFY(dock("toolCallsDock")->isVisible());
        QToolButton *present = toolbarButton(QStringLiteral("Present"));
        QVERIFY(present);

        QTest::mouseClick(present, Qt::LeftButton);
        personTypes(QStringLiteral("(fact 10)"));
        settle();
        // Zoom 2: twice the point size, and drawn twice as large, to the pixel.
        QCOMPARE(input->font().pointSizeF(), 2 * points);
        QCOMPARE(transcript->font().pointSizeF(), 2 * points);
        QVERIFY2(qAbs(QFontInfo(input->font()).pixelSize() - 2 * pixels) <= 1,
                 qPrintable(QStringLiteral("%1 px -> %2 px").arg(pixels).arg(QFontInfo(input->font()).pixelSize())));
        QCOMPARE(QFontInfo(transcript->font()).pixelSize(), QFontInfo(input->font()).pixelSize());
        QVERIFY2(input->fontMetrics().height() >= 2 * lineHeight - 2,
                 qPrintable(QStringLiteral("%1 -> %2").arg(lineHeight).arg(input->fontMetrics().height())));
        QVERIFY(!dock("definitionsDock")->isVisible());
        QVERIFY(!dock("toolCallsDock")->isVisible());
        QVERIFY2(m_window->console()->width() > consoleWidth,
                 qPrintable(QStringLiteral("%1 -> %2").arg(consoleWidth).arg(m_window->console()->width())));
        QVERIFY(transcript->toPlainText().contains(QStringLiteral("=> 3628800")));
        save(QStringLiteral("3-presentation.png"));

        QTest::mouseClick(present, Qt::LeftButton);
        settle();
        QCOMPARE(input->font().pointSizeF(), points);
        QCOMPARE(QFontInfo(transcript->font()).pixelSize(), pixels);
        QCOMPARE(input->fontMetrics().height(), lineHeight);
        QVERIFY(dock("definitionsDock")->isVisible());
        QVERIFY(dock("toolCallsDock")->isVisible());
        QCOMPARE(m_window->console()->width(), consoleWidth);
    }
};

QTEST_MAIN(TestWindowStates)
#include "tst_windowstates.moc"

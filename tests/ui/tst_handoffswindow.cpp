// The window's side of the hand-offs (issue 21), offscreen, with the real engine and the real
// MCP tools through McpServer: a staged form in the person's REPL input (run with Enter,
// edited, rejected with Esc and a reason, several queued, the person's own unfinished input
// restored, refused while the window is hidden), the Tool calls panel's "waiting for the
// person", and the Definitions panel's history, changes and Revert as the person. The same
// through the official SDK client: tests/app/tst_handoffs.
//
// With DUET_SCREENSHOT_DIR set (tests/ui/screenshots.sh), staging-bar.png and
// definition-history.png are saved there.

#include "UiTestSupport.h"

#include "console/ConsoleWidget.h"
#include "console/LispConsole.h"
#include "console/StagedForms.h"
#include "console/StagingBar.h"
#include "console/TranscriptView.h"
#include "definitions/DefinitionsModel.h"
#include "definitions/DefinitionsPanel.h"
#include "toolcalls/ToolCallLog.h"
#include "tools/FormStager.h"
#include "tools/HandoffTools.h"
#include "tools/ToolSet.h"
#include "window/MainWindow.h"

#include <QDir>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>

class TestHandoffsWindow : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<FormStaging> m_staging;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<AgentClient> m_agent;

    ConsoleWidget *input() const { return m_window->console()->input(); }
    StagingBar *bar() const { return m_window->console()->stagingBar(); }
    QString transcript() const
    {
        m_window->console()->transcript()->flushNow();
        return m_window->console()->transcript()->toPlainText();
    }
    int stage(const QString &code, const QString &description = QString())
    {
        QJsonObject arguments{{"code", code}};
        if (!description.isEmpty())
            arguments.insert("description", description);
        return m_agent->callTool(QStringLiteral("stage-form"), arguments);
    }
    bool waitForInput(const QString &text)
    {
        return QTest::qWaitFor([&] { return input()->toPlainText() == text; }, 5000);
    }
    QString toolCallState(const QString &tool) const
    {
        const ToolCallLog *log = m_window->toolCallLog();
        for (int row = log->rowCount() - 1; row >= 0; --row) {
            if (log->entry(row).tool() == tool)
                return log->data(log->index(row, ToolCallLog::StateColumn)).toString();
        }
        return {};
    }
    void personTypes(const QString &text)
    {
        input()->setFocus();
        QTest::keyClicks(input(), text);
    }
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
        m_staging = std::make_unique<FormStaging>();
        addHandoffTools(&m_live->tools, &m_live->session, &m_live->jobs, &m_live->ledger, m_staging.get(), &m_live->rooms.native);
        m_window = std::make_unique<MainWindow>(&m_live->session, &m_live->server, &m_live->access);
        m_live->furnish(m_window.get());
        m_window->setDefinitionLedger(&m_live->ledger);
        m_staging->setStager(m_window->console()->stagedForms());
        m_window->resize(1200, 780);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        // Keyboard focus moves only in the active window (under Xvfb nothing activates it).
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        m_agent = std::make_unique<AgentClient>(&m_live->server, QStringLiteral("claude-code"));
    }

    void cleanupTestCase()
    {
        m_agent.reset();
        m_window.reset();
        m_staging.reset();
        m_live.reset();
    }

    void aStagedFormRunsWithEnterAndThePersonsOwnInputComesBack()
    {
        personTypes(QStringLiteral("(list 1 2"));
        QVERIFY(!bar()->isVisible());
        const int call = stage(QStringLiteral("(* 6 7)"), QStringLiteral("check the arithmetic"));
        QVERIFY(waitForInput(QStringLiteral("(* 6 7)")));
        QVERIFY(bar()->isVisible());
        QCOMPARE(bar()->headline(), QStringLiteral("<b>claude-code</b> staged this form for you \u2014 check the arithmetic"));
        QCOMPARE(bar()->countText(), QString());
        QVERIFY2(bar()->hint().endsWith(QStringLiteral("what you were typing comes back afterwards")), qPrintable(bar()->hint()));
        QCOMPARE(toolCallState(QStringLiteral("stage-form")), QStringLiteral("waiting for the person"));
        QTest::qWait(100);
        QVERIFY(m_agent->response(call, 0).isEmpty()); // nothing is answered before the person acts
        saveScreenshot(QStringLiteral("staging-bar.png"));

        QTest::keyClick(input(), Qt::Key_Return);
        const QJsonObject response = m_agent->response(call);
        QCOMPARE(AgentClient::resultText(response), QStringLiteral("ran: the person ran the form as staged.\n\n=> 42"));
        QCOMPARE(input()->toPlainText(), QStringLiteral("(list 1 2"));
        QCOMPARE(input()->textCursor().position(), 9);
        QVERIFY(!bar()->isVisible());
        const QString text = transcript();
        QVERIFY2(text.contains(QStringLiteral("; staged by claude-code: check the arithmetic\nCL-USER> (* 6 7)")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("=> 42")));
        QCOMPARE(toolCallState(QStringLiteral("stage-form")), QStringLiteral("done"));
        input()->clear();
    }

    void anEditedFormReturnsTheTextThatRan()
    {
        const int call = stage(QStringLiteral("(+ 1 1)"));
        QVERIFY(waitForInput(QStringLiteral("(+ 1 1)")));
        QTest::keyClick(input(), Qt::Key_Backspace);
        QTest::keyClicks(input(), QStringLiteral(" 40)"));
        QTest::keyClick(input(), Qt::Key_Return);
        QCOMPARE(AgentClient::resultText(m_agent->response(call)),
                 QStringLiteral("edited: the person changed the form, then ran it:\n(+ 1 1 40)\n\n=> 42"));
        QCOMPARE(input()->toPlainText(), QString());
    }

    void escapeAsksForAReasonAndRejects()
    {
        personTypes(QStringLiteral("(my own"));
        const int call = stage(QStringLiteral("(delete-file \"notes.txt\")"), QStringLiteral("tidy up"));
        QVERIFY(waitForInput(QStringLiteral("(delete-file \"notes.txt\")")));
        QTest::keyClick(input(), Qt::Key_Escape);
        QVERIFY(bar()->isRejecting());
        QVERIFY(bar()->reasonEdit()->hasFocus());
        // Esc in the reason goes back to the form; Esc again asks again.
        QTest::keyClick(bar()->reasonEdit(), Qt::Key_Escape);
        QVERIFY(!bar()->isRejecting());
        QVERIFY(input()->hasFocus());
        QTest::keyClick(input(), Qt::Key_Escape);
        QTest::keyClicks(bar()->reasonEdit(), QStringLiteral("I keep my notes"));
        QTest::keyClick(bar()->reasonEdit(), Qt::Key_Return);
        QCOMPARE(AgentClient::resultText(m_agent->response(call)),
                 QStringLiteral("rejected: the person rejected the form: \u201cI keep my notes\u201d. It did not run."));
        QCOMPARE(input()->toPlainText(), QStringLiteral("(my own"));
        QVERIFY(transcript().contains(QStringLiteral("; You rejected a form claude-code staged (I keep my notes):\n(delete-file \"notes.txt\")")));
        // Reject… with no reason.
        const int bare = stage(QStringLiteral("(launch)"));
        QVERIFY(waitForInput(QStringLiteral("(launch)")));
        QTest::mouseClick(bar()->rejectButton(), Qt::LeftButton);
        QTest::mouseClick(bar()->rejectButton(), Qt::LeftButton);
        QCOMPARE(AgentClient::resultText(m_agent->response(bare)),
                 QStringLiteral("rejected: the person rejected the form without giving a reason. It did not run."));
        QCOMPARE(input()->toPlainText(), QStringLiteral("(my own"));
        input()->clear();
    }

    void severalStagedFormsQueueAndThePersonSeesHowManyWait()
    {
        personTypes(QStringLiteral("(half"));
        const int first = stage(QStringLiteral("(+ 1 2)"), QStringLiteral("first"));
        const int second = stage(QStringLiteral("(+ 3 4)"), QStringLiteral("second"));
        const int third = stage(QStringLiteral("(+ 5 6)"), QStringLiteral("third"));
        QVERIFY(waitForInput(QStringLiteral("(+ 1 2)")));
        QVERIFY(QTest::qWaitFor([&] { return bar()->countText() == QStringLiteral("2 more wait"); }, 5000));
        QTest::keyClick(input(), Qt::Key_Return);
        QVERIFY(waitForInput(QStringLiteral("(+ 3 4)")));
        QCOMPARE(bar()->countText(), QStringLiteral("1 more waits"));
        QVERIFY(bar()->headline().contains(QStringLiteral("second")));
        QTest::keyClick(input(), Qt::Key_Return);
        QVERIFY(waitForInput(QStringLiteral("(+ 5 6)")));
        QCOMPARE(bar()->countText(), QString());
        QTest::keyClick(input(), Qt::Key_Return);
        QCOMPARE(AgentClient::resultText(m_agent->response(first)), QStringLiteral("ran: the person ran the form as staged.\n\n=> 3"));
        QCOMPARE(AgentClient::resultText(m_agent->response(second)), QStringLiteral("ran: the person ran the form as staged.\n\n=> 7"));
        QCOMPARE(AgentClient::resultText(m_agent->response(third)), QStringLiteral("ran: the person ran the form as staged.\n\n=> 11"));
        QCOMPARE(input()->toPlainText(), QStringLiteral("(half"));
        input()->clear();
    }

    void aCancelledCallTakesItsFormOutOfTheInput()
    {
        personTypes(QStringLiteral("(mine"));
        const int call = stage(QStringLiteral("(never-run)"));
        QVERIFY(waitForInput(QStringLiteral("(never-run)")));
        m_agent->send(QJsonObject{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", QJsonObject{{"requestId", call}}}});
        QVERIFY(waitForInput(QStringLiteral("(mine")));
        QVERIFY(!bar()->isVisible());
        input()->clear();
    }

    void aHiddenWindowRefusesToStage()
    {
        m_window->hide();
        const QJsonObject refused = m_agent->response(stage(QStringLiteral("(+ 1 2)")));
        QVERIFY(AgentClient::isError(refused));
        QCOMPARE(AgentClient::resultText(refused),
                 QStringLiteral("The Lisp Duet window is hidden (Lisp Duet runs in the tray), so nobody sees a staged form; nothing was "
                                "staged. Run the code with evaluate-lisp instead, or ask the person to open the window."));
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    }

    void thePersonRevertsAnAgentsRedefinitionFromTheDefinitionsPanel()
    {
        personTypes(QStringLiteral("(defun greet (name) (format nil \"Hello, ~A\" name))"));
        QTest::keyClick(input(), Qt::Key_Return);
        QVERIFY(QTest::qWaitFor([&] { return transcript().contains(QStringLiteral("=> GREET")); }, 10000));
        const int redefined = m_agent->evaluate(QStringLiteral("(defun greet (name)\n  (format nil \"Hi, ~A!\" name))"), QStringLiteral("friendlier"));
        QVERIFY(!AgentClient::isError(m_agent->response(redefined)));

        DefinitionsModel *model = m_window->definitions();
        DefinitionsPanel *panel = m_window->definitionsPanel();
        QTRY_VERIFY_WITH_TIMEOUT(model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("GREET")).isValid()
                                     && model->definition(model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("GREET")))->versions == 2,
                                 10000);
        const DefinitionsModel::Definition *greet = model->definition(model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("GREET")));
        QCOMPARE(greet->definedBy, QStringLiteral("claude-code"));
        QVERIFY(panel->select(greet->key));
        QTreeWidget *history = panel->history();
        QCOMPARE(history->topLevelItemCount(), 2);
        QCOMPARE(history->topLevelItem(0)->text(0), QStringLiteral("v2 (now)"));
        QCOMPARE(history->topLevelItem(0)->text(1), QStringLiteral("claude-code"));
        QCOMPARE(history->topLevelItem(1)->text(1), QStringLiteral("You"));
        QVERIFY(!panel->revertButton()->isEnabled()); // v2 is what the session has
        panel->changesButton()->click();
        QCOMPARE(panel->shownText(), QStringLiteral("--- version 1\n+++ version 2\n@@ -1 +1,2 @@\n-(defun greet (name) (format nil \"Hello, ~A\" name))\n"
                                                    "+(defun greet (name)\n+  (format nil \"Hi, ~A!\" name))"));
        history->setCurrentItem(history->topLevelItem(1));
        QVERIFY(panel->revertButton()->isEnabled());
        QCOMPARE(panel->revertButton()->text(), QStringLiteral("Revert to v1"));
        saveScreenshot(QStringLiteral("definition-history.png"));

        QTest::mouseClick(panel->revertButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return transcript().contains(QStringLiteral("; revert COMMON-LISP-USER::GREET to version 1")); }, 10000));
        QTRY_COMPARE_WITH_TIMEOUT(history->topLevelItemCount(), 3, 10000);
        QCOMPARE(history->topLevelItem(0)->text(0), QStringLiteral("v3 (now)"));
        QCOMPARE(history->topLevelItem(0)->text(1), QStringLiteral("You (revert to version 1)"));
        // The image has the person's version again, and the agent's digest names the revert.
        const QJsonObject check = m_agent->response(m_agent->evaluate(QStringLiteral("(greet \"Ann\")")));
        QCOMPARE(AgentClient::resultText(check), QStringLiteral("=> \"Hello, Ann\""));
        const QString digest = check.value("result").toObject().value("content").toArray().at(1).toObject().value("text").toString();
        QVERIFY2(digest.contains(QStringLiteral("(revert COMMON-LISP-USER::GREET to version 1): (defun greet (name)")), qPrintable(digest));
    }
};

QTEST_MAIN(TestHandoffsWindow)
#include "tst_handoffswindow.moc"

// Agents in the window: an MCP client's calls through the real McpServer show in the
// transcript, the tool calls panel and the definitions panel; agent access modes gate them.

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

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>

class TestAgentCalls : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<AgentClient> m_agent;

    QString transcript() const
    {
        m_window->console()->transcript()->flushNow();
        return m_window->console()->transcript()->toPlainText();
    }
    bool waitForTranscript(const QString &text, int timeoutMs = 15000)
    {
        return QTest::qWaitFor([&] { return transcript().contains(text); }, timeoutMs);
    }
    int lastRow() const { return m_window->toolCallLog()->rowCount() - 1; }
    ToolCallLog::State lastState() const { return m_window->toolCallLog()->entry(lastRow()).state(); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_live = std::make_unique<LiveSession>();
        QVERIFY2(m_live->engine.isReady(), "the engine did not start");
        m_window = std::make_unique<MainWindow>(&m_live->session, &m_live->server, &m_live->access);
        m_live->furnish(m_window.get());
        m_window->setDefinitionLedger(&m_live->ledger);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
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
        m_window->access()->setMode(AccessMode::Allow);
    }

    void theStatusBarNamesTheConnectedClient()
    {
        QVERIFY(QTest::qWaitFor([&] { return m_window->clientsText().contains(QStringLiteral("claude-code")); }, 2000));
        QCOMPARE(m_window->engineStateText(), QStringLiteral("Engine: idle"));
    }

    void anAgentCallAppearsInTheTranscriptWithItsNameAndDescription()
    {
        const int id = m_agent->evaluate(QStringLiteral("(* 6 7)"), QStringLiteral("checking the answer"));
        const QJsonObject response = m_agent->response(id);
        QVERIFY(!response.isEmpty());
        QVERIFY(!AgentClient::isError(response));
        QVERIFY(waitForTranscript(QStringLiteral("=> 42")));
        const QString text = transcript();
        QVERIFY2(text.contains(QStringLiteral("claude-code \u2014 checking the answer")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Copy to input")));
        QVERIFY(text.contains(QStringLiteral("CL-USER> (* 6 7)")));
        // The agent's blocks are in a lane of their own, apart from the person's (lane 1).
        QTextBlock block = m_window->console()->transcript()->document()->lastBlock();
        while (block.isValid() && !block.text().contains(QStringLiteral("=> 42")))
            block = block.previous();
        QVERIFY(block.isValid());
        QVERIFY(block.userState() >= 2);
    }

    void theToolCallsPanelShowsTheCallWithRequestAndResponse()
    {
        ToolCallLog *log = m_window->toolCallLog();
        QVERIFY(log->rowCount() >= 2); // initialize, tools/call
        const RequestTrace &entry = log->entry(lastRow());
        QCOMPARE(entry.client(), QStringLiteral("claude-code"));
        QCOMPARE(entry.tool(), QStringLiteral("evaluate-lisp"));
        QCOMPARE(ToolCallLog::summarize(entry.arguments()), QStringLiteral("(* 6 7)"));
        QCOMPARE(entry.state(), ToolCallLog::State::Done);
        QVERIFY(entry.isOver());
        QCOMPARE(log->index(lastRow(), ToolCallLog::StateColumn).data().toString(), QStringLiteral("done"));
        QVERIFY(log->index(lastRow(), ToolCallLog::DurationColumn).data().toString().endsWith(QStringLiteral(" ms")));
        QCOMPARE(log->entry(0).method(), QStringLiteral("initialize"));

        m_window->toolCallsPanel()->table()->selectRow(lastRow());
        const QString details = m_window->toolCallsPanel()->detailText();
        QVERIFY(details.contains(QStringLiteral("\"name\": \"evaluate-lisp\"")));
        QVERIFY(details.contains(QStringLiteral("// Response")));
        QVERIFY(details.contains(QStringLiteral("=> 42")));
    }

    void theToolCallLogExportsJsonLines()
    {
        const QByteArray lines = m_window->toolCallLog()->toJsonLines();
        const QList<QByteArray> rows = lines.trimmed().split('\n');
        QCOMPARE(rows.size(), m_window->toolCallLog()->rowCount());
        const QJsonObject last = QJsonDocument::fromJson(rows.last()).object();
        QCOMPARE(last.value("tool").toString(), QStringLiteral("evaluate-lisp"));
        QCOMPARE(last.value("state").toString(), QStringLiteral("done"));
        QVERIFY(last.value("response").toObject().contains("result"));
        QTemporaryDir dir;
        QString error;
        QVERIFY(m_window->toolCallsPanel()->exportTo(dir.filePath("calls.jsonl"), &error));
        QFile file(dir.filePath("calls.jsonl"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), lines);
    }

    void copyToInputPutsTheAgentsCodeIntoTheInput()
    {
        TranscriptView *view = m_window->console()->transcript();
        QTextBlock link = view->document()->lastBlock();
        while (link.isValid() && !link.text().contains(QStringLiteral("Copy to input")))
            link = link.previous();
        QVERIFY(link.isValid());
        QTextCursor at(link);
        at.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, int(link.text().indexOf(QStringLiteral("Copy to input"))) + 3);
        view->setTextCursor(at);
        view->ensureCursorVisible();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->cursorRect(at).center());
        QCOMPARE(m_window->console()->input()->toPlainText(), QStringLiteral("(* 6 7)"));
        m_window->console()->input()->clear();
    }

    void aDefunFromEitherSideAppearsInTheDefinitionsPanel()
    {
        const int id = m_agent->evaluate(QStringLiteral("(defun agent-square (x) \"Squares X.\" (* x x))"), QStringLiteral("a helper"));
        QVERIFY(!AgentClient::isError(m_agent->response(id)));
        ConsoleWidget *input = m_window->console()->input();
        input->setFocus();
        QTest::keyClicks(input, QStringLiteral("(defvar *person-count* 10)"));
        QTest::keyClick(input, Qt::Key_Return);

        DefinitionsModel *model = m_window->definitions();
        QVERIFY(QTest::qWaitFor([&] {
            return model->engineHasDefinitions()
                && model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("AGENT-SQUARE")).isValid()
                && model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("*PERSON-COUNT*")).isValid();
        }, 10000));
        const DefinitionsModel::Definition *square = model->definition(model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("AGENT-SQUARE")));
        QCOMPARE(square->kind, QStringLiteral("function"));
        QCOMPARE(square->definedBy, QStringLiteral("claude-code"));
        QVERIFY(square->byAgent);
        QCOMPARE(square->lambdaList.toUpper(), QStringLiteral("(X)"));
        QVERIFY(square->form.startsWith(QStringLiteral("(defun agent-square")));
        QVERIFY(square->definedAt.isValid());
        const DefinitionsModel::Definition *count = model->definition(model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("*PERSON-COUNT*")));
        QCOMPARE(count->kind, QStringLiteral("variable"));
        QCOMPARE(count->definedBy, QStringLiteral("You"));
        QCOMPARE(count->value, QStringLiteral("10"));
        QCOMPARE(square->documentation, QStringLiteral("Squares X.")); // from the engine

        // Selecting an entry shows who, when and the form; the filter narrows the tree.
        DefinitionsPanel *panel = m_window->definitionsPanel();
        panel->filter()->setText(QStringLiteral("agent-sq"));
        const QModelIndex package = panel->proxy()->index(0, 0);
        QCOMPARE(panel->proxy()->rowCount(package), 1);
        panel->tree()->setCurrentIndex(panel->proxy()->index(0, 0, package));
        QVERIFY(panel->detailText().contains(QStringLiteral("claude-code")));
        QVERIFY(panel->detailText().contains(QStringLiteral("(defun agent-square (x)")));
        panel->filter()->clear();
    }

    void askModeRunsACallOnlyAfterApproval()
    {
        m_window->access()->setMode(AccessMode::Ask);
        const int id = m_agent->evaluate(QStringLiteral("(+ 100 23)"), QStringLiteral("adding up"));
        ApprovalBar *bar = m_window->console()->approvalBar();
        QVERIFY(QTest::qWaitFor([&] { return bar->isVisible(); }, 2000));
        QVERIFY(bar->headline().contains(QStringLiteral("claude-code")));
        QVERIFY(bar->headline().contains(QStringLiteral("adding up")));
        QCOMPARE(lastState(), ToolCallLog::State::AwaitingApproval);
        QTest::qWait(300);
        QVERIFY2(!transcript().contains(QStringLiteral("=> 123")), "nothing may run before the person approves");
        QTest::mouseClick(bar->approveButton(), Qt::LeftButton);
        const QJsonObject response = m_agent->response(id);
        QVERIFY(!AgentClient::isError(response));
        QVERIFY(AgentClient::resultText(response).contains(QStringLiteral("=> 123")));
        QVERIFY(waitForTranscript(QStringLiteral("=> 123")));
        QVERIFY(!bar->isVisible());
        QCOMPARE(lastState(), ToolCallLog::State::Done);
        // The panel counts the person's 300 ms apart from the evaluation's own time.
        const RequestTrace &call = m_window->toolCallLog()->entry(lastRow());
        QVERIFY2(call.waitedMs() >= 300, qPrintable(QString::number(call.waitedMs())));
        QCOMPARE(call.waitedMs() + call.ranMs(), call.elapsedMs());
        QVERIFY(m_window->toolCallLog()->index(lastRow(), ToolCallLog::DurationColumn).data().toString().contains(QStringLiteral("waited")));
    }

    // A call without code (run-tests, load-system, reset-session...) says what it will do.
    void theApprovalBarSaysWhatACallWithoutCodeWillDo()
    {
        m_live->tools.add(runTestsTool(&m_live->session, &m_live->jobs));
        m_window->access()->setMode(AccessMode::Ask);
        const int id = m_agent->callTool(QStringLiteral("run-tests"), {{"system", "shapes"}, {"description", "checking the fix"}});
        ApprovalBar *bar = m_window->console()->approvalBar();
        QVERIFY(QTest::qWaitFor([&] { return bar->isVisible(); }, 2000));
        QVERIFY(bar->headline().contains(QStringLiteral("run-tests")));
        QCOMPARE(bar->summary(), QStringLiteral("It will run the tests of system shapes."));
        for (QWidget *child : bar->findChildren<QWidget *>()) {
            if (auto *label = qobject_cast<QLabel *>(child))
                QVERIFY(!label->text().contains(QStringLiteral("(no code)")));
        }
        QTest::mouseClick(bar->denyButton(), Qt::LeftButton);
        QVERIFY(AgentClient::isError(m_agent->response(id)));
    }

    void askModeDenialTellsTheAgentThePersonDeniedIt()
    {
        m_window->access()->setMode(AccessMode::Ask);
        const int first = m_agent->evaluate(QStringLiteral("(defun risky () :boom)"), QStringLiteral("first"));
        const int second = m_agent->evaluate(QStringLiteral("(+ 1 1)"), QStringLiteral("second"));
        ApprovalBar *bar = m_window->console()->approvalBar();
        QVERIFY(QTest::qWaitFor([&] { return bar->isVisible(); }, 2000));
        QCOMPARE(m_window->access()->pending().size(), 2);
        QVERIFY(bar->findChildren<QLabel *>().size() >= 2);
        bool countShown = false;
        for (QLabel *label : bar->findChildren<QLabel *>())
            countShown = countShown || label->text() == QStringLiteral("1 of 2");
        QVERIFY(countShown);
        QTest::mouseClick(bar->denyButton(), Qt::LeftButton);
        const QJsonObject denied = m_agent->response(first);
        QVERIFY(AgentClient::isError(denied));
        QVERIFY2(AgentClient::resultText(denied).contains(QStringLiteral("denied")), qPrintable(AgentClient::resultText(denied)));
        QCOMPARE(m_window->toolCallLog()->entry(lastRow() - 1).state(), ToolCallLog::State::Denied);
        QTest::mouseClick(bar->approveButton(), Qt::LeftButton);
        QVERIFY(AgentClient::resultText(m_agent->response(second)).contains(QStringLiteral("=> 2")));
        // The denied form never ran: the transcript has only the line that says it was denied.
        QVERIFY2(transcript().contains(QStringLiteral("You denied claude-code's evaluate-lisp \u2014 first: (defun risky")), qPrintable(transcript()));
        QVERIFY(!transcript().contains(QStringLiteral("RISKY")));
    }

    void readOnlyRefusesEvaluationWithAClearSentence()
    {
        m_window->access()->setMode(AccessMode::ReadOnly);
        const QJsonObject response = m_agent->response(m_agent->evaluate(QStringLiteral("(+ 1 2)")));
        QVERIFY(AgentClient::isError(response));
        QVERIFY(AgentClient::resultText(response).contains(QStringLiteral("read-only")));
        QCOMPARE(lastState(), ToolCallLog::State::Denied);
    }

    void pausedRefusesEverythingAtOnce()
    {
        m_window->access()->setMode(AccessMode::Paused);
        const QJsonObject response = m_agent->response(m_agent->evaluate(QStringLiteral("(+ 1 2)")), 2000);
        QVERIFY(AgentClient::isError(response));
        QVERIFY(AgentClient::resultText(response).startsWith(QStringLiteral("The person has paused agent access")));
        QVERIFY(m_window->access()->pending().isEmpty());
    }

    void switchingFromAskToAllowRunsTheWaitingCall()
    {
        m_window->access()->setMode(AccessMode::Ask);
        const int id = m_agent->evaluate(QStringLiteral("(* 3 3)"));
        QVERIFY(QTest::qWaitFor([&] { return !m_window->access()->pending().isEmpty(); }, 2000));
        m_window->accessAction(int(AccessMode::Allow))->trigger();
        QCOMPARE(m_window->access()->mode(), AccessMode::Allow);
        QVERIFY(AgentClient::resultText(m_agent->response(id)).contains(QStringLiteral("=> 9")));
    }

    void theEngineStateNamesWhoseCallIsRunning()
    {
        const int id = m_agent->evaluate(QStringLiteral("(sleep 1)"), QStringLiteral("waiting"));
        QVERIFY(QTest::qWaitFor([&] { return m_window->engineStateText() == QStringLiteral("Engine: busy (claude-code's call)"); }, 5000));
        QVERIFY(m_window->interruptAction()->isEnabled());
        m_agent->response(id);
        QVERIFY(QTest::qWaitFor([&] { return m_window->engineStateText() == QStringLiteral("Engine: idle"); }, 5000));
    }

    void theInterruptButtonStopsAnAgentsRunawayLoop()
    {
        const int id = m_agent->evaluate(QStringLiteral("(loop)"), QStringLiteral("oops, an endless loop"));
        QVERIFY(QTest::qWaitFor([&] { return m_window->interruptAction()->isEnabled(); }, 5000));
        QTest::qWait(200);
        m_window->interruptAction()->trigger();
        const QJsonObject response = m_agent->response(id, 10000);
        QVERIFY(AgentClient::isError(response));
        QVERIFY2(AgentClient::resultText(response).contains(QStringLiteral("The person interrupted the evaluation at ")), qPrintable(AgentClient::resultText(response)));
        QVERIFY(waitForTranscript(QStringLiteral("The person interrupted the evaluation at ")));
        QVERIFY(QTest::qWaitFor([&] { return !m_window->interruptAction()->isEnabled(); }, 5000));
    }

    void presentationModeEnlargesTypeAndHidesThePanels()
    {
        const double base = m_window->console()->transcript()->font().pointSizeF();
        m_window->setPresenting(true);
        QCOMPARE(m_window->console()->transcript()->font().pointSizeF(), base * 2);
        QVERIFY(!m_window->definitionsPanel()->isVisible());
        QVERIFY(!m_window->toolCallsPanel()->isVisible());
        m_window->setPresenting(false);
        QCOMPARE(m_window->console()->transcript()->font().pointSizeF(), base);
        QVERIFY(m_window->definitionsPanel()->isVisible());
    }

    void aClientThatGoesAwayLeavesTheClientList()
    {
        m_live->server.closePeer(m_agent->peer());
        QVERIFY(QTest::qWaitFor([&] { return m_window->clientsText() == QStringLiteral("No clients"); }, 2000));
        m_agent.reset();
    }
};

QTEST_MAIN(TestAgentCalls)
#include "tst_agentcalls.moc"

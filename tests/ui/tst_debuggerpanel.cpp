// The debugger in the window (issue 20), with the real engine, Session and McpServer: the
// person's click on a restart answers an agent's parked call (and the agent is told who chose),
// an agent answers the person's parked evaluation (and the panel says so), frames expand to
// their locals, the input evaluates in the selected frame, levels get a chooser, the person's
// Interrupt parks a break that CONTINUE resumes, the transcript shows the episode, and a frame
// of the project's compiled code shows its variables as copies. With DUET_SCREENSHOT_DIR set
// it saves debugger.png (run under Xvfb by tests/ui/screenshots.sh).

#include "../common/TestFiles.h"
#include "UiTestSupport.h"

#include "access/AccessGate.h"
#include "client/EngineProtocol.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "debugger/DebuggerPanel.h"
#include "window/MainWindow.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeWidget>

class TestDebuggerPanel : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<AgentClient> m_agent;

    DebuggerPanel *panel() const { return m_window->debuggerPanel(); }
    Session &session() { return m_live->session; }
    QString transcript() const
    {
        m_window->console()->transcript()->flushNow();
        return m_window->console()->transcript()->toPlainText();
    }
    bool waitParked(int count = 1)
    {
        return QTest::qWaitFor([&] { return session().debugger()->openDebuggers().size() >= count; }, 20000);
    }
    static QString allText(const QJsonObject &response)
    {
        QStringList texts;
        for (const QJsonValue &part : response.value("result").toObject().value("content").toArray())
            texts << part.toObject().value("text").toString();
        return texts.join('\n');
    }
    QJsonObject structured(const QJsonObject &response) const
    {
        return response.value("result").toObject().value("structuredContent").toObject();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_live = std::make_unique<LiveSession>();
        QVERIFY2(m_live->engine.isReady(), "the engine did not start");
        for (const Tool &tool : {listDebuggersTool(&m_live->session), debuggerFrameTool(&m_live->session),
                                 debuggerEvalTool(&m_live->session, &m_live->jobs), invokeRestartTool(&m_live->session, &m_live->jobs)})
            m_live->tools.add(tool);
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
        // Each test starts with nothing parked.
        for (const DebuggerPtr &d : session().debugger()->openDebuggers())
            session().debugger()->invokeRestart(d->id, QStringLiteral("ABORT"), {}, Origin::person());
        QVERIFY(QTest::qWaitFor([&] { return session().debugger()->openDebuggers().isEmpty() && !session().current(); }, 20000));
    }

    // The debugger shares its place with the definitions: it comes forward when an evaluation
    // parks, and the definitions come back when nothing is parked any more.
    void theDefinitionsComeBackWhenNothingIsParked()
    {
        auto *definitions = m_window->findChild<QDockWidget *>(QStringLiteral("definitionsDock"));
        auto *debugger = m_window->findChild<QDockWidget *>(QStringLiteral("debuggerDock"));
        QVERIFY(definitions && debugger);
        const auto inFront = [](QDockWidget *dock) { return !dock->visibleRegion().isEmpty(); };
        m_window->console()->evaluate(QStringLiteral("(error \"stop here\")"));
        QVERIFY(waitParked());
        QTRY_VERIFY(inFront(debugger));
        QVERIFY(!inFront(definitions));
        const DebuggerPtr parked = session().debugger()->openDebuggers().first();
        QVERIFY(session().debugger()->invokeRestart(parked->id, QStringLiteral("ABORT"), {}, Origin::person()));
        QTRY_VERIFY(session().debugger()->openDebuggers().isEmpty());
        QTRY_VERIFY(inFront(definitions));
        QVERIFY(!inFront(debugger));
    }

    void nothingParkedSaysSo()
    {
        QVERIFY(!panel()->shown());
        QVERIFY(panel()->headerText().startsWith(QStringLiteral("Nothing is parked.")));
    }

    void thePersonsClickOnARestartAnswersAnAgentsParkedCall()
    {
        m_window->console()->evaluate(QStringLiteral("(defun parse-item (i)\n  (restart-case (if (= i 5000) (error \"bad record ~D\" i) i)\n"
                                                     "    (use-value (v) :report \"Use a value for this record.\" v)))\n"
                                                     "(defun total (n) (loop for i from 1 to n sum (parse-item i)))"));
        const int call = m_agent->callTool(QStringLiteral("evaluate-lisp"),
                                           {{"code", "(total 10000)"}, {"debug", true}, {"description", "sum the records"}});
        const QJsonObject parked = m_agent->response(call);
        QVERIFY(AgentClient::isError(parked));
        QCOMPARE(AgentClient::resultText(parked), QStringLiteral("[ERROR] SIMPLE-ERROR\nbad record 5000\n\n[Backtrace]\n0: (PARSE-ITEM 5000)\n1: (TOTAL 10000)"));
        QVERIFY(allText(parked).contains(QStringLiteral("[Debugger]")));
        const int debuggerId = structured(parked).value("debugger").toObject().value("id").toInt();

        // The panel came forward with the agent's evaluation.
        QVERIFY(m_window->debuggerDock()->isVisible());
        QVERIFY(panel()->shown());
        QCOMPARE(panel()->shown()->id, debuggerId);
        QVERIFY2(panel()->headerText().startsWith(QStringLiteral("claude-code's evaluation is parked in debugger")), qPrintable(panel()->headerText()));
        QCOMPARE(panel()->conditionText(), QStringLiteral("SIMPLE-ERROR: bad record 5000"));
        QCOMPARE(panel()->restartTexts().first(), QStringLiteral("0   USE-VALUE \u2014 Use a value for this record."));
        QVERIFY(transcript().contains(QStringLiteral("\u2016 Parked in debugger %1 (level 1)").arg(debuggerId)));

        // USE-VALUE without a value is refused by the panel itself, with what to do.
        auto *use = panel()->findChild<QPushButton *>(QStringLiteral("restart0"));
        QVERIFY(use);
        QTest::mouseClick(use, Qt::LeftButton);
        QVERIFY(panel()->notice().contains(QStringLiteral("USE-VALUE needs one value")));
        panel()->findChild<QLineEdit *>(QStringLiteral("debuggerArguments"))->setText(QStringLiteral("5000"));
        QTest::mouseClick(use, Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return session().debugger()->openDebuggers().isEmpty(); }, 20000));
        QVERIFY2(panel()->notice().contains(QStringLiteral("claude-code's (total 10000)): you chose USE-VALUE (5000) at ")), qPrintable(panel()->notice()));

        // The agent's later choice gets the outcome and who chose.
        const int late = m_agent->callTool(QStringLiteral("invoke-restart"), {{"debugger_id", debuggerId}, {"restart", "ABORT"}});
        const QJsonObject answer = m_agent->response(late);
        QCOMPARE(AgentClient::resultText(answer), QStringLiteral("=> 50005000"));
        QVERIFY2(allText(answer).contains(QStringLiteral("was already answered: the person chose USE-VALUE (5000) at ")), qPrintable(allText(answer)));
        QVERIFY(allText(answer).contains(QStringLiteral("Your choice (ABORT) was not used.")));
        QCOMPARE(structured(answer).value("choice").toObject().value("yours").toBool(), false);
        QVERIFY(QTest::qWaitFor([&] { return transcript().contains(QStringLiteral("\u21b3 claude-code's (total 10000), debugger %1: you chose USE-VALUE (5000)").arg(debuggerId)); }, 5000));
        QVERIFY(transcript().contains(QStringLiteral("chose USE-VALUE (5000) in debugger %1").arg(debuggerId)));
    }

    void anAgentAnswersThePersonsParkedEvaluationAndThePanelSaysSo()
    {
        m_window->console()->evaluate(QStringLiteral("(cerror \"Go on.\" \"Odd record ~A\" 7) :went-on"));
        QVERIFY(waitParked());
        QVERIFY(panel()->headerText().startsWith(QStringLiteral("Your evaluation is parked")));
        // The agent hears of it in its next result's digest, and sees it in list-debuggers.
        const QJsonObject listed = m_agent->response(m_agent->callTool(QStringLiteral("list-debuggers"), {}));
        QVERIFY2(allText(listed).contains(QStringLiteral("the person's evaluation, parked since")), qPrintable(allText(listed)));
        QVERIFY(allText(listed).contains(QStringLiteral("is parked in debugger")));
        const int id = panel()->shown()->id;
        const QJsonObject answer = m_agent->response(m_agent->callTool(QStringLiteral("invoke-restart"), {{"debugger_id", id}, {"restart", "CONTINUE"}}));
        QCOMPARE(AgentClient::resultText(answer), QStringLiteral("=> :WENT-ON"));
        QVERIFY(QTest::qWaitFor([&] { return !panel()->shown(); }, 5000));
        QVERIFY2(panel()->notice().contains(QStringLiteral("(your (cerror \"Go on.\" \"Odd record ~A\" 7) :went-on): claude-code chose CONTINUE at ")),
                 qPrintable(panel()->notice()));
        QVERIFY(transcript().contains(QStringLiteral("chose CONTINUE in debugger %1").arg(id)));
    }

    void framesExpandToTheirLocalsAndTheInputEvaluatesInTheSelectedFrame()
    {
        m_window->console()->evaluate(QStringLiteral("(defun scale (x y) (let ((z (* x 2)) (items (list x y))) (/ z y)))"));
        QVERIFY(QTest::qWaitFor([&] { return transcript().contains(QStringLiteral("=> SCALE")); }, 10000));
        m_window->console()->evaluate(QStringLiteral("(scale 3 0)"));
        QVERIFY(waitParked());
        panel()->expandFrame(1);
        QVERIFY(QTest::qWaitFor([&] { return panel()->frameLines(1).contains(QStringLiteral("Z = 6")); }, 10000));
        const QStringList lines = panel()->frameLines(1);
        QCOMPARE(lines.mid(0, 3), (QStringList{"function SCALE, defined in the session", "X = 3", "Y = 0"}));
        QCOMPARE(QSet<QString>(lines.begin() + 3, lines.end()), (QSet<QString>{"Z = 6", "ITEMS = (3 0)"}));
        panel()->expandFrame(0);
        QVERIFY(QTest::qWaitFor([&] { return panel()->frameLines(0).size() == 1 && !panel()->frameLines(0).first().contains(QStringLiteral("looking")); }, 10000));
        QVERIFY(panel()->frameLines(0).first().contains(QStringLiteral("built-in")));

        panel()->selectFrame(1);
        auto *input = panel()->findChild<QLineEdit *>(QStringLiteral("debuggerEval"));
        input->setText(QStringLiteral("(list x y z)"));
        QTest::keyClick(input, Qt::Key_Return);
        QVERIFY(QTest::qWaitFor([&] { return panel()->notice() == QStringLiteral("In frame 1: => (3 0 6)"); }, 10000));
        QVERIFY(input->text().isEmpty());
        QVERIFY(transcript().contains(QStringLiteral("In debugger %1, frame 1:").arg(panel()->shown()->id)));

        // A digit chooses a restart, from anywhere in the panel but a line being typed in.
        const DebuggerPtr d = panel()->shown();
        m_window->debuggerDock()->raise();
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        panel()->findChild<QTreeWidget *>(QStringLiteral("debuggerFrames"))->setFocus();
        QTest::keyClick(panel()->findChild<QTreeWidget *>(QStringLiteral("debuggerFrames")), Qt::Key_1); // ABORT (0 is RETRY)
        QVERIFY(QTest::qWaitFor([&] { return !d->isOpen(); }, 10000));
        QCOMPARE(d->choice.restart, QStringLiteral("ABORT"));
    }

    void levelsGetAChooserAndTheInnermostComesFirst()
    {
        m_window->console()->evaluate(QStringLiteral("(error \"outer\")"));
        QVERIFY(waitParked(1));
        const int call = m_agent->callTool(QStringLiteral("evaluate-lisp"), {{"code", "(error \"inner\")"}, {"debug", true}});
        QVERIFY(AgentClient::isError(m_agent->response(call)));
        QVERIFY(waitParked(2));
        auto *levels = panel()->findChild<QComboBox *>(QStringLiteral("debuggerLevels"));
        QVERIFY(levels->isVisible());
        QCOMPARE(levels->count(), 2);
        QCOMPARE(panel()->shown()->level, 2);
        QVERIFY(panel()->headerText().startsWith(QStringLiteral("claude-code's evaluation")));
        // ABORT of the inner one: the outer one is shown again.
        QVERIFY(panel()->chooseRestart(1));
        QVERIFY(QTest::qWaitFor([&] { return session().debugger()->openDebuggers().size() == 1; }, 10000));
        QCOMPARE(panel()->shown()->level, 1);
        QVERIFY(!levels->isVisible());
    }

    void thePersonsInterruptParksABreakThatContinueResumes()
    {
        m_window->console()->evaluate(QStringLiteral("(defvar *tick* 0) (dotimes (i 30) (setf *tick* i) (sleep 0.05)) :slept"));
        QVERIFY(QTest::qWaitFor([&] { return session().current() != nullptr; }, 10000));
        QTest::qWait(300);
        m_window->interruptAction()->trigger();
        QVERIFY(waitParked());
        QVERIFY(panel()->shown()->isBreak);
        QVERIFY2(panel()->headerText().startsWith(QStringLiteral("Your evaluation was interrupted and waits")), qPrintable(panel()->headerText()));
        QVERIFY(panel()->conditionText().startsWith(QStringLiteral("LISP-DUET:EVALUATION-INTERRUPTED: The person interrupted")));
        QTest::mouseClick(panel()->findChild<QPushButton *>(QStringLiteral("restart0")), Qt::LeftButton); // CONTINUE
        QVERIFY(QTest::qWaitFor([&] { return transcript().contains(QStringLiteral("=> :SLEPT")); }, 10000));
    }

    void theAccessModesApplyToTheDebuggersToolsAsToEvaluateLisp()
    {
        m_window->console()->evaluate(QStringLiteral("(restart-case (error \"guarded\") (use-value (v) v))"));
        QVERIFY(waitParked());
        const int id = panel()->shown()->id;
        AccessGate *access = m_window->access();

        access->setMode(AccessMode::ReadOnly);
        // Looking passes (debugger-frame and list-debuggers are read-only tools); choosing and
        // evaluating are refused.
        const QJsonObject looked = m_agent->response(m_agent->callTool(QStringLiteral("list-debuggers"), {}));
        QVERIFY(!AgentClient::isError(looked));
        QVERIFY2(AgentClient::resultText(looked).contains(QStringLiteral("Debugger %1, level 1").arg(id)), qPrintable(AgentClient::resultText(looked)));
        const QJsonObject refused = m_agent->response(m_agent->callTool(QStringLiteral("invoke-restart"), {{"debugger_id", id}, {"restart", "ABORT"}}));
        QVERIFY(AgentClient::isError(refused));
        QVERIFY2(AgentClient::resultText(refused).contains(QStringLiteral("read-only")), qPrintable(AgentClient::resultText(refused)));
        const QJsonObject noEval = m_agent->response(m_agent->callTool(QStringLiteral("debugger-eval"), {{"debugger_id", id}, {"code", "1"}}));
        QVERIFY(AgentClient::resultText(noEval).contains(QStringLiteral("read-only")));
        QVERIFY(panel()->shown() && panel()->shown()->id == id);

        // Ask: the choice waits for the person, who approves it.
        access->setMode(AccessMode::Ask);
        const int call = m_agent->callTool(QStringLiteral("invoke-restart"), {{"debugger_id", id}, {"restart", "USE-VALUE"}, {"arguments", QJsonArray{":approved"}}});
        QVERIFY(QTest::qWaitFor([&] { return !access->pending().isEmpty(); }, 5000));
        QVERIFY(panel()->shown() && panel()->shown()->isOpen());
        access->approve();
        QCOMPARE(AgentClient::resultText(m_agent->response(call)), QStringLiteral("=> :APPROVED"));
        access->setMode(AccessMode::Allow);
    }

    void aFrameOfTheProjectsCompiledCodeShowsItsVariablesAsCopies()
    {
        // load-system compiles the project's systems for debugging: their frames expand to
        // their variables, which are ECL's copies, and the panel says what that means.
        QTemporaryDir root;
        QVERIFY(TestFiles::writeOneFileSystem(root.path(), QStringLiteral("tally"),
                                              "(defpackage #:tally (:use #:cl) (:export #:mean))\n(in-package #:tally)\n"
                                              "(defun mean (xs) (let ((sum (reduce #'+ xs))) (/ sum (length xs))))\n"));
        bool rooted = false;
        session().query(EngineProtocol::projectRoot(root.path()), [&](const QJsonObject &) { rooted = true; });
        QVERIFY(QTest::qWaitFor([&] { return rooted; }, 10000));
        bool loaded = false;
        session().whenFinished(session().submit(EngineProtocol::systemLoad(QStringLiteral("tally"), false, false)),
                               [&](const JobPtr &job) { loaded = job->result.ok(); });
        QVERIFY(QTest::qWaitFor([&] { return loaded; }, 120000));
        m_window->console()->evaluate(QStringLiteral("(tally:mean '())"));
        QVERIFY(waitParked());
        QVERIFY(session().debugger()->openDebuggers().first()->frames.size() >= 2);
        panel()->expandFrame(1);
        QVERIFY(QTest::qWaitFor([&] { return panel()->frameLines(1).size() >= 3; }, 10000));
        const QStringList lines = panel()->frameLines(1);
        QVERIFY2(lines.contains(QStringLiteral("TALLY::XS = NIL")) && lines.contains(QStringLiteral("TALLY::SUM = 0"))
                     && lines.last() == QStringLiteral("(copies: a SETQ here does not reach the code)"),
                 qPrintable(lines.join(QStringLiteral(" | "))));
    }

    // An agent's evaluation parked at item 5000: the person expands the frame, reads I = 5000
    // and types the value for USE-VALUE (tests/ui/screenshots.sh saves this as debugger.png).
    void anAgentsParkedEvaluationShowsTheFramesLocalsToThePerson()
    {
        const int call = m_agent->callTool(QStringLiteral("evaluate-lisp"),
                                           {{"code", "(total 10000)"}, {"debug", true}, {"description", "sum the records"}});
        QVERIFY(AgentClient::isError(m_agent->response(call)));
        QVERIFY(waitParked());
        panel()->expandFrame(0);
        QVERIFY(QTest::qWaitFor([&] { return panel()->frameLines(0).contains(QStringLiteral("I = 5000")); }, 10000));
        panel()->setArguments(QStringLiteral("5000"));
        QVERIFY(saveScreenshotIfAsked(m_window.get(), QStringLiteral("debugger.png"), [this] { m_window->console()->transcript()->flushNow(); }));
    }
};

QTEST_MAIN(TestDebuggerPanel)
#include "tst_debuggerpanel.moc"

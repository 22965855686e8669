// The Agent panel in the window (issue 38), offscreen, with the real engine and MCP server:
// the dock and its shortcut, context sent from the transcript (an entry, a selection), the
// Definitions panel and the Debugger panel, and a chat row showing Lisp Duet's own MCP call
// (the real mock agent calling evaluate-lisp over HTTP): its REPL result, and a parked
// debugger with the way to answer it.
//
// With DUET_SCREENSHOT_DIR set (tests/ui/screenshots.sh), agent-panel.png and
// agent-panel-dark.png are saved there.

#include "UiTestSupport.h"
#include "../acp/MockAgent.h"

#include "agent/AgentChatView.h"
#include "agent/AgentPanel.h"
#include "agent/AgentPromptEdit.h"
#include "agent/ChatDocument.h"
#include "agent/ContextChips.h"
#include "console/ConsoleWidget.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "debugger/DebuggerPanel.h"
#include "highlight/LispHighlighter.h"
#include "definitions/DefinitionsModel.h"
#include "definitions/DefinitionsPanel.h"
#include "window/AgentDock.h"
#include "window/MainWindow.h"
#include "window/WindowTheme.h"

#include "acp/AgentSession.h"
#include "transports/HttpTransport.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QStyle>
#include <QTextBlock>

class tst_AgentWindow : public QObject
{
    Q_OBJECT

    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<HttpTransport> m_http;

    AgentPanel *panel() const { return m_window->agentPanel(); }
    Session &session() const { return m_live->session; }
    QString transcript() const
    {
        m_window->console()->transcript()->flushNow();
        return m_window->console()->transcript()->toPlainText();
    }
    // Evaluates `code` as the person and waits for its result in the transcript.
    bool evaluate(const QString &code, const QString &result)
    {
        m_window->console()->evaluate(code);
        return QTest::qWaitFor([&] { return transcript().contains(result); }, 20000);
    }
    // Where `text` stands in the transcript, in its viewport's coordinates.
    QPoint transcriptPoint(const QString &text) const
    {
        TranscriptView *view = m_window->console()->transcript();
        view->flushNow();
        const QTextCursor found = view->document()->find(text);
        if (found.isNull())
            return {-1, -1};
        view->setTextCursor(found);
        view->ensureCursorVisible();
        return view->cursorRect(found).center();
    }
    static QAction *action(QMenu *menu, const QString &name)
    {
        for (QAction *action : menu->actions()) {
            if (action->objectName() == name)
                return action;
        }
        return nullptr;
    }
    Acp::ContentBlock lastChip() const
    {
        const QList<Acp::ContentBlock> chips = panel()->chips()->resources();
        return chips.isEmpty() ? Acp::ContentBlock() : chips.last();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_live = std::make_unique<LiveSession>();
        QVERIFY2(m_live->engine.isReady(), "the engine did not start");
        session().debugger()->setDebugDefaults(true, true); // the person's and agents' errors park
        m_window = m_live->showWindow(QSize(1400, 900), true);
        QVERIFY(m_window);
        HttpTransport::Options options;
        options.port = 0;
        m_http = std::make_unique<HttpTransport>(&m_live->server, options);
        QVERIFY2(m_http->listen(), qPrintable(m_http->errorString()));
    }

    void cleanupTestCase()
    {
        m_http.reset();
        m_window.reset();
        m_live.reset();
    }

    void init()
    {
        for (const DebuggerPtr &d : session().debugger()->openDebuggers())
            session().debugger()->invokeRestart(d->id, QStringLiteral("ABORT"), {}, Origin::person());
        QVERIFY(QTest::qWaitFor([&] { return session().debugger()->openDebuggers().isEmpty() && !session().current(); }, 20000));
        panel()->chips()->clear();
    }

    void ctrlShiftAShowsThePanelWithTheKeyboardInThePromptBoxAndAgainGoesBack()
    {
        AgentDock *dock = m_window->agentDock();
        QVERIFY(dock->isVisible());
        QVERIFY(dock->visibleRegion().isEmpty()); // a tab behind the Definitions
        m_window->activateWindow();
        m_window->console()->input()->setFocus();
        QTest::keyClick(m_window->console()->input(), Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(!dock->visibleRegion().isEmpty());
        QTRY_COMPARE(QApplication::focusWidget(), panel()->promptBox());
        QTest::keyClick(panel()->promptBox(), Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(QApplication::focusWidget(), m_window->console()->input());
        QCOMPARE(m_window->agentDock()->showAction()->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+A")));
    }

    void aReplEntryGoesToThePromptAsItsCodeAndResult()
    {
        QVERIFY(evaluate(QStringLiteral("(defun square (x) (* x x))"), QStringLiteral("=> SQUARE")));
        QVERIFY(evaluate(QStringLiteral("(square 12)"), QStringLiteral("=> 144")));
        const QPoint at = transcriptPoint(QStringLiteral("=> 144"));
        QVERIFY(at.x() >= 0);
        std::unique_ptr<QMenu> menu(m_window->console()->transcript()->contextMenu(at));
        QAction *send = action(menu.get(), QStringLiteral("sendEntryToAgent"));
        QVERIFY(send && send->isEnabled());
        send->trigger();
        const Acp::ContentBlock chip = lastChip();
        const JobPtr job = session().transcript().last();
        QCOMPARE(chip.type, QStringLiteral("resource"));
        QCOMPARE(chip.uri, QStringLiteral("lisp-duet://transcript/%1").arg(job->sequence));
        QVERIFY2(chip.text.contains(QStringLiteral("(square 12)")) && chip.text.contains(QStringLiteral("=> 144")), qPrintable(chip.text));
        QCOMPARE(panel()->chips()->labels().last(), QStringLiteral("REPL #%1: (square 12)").arg(job->sequence));
        // The panel came forward, ready for the question.
        QTRY_VERIFY(!m_window->agentDock()->visibleRegion().isEmpty());
        QTRY_COMPARE(QApplication::focusWidget(), panel()->promptBox());
        // Nothing to send where no entry is: the app's own lines.
        m_window->console()->showNote(QStringLiteral("a note of the window's own"));
        std::unique_ptr<QMenu> blank(m_window->console()->transcript()->contextMenu(transcriptPoint(QStringLiteral("a note of the window"))));
        QVERIFY(!action(blank.get(), QStringLiteral("sendEntryToAgent"))->isEnabled());
    }

    void theTranscriptsSelectionGoesToThePrompt()
    {
        QVERIFY(evaluate(QStringLiteral("(list :alpha :beta)"), QStringLiteral("=> (:ALPHA :BETA)")));
        TranscriptView *view = m_window->console()->transcript();
        QTextCursor selection = view->document()->find(QStringLiteral("(:ALPHA :BETA)"));
        QVERIFY(!selection.isNull());
        view->setTextCursor(selection);
        std::unique_ptr<QMenu> menu(view->contextMenu(view->cursorRect(selection).center()));
        QAction *send = action(menu.get(), QStringLiteral("sendSelectionToAgent"));
        QVERIFY(send && send->isEnabled());
        send->trigger();
        QCOMPARE(lastChip().text, QStringLiteral("(:ALPHA :BETA)"));
        QCOMPARE(lastChip().uri, QStringLiteral("lisp-duet://transcript/%1#selection").arg(session().transcript().last()->sequence));
        QCOMPARE(panel()->chips()->labels().last(), QStringLiteral("selection: (:ALPHA :BETA)"));
    }

    void aDefinitionGoesToThePromptAsItsForm()
    {
        QVERIFY(evaluate(QStringLiteral("(defun cube (x)\n  \"The cube of X.\"\n  (* x x x))"), QStringLiteral("=> CUBE")));
        DefinitionsModel *model = m_window->definitions();
        QTRY_VERIFY_WITH_TIMEOUT(model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("CUBE")).isValid(), 15000);
        DefinitionsPanel *definitions = m_window->definitionsPanel();
        const QModelIndex row = definitions->proxy()->mapFromSource(model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("CUBE")));
        std::unique_ptr<QMenu> menu(definitions->contextMenu(row));
        QAction *send = action(menu.get(), QStringLiteral("sendDefinitionToAgent"));
        QVERIFY(send && send->isEnabled());
        send->trigger();
        const Acp::ContentBlock chip = lastChip();
        QCOMPARE(chip.uri, QStringLiteral("lisp-duet://definition/COMMON-LISP-USER::CUBE"));
        QCOMPARE(chip.mimeType, QStringLiteral("text/x-common-lisp"));
        QVERIFY2(chip.text.contains(QStringLiteral("(defun cube (x)\n  \"The cube of X.\"\n  (* x x x))")), qPrintable(chip.text));
        QVERIFY2(chip.text.startsWith(QStringLiteral(";; function COMMON-LISP-USER::CUBE")), qPrintable(chip.text));
        QVERIFY(chip.text.contains(QStringLiteral(";; defined by You at ")));
        QCOMPARE(panel()->chips()->labels().last(), QStringLiteral("function CUBE"));
        std::unique_ptr<QMenu> none(definitions->contextMenu(QModelIndex()));
        QVERIFY(!action(none.get(), QStringLiteral("sendDefinitionToAgent"))->isEnabled());
    }

    void aParkedDebuggerGoesToThePromptWithConditionRestartsAndFrames()
    {
        QVERIFY(evaluate(QStringLiteral("(defun halve (n) (if (oddp n) (error \"~D is odd\" n) (/ n 2)))"), QStringLiteral("=> HALVE")));
        m_window->console()->evaluate(QStringLiteral("(halve 7)"));
        QTRY_VERIFY_WITH_TIMEOUT(!session().debugger()->openDebuggers().isEmpty(), 20000);
        const DebuggerPtr parked = session().debugger()->openDebuggers().first();
        QTRY_VERIFY(m_window->debuggerPanel()->shown());
        std::unique_ptr<QMenu> menu(m_window->debuggerPanel()->contextMenu());
        QAction *send = action(menu.get(), QStringLiteral("sendDebuggerToAgent"));
        QVERIFY(send && send->isEnabled());
        send->trigger();
        const Acp::ContentBlock chip = lastChip();
        QCOMPARE(chip.uri, QStringLiteral("lisp-duet://debugger/%1").arg(parked->id));
        QVERIFY2(chip.text.contains(QStringLiteral("Condition: SIMPLE-ERROR: 7 is odd")), qPrintable(chip.text));
        QVERIFY(chip.text.contains(QStringLiteral("(halve 7)")));
        QVERIFY(chip.text.contains(QStringLiteral("Restarts:")) && chip.text.contains(QStringLiteral("ABORT")));
        QVERIFY(chip.text.contains(QStringLiteral("Frames:")) && chip.text.contains(QStringLiteral("(HALVE 7)")));
        QCOMPARE(panel()->chips()->labels().last(), QStringLiteral("debugger %1: SIMPLE-ERROR").arg(parked->id));
    }

    void lispDuetsOwnCallShowsItsReplResultAndAParkedOneTheWayToAnswerIt()
    {
        SKIP_UNLESS_MOCK_RUNS();
        MockAgent mock;
        AcpClient client;
        panel()->setClient(&client);
        QVERIFY(startReady(client, mock.command({QStringLiteral("--mcp-call")})));
        const qint64 group = client.process()->processGroup();
        Acp::McpServer server;
        server.transport = Acp::McpServer::Transport::Http;
        server.name = QStringLiteral("lisp-duet");
        server.url = m_http->url();
        AgentSession *agentSession = openSession(client, {server});
        QVERIFY(agentSession);
        panel()->setSession(agentSession);
        // What agent-host does: the MCP request that carries the chat row's id is shown in it.
        QList<RequestTracePtr> traces;
        const auto tying = connect(&m_live->server, &McpServer::requestTraced, panel(), [&](const RequestTracePtr &trace) {
            const QString id = trace->request().value("params").toObject().value("_meta").toObject().value("claudecode/toolUseId").toString();
            if (!id.isEmpty()) {
                traces << trace;
                panel()->showToolCallTrace(id, trace.data());
            }
        });
        const auto untie = qScopeGuard([&] { disconnect(tying); });

        QVERIFY(panel()->sendPrompt(QStringLiteral("eval (* 6 7)")));
        QTRY_VERIFY_WITH_TIMEOUT(!agentSession->isPrompting(), 30000);
        QCOMPARE(traces.size(), 1);
        const int row = agentSession->conversation()->indexOfToolCall(traces.first()->request().value("params").toObject()
                                                                          .value("_meta").toObject().value("claudecode/toolUseId").toString());
        panel()->chat()->flush();
        QString shown = panel()->chat()->entryText(row);
        QVERIFY2(shown.contains(QStringLiteral("evaluate-lisp")) && shown.contains(QStringLiteral("(* 6 7)")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("In the session: done")) && shown.contains(QStringLiteral("=> 42")), qPrintable(shown));
        QVERIFY(!shown.contains(QStringLiteral("\"status\"")));
        QVERIFY(transcript().contains(QStringLiteral("=> 42"))); // the same evaluation, in the shared session

        QVERIFY(panel()->sendPrompt(QStringLiteral("eval (error \"no ~A here\" 'cheese)")));
        QTRY_VERIFY_WITH_TIMEOUT(!agentSession->isPrompting(), 30000);
        QCOMPARE(traces.size(), 2);
        QTRY_VERIFY(!session().debugger()->openDebuggers().isEmpty());
        const DebuggerPtr parked = session().debugger()->openDebuggers().last();
        const int parkedRow = agentSession->conversation()->indexOfToolCall(traces.last()->request().value("params").toObject()
                                                                                .value("_meta").toObject().value("claudecode/toolUseId").toString());
        panel()->chat()->flush();
        shown = panel()->chat()->entryText(parkedRow);
        QVERIFY2(shown.contains(QStringLiteral("Parked in debugger %1: SIMPLE-ERROR \u2014 no CHEESE here").arg(parked->id)), qPrintable(shown));
        QVERIFY(shown.contains(QStringLiteral("[ERROR] SIMPLE-ERROR")));
        QVERIFY(!shown.contains(QStringLiteral("invoke-restart"))); // the agent's instructions are not the person's
        // "Answer it in the Debugger": the dock comes forward with that debugger.
        m_window->findChild<QDockWidget *>(QStringLiteral("definitionsDock"))->raise();
        const QTextCursor link = panel()->chat()->document()->find(QStringLiteral("Answer it in the Debugger"));
        QVERIFY(!link.isNull());
        QCOMPARE(link.charFormat().anchorHref(), QStringLiteral("debugger:%1").arg(parked->id));
        Q_EMIT panel()->chatView()->anchorClicked(QUrl(link.charFormat().anchorHref()));
        QTRY_VERIFY(!m_window->debuggerDock()->visibleRegion().isEmpty());
        QCOMPARE(m_window->debuggerPanel()->shown()->id, parked->id);
        // Answered there, the row says what became of it.
        QVERIFY(session().debugger()->invokeRestart(parked->id, QStringLiteral("ABORT"), {}, Origin::person()));
        QTRY_VERIFY2(panel()->chat()->entryText(parkedRow).contains(QStringLiteral("ended: SIMPLE-ERROR")), qPrintable(panel()->chat()->entryText(parkedRow)));
        QVERIFY(!panel()->chat()->entryText(parkedRow).contains(QStringLiteral("Answer it in the Debugger")));
        QVERIFY(!panel()->chat()->entryText(parkedRow).contains(QStringLiteral("parked in the debugger")));

        panel()->setSession(nullptr);
        panel()->setClient(nullptr);
        client.stop();
        QTRY_VERIFY_WITH_TIMEOUT(groupMembers(group).isEmpty(), 10000);
    }

    // A turn as Claude Code plays one (the mock's --demo): a folded thought, the plan, two
    // evaluate-lisp rows with the session's results, the streamed answer with a Lisp block, the
    // usage; the same evaluations in the transcript. The README's pictures, light and dark.
    void aRealisticConversationReadsWellInLightAndDark()
    {
        SKIP_UNLESS_MOCK_RUNS();
        MockAgent mock;
        AcpClient client;
        AgentCommand command = mock.command({QStringLiteral("--demo"), QStringLiteral("--modes"), QStringLiteral("--chunk-delay"), QStringLiteral("10")});
        panel()->setAgents({command}, command.name);
        panel()->setClient(&client);
        QVERIFY(startReady(client, command));
        const qint64 group = client.process()->processGroup();
        Acp::McpServer server;
        server.transport = Acp::McpServer::Transport::Http;
        server.name = QStringLiteral("lisp-duet");
        server.url = m_http->url();
        AgentSession *agentSession = openSession(client, {server});
        QVERIFY(agentSession);
        panel()->setSession(agentSession);
        QList<RequestTracePtr> traces;
        const auto tying = connect(&m_live->server, &McpServer::requestTraced, panel(), [&](const RequestTracePtr &trace) {
            const QString id = trace->request().value("params").toObject().value("_meta").toObject().value("claudecode/toolUseId").toString();
            if (!id.isEmpty()) {
                traces << trace;
                panel()->showToolCallTrace(id, trace.data());
            }
        });
        const auto untie = qScopeGuard([&] { disconnect(tying); });
        m_window->agentDock()->showPanel();
        m_window->resizeDocks({m_window->agentDock()}, {600}, Qt::Horizontal);
        QTest::keyClicks(panel()->promptBox(), QStringLiteral("Write a function that squares a number, and try it on 12."));
        QTest::keyClick(panel()->promptBox(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(agentSession->conversation()->turn() == 1 && !agentSession->isPrompting(), 30000);
        panel()->chat()->flush();
        const QString chat = panel()->chat()->document()->toPlainText();
        QVERIFY2(chat.contains(QStringLiteral("\u25b8 Thought \u00b7 27 words")), qPrintable(chat));
        QVERIFY(chat.contains(QStringLiteral("evaluate-lisp  \u00b7 done")));
        QVERIFY(chat.contains(QStringLiteral("=> SQUARE")) && chat.contains(QStringLiteral("=> 144")));
        QVERIFY(!chat.contains(QStringLiteral("\"status\"")));
        QVERIFY(chat.contains(QStringLiteral("(square 1/2) ; => 1/4")));
        QCOMPARE(panel()->planText().section(u'\n', 0, 0), QStringLiteral("Plan \u00b7 3 of 3 done"));
        QCOMPARE(panel()->usageText(), QStringLiteral("18.4k of 200k tokens \u00b7 $0.0421 \u00b7 last turn 18.1k in, 330 out"));
        QCOMPARE(panel()->currentModeName(), QStringLiteral("Always ask"));
        QVERIFY(transcript().contains(QStringLiteral("=> 144")));
        QVERIFY(saveScreenshotIfAsked(m_window.get(), QStringLiteral("agent-panel.png"), [this] { m_window->console()->transcript()->flushNow(); }));

        // Dark, as File > Settings' theme makes it (WindowSetup applies WindowTheme): the
        // application's style and palette, the transcript's and the input's colours.
        WindowTheme::apply(WindowTheme::Look::Dark, m_window->console());
        const auto restore = qScopeGuard([&] { WindowTheme::apply(WindowTheme::Look::System, m_window->console()); });
        QTRY_VERIFY(panel()->chat()->theme().dark);
        // What is drawn is dark: the REPL's input and transcript as well as the chat.
        // (The input's background as painted, at its right end, where no text is.)
        const auto lightness = [](QWidget *widget) { return widget->grab().toImage().pixelColor(widget->width() - 3, widget->height() - 3).lightness(); };
        QTRY_VERIFY2(lightness(m_window->console()->input()->viewport()) < 80, qPrintable(QString::number(lightness(m_window->console()->input()->viewport()))));
        QVERIFY(m_window->console()->transcript()->palette().color(QPalette::Base).lightness() < 80);
        // The entries shown before the switch take the dark colours too (a value, a string).
        const auto colourOf = [this](const QString &text) {
            QTextCursor found = m_window->console()->transcript()->document()->find(text);
            found.setPosition(found.selectionEnd());
            return found.charFormat().foreground().color();
        };
        QCOMPARE(colourOf(QStringLiteral("=> 144")), QColor(0x79, 0xb8, 0xff));
        QCOMPARE(colourOf(QStringLiteral("\"The square of X.\"")), HighlightTheme::dark().format(LispTokenKind::String).foreground().color());
        QVERIFY(saveScreenshotIfAsked(m_window.get(), QStringLiteral("agent-panel-dark.png"), [this] { m_window->console()->transcript()->flushNow(); }));

        panel()->setSession(nullptr);
        panel()->setClient(nullptr);
        client.stop();
        QTRY_VERIFY_WITH_TIMEOUT(groupMembers(group).isEmpty(), 10000);
    }
};

QTEST_MAIN(tst_AgentWindow)
#include "tst_agentwindow.moc"

// The Agent panel (issue 38) with the real scripted agent (tests/acp/mock-agent.mjs, on the
// official ACP SDK) through a real AcpClient: what the panel shows of each scenario, what it
// sends, and what the agent received (its ACP_MOCK_LOG). Offscreen.

#include "../acp/MockAgent.h"

#include "agent/AgentChatView.h"
#include "agent/AgentPanel.h"
#include "agent/AgentPromptEdit.h"
#include "agent/ChatDocument.h"
#include "agent/ContextChips.h"

#include "acp/AgentSession.h"
#include "acp/PermissionRequest.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QCompleter>
#include <QJsonArray>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTextBlock>
#include <QTextDocument>
#include <QToolButton>

class tst_AgentPanel : public QObject
{
    Q_OBJECT

    std::unique_ptr<MockAgent> m_mock;
    std::unique_ptr<AcpClient> m_client;
    std::unique_ptr<AgentPanel> m_panel;
    qint64 m_group = 0;

    // The mock started with `flags`, followed by the panel; its session open and shown.
    AgentSession *start(const QStringList &flags, bool withSession = true)
    {
        m_client = std::make_unique<AcpClient>();
        m_panel->setClient(m_client.get());
        if (!startReady(*m_client, m_mock->command(flags)))
            return nullptr;
        m_group = m_client->process()->processGroup();
        if (!withSession)
            return nullptr;
        AgentSession *session = openSession(*m_client);
        m_panel->setSession(session);
        return session;
    }
    QString chatText() const
    {
        m_panel->chat()->flush();
        return m_panel->chat()->document()->toPlainText();
    }
    bool waitForChat(const QString &text, int ms = 15000) const
    {
        return QTest::qWaitFor([&] { return chatText().contains(text); }, ms);
    }
    bool waitForTurnEnd(AgentSession *session, int ms = 20000) const
    {
        return QTest::qWaitFor([&] { return !session->isPrompting(); }, ms);
    }
    // The first fragment of the chat whose text is `text`.
    QTextCharFormat formatOf(const QString &text) const
    {
        for (QTextBlock block = m_panel->chat()->document()->begin(); block.isValid(); block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                if (it.fragment().text() == text)
                    return it.fragment().charFormat();
            }
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        SKIP_UNLESS_MOCK_RUNS();
        QStandardPaths::setTestModeEnabled(true);
    }
    void init()
    {
        m_mock = std::make_unique<MockAgent>();
        m_panel = std::make_unique<AgentPanel>();
        m_panel->resize(520, 760);
        m_panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    }
    void cleanup()
    {
        m_panel.reset();
        m_client.reset();
        expectGroupGone(m_group);
    }

    void slowStartIsShownAsStartingThenReady()
    {
        m_client = std::make_unique<AcpClient>();
        m_panel->setClient(m_client.get());
        QVERIFY(m_panel->stateText().contains(QStringLiteral("No agent is running")) == false);
        m_client->start(m_mock->command({QStringLiteral("--slow-start"), QStringLiteral("1500")}), QDir::tempPath());
        m_group = m_client->process()->processGroup();
        QVERIFY2(m_panel->stateText().startsWith(QStringLiteral("Starting mock-agent")), qPrintable(m_panel->stateText()));
        QVERIFY(!m_panel->startButton()->isEnabled());
        QVERIFY(m_panel->stopButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(m_panel->stateText().contains(QStringLiteral("Mock Agent 1.0.0 is ready")), 20000);
    }

    void streamedChunksAppearInOrderRenderedWithTheLispBlockHighlighted()
    {
        AgentSession *session = start({QStringLiteral("--stream"), QStringLiteral("30"), QStringLiteral("--chunk-delay"), QStringLiteral("15")});
        QVERIFY(session);
        QStringList seen; // the chat after each drawing: the answer grows while the turn runs
        ChatDocument *chat = m_panel->chat();
        const auto watching = connect(chat, &ChatDocument::updated, this, [&] { seen << chat->document()->toPlainText(); });
        const auto stopWatching = qScopeGuard([&] { disconnect(watching); });
        QVERIFY(m_panel->sendPrompt(QStringLiteral("Show me squares")));
        QVERIFY(waitForTurnEnd(session));
        const QString text = chatText();
        // Markdown rendered: no "#" before the heading, no "**" around the bold, the code's
        // fences gone.
        QVERIFY2(text.contains(QStringLiteral("Squares\n")) && !text.contains(QStringLiteral("# Squares")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("it gives 144")));
        QVERIFY(!text.contains(QStringLiteral("**")) && !text.contains(QStringLiteral("```")));
        // In order.
        const qsizetype here = text.indexOf(QStringLiteral("Here is a function"));
        const qsizetype code = text.indexOf(QStringLiteral("(defun square (x)"));
        const qsizetype last = text.indexOf(QStringLiteral("Line 30 of the answer."));
        QVERIFY2(here >= 0 && code > here && last > code, qPrintable(text));
        QCOMPARE(text.count(QStringLiteral("Line 8 of the answer.")), 1);
        // Streamed: the chat showed part of the answer before its end.
        QVERIFY(std::any_of(seen.cbegin(), seen.cend(), [](const QString &s) {
            return s.contains(QStringLiteral("Line 9 of")) && !s.contains(QStringLiteral("Line 30 of"));
        }));
        // The Lisp block coloured by the window's highlighter: "defun" as a defining form.
        const QTextCharFormat defun = formatOf(QStringLiteral("defun"));
        QCOMPARE(defun.foreground().color(), HighlightTheme::light().format(LispTokenKind::DefiningForm).foreground().color());
        QVERIFY(defun.fontFixedPitch());
        // And its link to the REPL's input.
        QSignalSpy copied(m_panel.get(), &AgentPanel::codeToInputRequested);
        QVERIFY(text.contains(QStringLiteral("Copy to the REPL input")));
        QTextCursor link = m_panel->chat()->document()->find(QStringLiteral("Copy to the REPL input"));
        Q_EMIT m_panel->chatView()->anchorClicked(QUrl(link.charFormat().anchorHref()));
        QCOMPARE(copied.size(), 1);
        QCOMPARE(copied.first().first().toString(), QStringLiteral("(defun square (x)\n  (* x x))"));
    }

    void aThemeSwitchRecoloursTheChatAtOnce()
    {
        AgentSession *session = start({QStringLiteral("--stream"), QStringLiteral("7")});
        QVERIFY(session);
        QVERIFY(m_panel->sendPrompt(QStringLiteral("Show me squares")));
        QVERIFY(waitForTurnEnd(session));
        QVERIFY(waitForChat(QStringLiteral("(defun square (x)")));
        const QColor light = HighlightTheme::light().format(LispTokenKind::DefiningForm).foreground().color();
        const QColor dark = HighlightTheme::dark().format(LispTokenKind::DefiningForm).foreground().color();
        QCOMPARE(formatOf(QStringLiteral("defun")).foreground().color(), light);
        const QPalette before = QApplication::palette();
        QPalette night = before;
        night.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        night.setColor(QPalette::Text, QColor(0xdc, 0xdc, 0xdc));
        night.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        QApplication::setPalette(night); // what File > Settings' theme does (ui/window/WindowTheme)
        const auto restore = qScopeGuard([&] { QApplication::setPalette(before); });
        QTRY_COMPARE(formatOf(QStringLiteral("defun")).foreground().color(), dark);
        QVERIFY(chatText().contains(QStringLiteral("it gives 144"))); // the same chat, drawn again
        QCOMPARE(chatText().count(QStringLiteral("(defun square (x)")), 1);
    }

    void aLongChatKeepsItsNewestTurnsDrawnAndTheRestBehindALink()
    {
        AgentSession *session = start({});
        QVERIFY(session);
        m_panel->chat()->setMaxTurnsShown(3);
        for (const char *word : {"one", "two", "three", "four", "five"}) {
            QVERIFY(m_panel->sendPrompt(QString::fromLatin1(word)));
            QVERIFY(waitForTurnEnd(session));
        }
        QVERIFY(waitForChat(QStringLiteral("You said: five")));
        QVERIFY2(!chatText().contains(QStringLiteral("You said: one")) && !chatText().contains(QStringLiteral("You said: two")), qPrintable(chatText()));
        QVERIFY(chatText().contains(QStringLiteral("You said: three")));
        QVERIFY2(chatText().trimmed().startsWith(QStringLiteral("[+] Show 2 earlier turns")), qPrintable(chatText()));
        QCOMPARE(m_panel->chat()->hiddenTurns(), 2);
        const QTextCursor link = m_panel->chat()->document()->find(QStringLiteral("[+] Show 2 earlier turns"));
        Q_EMIT m_panel->chatView()->anchorClicked(QUrl(link.charFormat().anchorHref()));
        QVERIFY(chatText().contains(QStringLiteral("You said: one")));
        QCOMPARE(m_panel->chat()->hiddenTurns(), 0);
    }

    void everyUpdateKindIsShownAndAnUnknownOneLoggedNotShown()
    {
        AgentSession *session = start({QStringLiteral("--updates-all"), QStringLiteral("--unknown-update")});
        QVERIFY(session);
        QVERIFY(m_panel->sendPrompt(QStringLiteral("Everything")));
        QVERIFY(waitForTurnEnd(session));
        const QString text = chatText();
        QVERIFY2(text.contains(QStringLiteral("Replayed question")), qPrintable(text)); // user_message_chunk
        QVERIFY(text.contains(QStringLiteral("Working on it.")));                        // agent_message_chunk
        // agent_thought_chunk: folded, its words behind the link.
        QVERIFY(text.contains(QStringLiteral("\u25b8 Thought \u00b7 3 words")));
        QVERIFY(!text.contains(QStringLiteral("Let me think.")));
        QTextCursor fold = m_panel->chat()->document()->find(QStringLiteral("\u25b8 Thought"));
        Q_EMIT m_panel->chatView()->anchorClicked(QUrl(fold.charFormat().anchorHref()));
        QVERIFY(chatText().contains(QStringLiteral("Let me think.")));
        // tool_call and tool_call_update: kind, name, status, the content, the diff, the terminal.
        QVERIFY(text.contains(QStringLiteral("edit  Edit square.lisp  \u00b7 done")));
        QVERIFY(text.contains(QStringLiteral("Edited.")));
        QVERIFY(text.contains(QStringLiteral("+  (* x x))")));
        QVERIFY(text.contains(QStringLiteral("-(defun square (x) x)")));
        QVERIFY(text.contains(QStringLiteral("Terminal term-1")));
        // plan: the checklist.
        QCOMPARE(m_panel->planText(), QStringLiteral("Plan \u00b7 1 of 3 done\n\u2611 Read the file\n\u25d0 Change the function\n\u2610 Run the tests"));
        // available_commands_update: offered in the prompt box.
        QCOMPARE(m_panel->promptBox()->commands().commands().size(), 2);
        // usage_update.
        QCOMPARE(m_panel->usageText(), QStringLiteral("1,234 of 200k tokens \u00b7 $0.0123"));
        // The unknown kind and fields: in the log, not in the chat, no error.
        QTRY_VERIFY(m_panel->logText().contains(QStringLiteral("hologram_update")));
        QVERIFY(m_panel->logText().contains(QStringLiteral("colour")));
        QVERIFY(!chatText().contains(QStringLiteral("hologram")));
        QVERIFY(chatText().contains(QStringLiteral("Before. After.")));
        QVERIFY(m_panel->logButton()->text().startsWith(QStringLiteral("Log: ")));
        QVERIFY(!m_panel->logText().isEmpty());
    }

    void aPermissionWithADiffSaysAwaitingApprovalThenWhatWasChosen()
    {
        AgentSession *session = start({QStringLiteral("--permission")});
        QVERIFY(session);
        QPointer<PermissionRequest> asked;
        connect(session, &AgentSession::permissionRequested, this, [&](PermissionRequest *request) { asked = request; });
        QVERIFY(m_panel->sendPrompt(QStringLiteral("Fix square")));
        QTRY_VERIFY_WITH_TIMEOUT(asked, 15000);
        QVERIFY(waitForChat(QStringLiteral("awaiting your approval")));
        const int row = session->conversation()->indexOfToolCall(asked->toolCall().id);
        QString shown = m_panel->chat()->entryText(row);
        QVERIFY2(shown.contains(QStringLiteral("Edit square.lisp")) && shown.contains(QStringLiteral("+  (* x x))")), qPrintable(shown));
        // The approval bar's choice (agent-host's): the row says what it was.
        QVERIFY(asked->select(QStringLiteral("allow-once")));
        QVERIFY(waitForTurnEnd(session));
        QTRY_VERIFY(m_panel->chat()->entryText(row).contains(QStringLiteral("\u00b7 done")));
        shown = m_panel->chat()->entryText(row);
        QVERIFY2(shown.contains(QStringLiteral("you allowed it once")) && !shown.contains(QStringLiteral("awaiting")), qPrintable(shown));
        QCOMPARE(m_mock->events(QStringLiteral("permission-answer")).size(), 1);
    }

    void escapeDuringAPermissionCancelsTheTurnAndThePermission()
    {
        AgentSession *session = start({QStringLiteral("--cancel-during-permission")});
        QVERIFY(session);
        QVERIFY(m_panel->sendPrompt(QStringLiteral("Fix square")));
        QVERIFY(waitForChat(QStringLiteral("awaiting your approval")));
        QCOMPARE(m_panel->sendButton()->text(), QStringLiteral("Stop"));
        m_panel->promptBox()->setFocus();
        QTest::keyClick(m_panel->promptBox(), Qt::Key_Escape);
        QVERIFY(waitForTurnEnd(session));
        QVERIFY(waitForChat(QStringLiteral("Stopped: the agent ended its turn when asked.")));
        QVERIFY(chatText().contains(QStringLiteral("not asked any more: the turn was stopped")));
        QTRY_COMPARE(m_mock->events(QStringLiteral("permission-after-cancel")).size(), 1);
        QVERIFY(m_mock->events(QStringLiteral("permission-after-cancel")).first().value(QStringLiteral("ok")).toBool());
        QCOMPARE(m_panel->sendButton()->text(), QStringLiteral("Send"));
        QCOMPARE(QApplication::focusWidget(), m_panel->promptBox());
    }

    void authRequiredShowsLoginButtonsThatAskTheHost()
    {
        start({QStringLiteral("--auth-required")}, false);
        std::optional<Acp::Error> error;
        QVERIFY(!openSession(*m_client, {}, &error));
        QVERIFY(error && error->isAuthRequired());
        m_panel->setAuthMethods(m_client->capabilities().authMethods); // as the host does
        const QStringList buttons = m_panel->loginButtons();
        QVERIFY2(buttons.contains(QStringLiteral("Log in to the mock agent (in a terminal)")), qPrintable(buttons.join(u'|')));
        QSignalSpy login(m_panel.get(), &AgentPanel::loginRequested);
        for (QPushButton *button : m_panel->findChildren<QPushButton *>(QStringLiteral("loginButton"))) {
            if (button->text().startsWith(QStringLiteral("Log in to the mock agent")))
                button->click();
        }
        QCOMPARE(login.size(), 1);
        QCOMPARE(login.first().first().value<Acp::AuthMethod>().id, QStringLiteral("mock-login"));
        m_panel->setAuthMethods({});
        QVERIFY(m_panel->loginButtons().isEmpty());
    }

    void aCrashMidTurnSaysSoWithItsLastWordsAndOffersRestart()
    {
        m_panel->setAgents({m_mock->command()}, QStringLiteral("mock-agent"));
        AgentSession *session = start({QStringLiteral("--crash-on-prompt")});
        QVERIFY(session);
        QSignalSpy restart(m_panel.get(), &AgentPanel::restartRequested);
        QVERIFY(m_panel->sendPrompt(QStringLiteral("Go")));
        QVERIFY(waitForTurnEnd(session));
        QVERIFY(waitForChat(QStringLiteral("exited with status 3")));
        QVERIFY(chatText().contains(QStringLiteral("lost my train of thought")));
        QCOMPARE(chatText().count(QStringLiteral("exited with status 3")), 1);
        QTRY_VERIFY(m_panel->stateText().contains(QStringLiteral("exited with status 3: mock-agent: fatal: lost my train of thought")));
        QVERIFY(m_panel->restartButton()->isEnabled());
        QVERIFY(m_panel->startButton()->isEnabled());
        m_panel->restartButton()->click();
        QCOMPARE(restart.size(), 1);
        QCOMPARE(QApplication::focusWidget(), m_panel->promptBox());
    }

    void garbageLinesAreLoggedAndTheChatIsFine()
    {
        AgentSession *session = start({QStringLiteral("--garbage")});
        QVERIFY(session);
        QVERIFY(m_panel->logText().contains(QStringLiteral("this line is not JSON")) || m_panel->logText().contains(QStringLiteral("not JSON")));
        QVERIFY(m_panel->sendPrompt(QStringLiteral("hello")));
        QVERIFY(waitForTurnEnd(session));
        QVERIFY(waitForChat(QStringLiteral("You said: hello")));
        QVERIFY(!chatText().contains(QStringLiteral("JSON")));
    }

    void modesAreShownAndChoosingOneAsksTheHost()
    {
        AgentSession *session = start({QStringLiteral("--modes")});
        QVERIFY(session);
        QCOMPARE(m_panel->modeNames(), (QStringList{QStringLiteral("Always ask"), QStringLiteral("Accept edits"), QStringLiteral("Plan"), QStringLiteral("Auto")}));
        QCOMPARE(m_panel->currentModeName(), QStringLiteral("Always ask"));
        QVERIFY(m_panel->modeBox()->isVisible());
        QSignalSpy chosen(m_panel.get(), &AgentPanel::modeChosen);
        m_panel->modeBox()->setFocus();
        QTest::keyClick(m_panel->modeBox(), Qt::Key_Down); // a combo box chooses with the arrows
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen.first().first().toString(), QStringLiteral("acceptEdits"));
        QCOMPARE(QApplication::focusWidget(), m_panel->promptBox());
        session->setMode(QStringLiteral("plan")); // the host's answer
        QTRY_COMPARE(m_panel->currentModeName(), QStringLiteral("Plan"));
    }

    void slashCompletesTheCommandsTheAgentAnnounced()
    {
        AgentSession *session = start({QStringLiteral("--updates-all")});
        QVERIFY(session);
        QVERIFY(m_panel->sendPrompt(QStringLiteral("commands please")));
        QVERIFY(waitForTurnEnd(session));
        AgentPromptEdit *box = m_panel->promptBox();
        box->setFocus();
        QTest::keyClick(box, Qt::Key_Slash);
        QCOMPARE(box->offered(), (QStringList{QStringLiteral("/explain \u2014 Explains the selection (what to explain)"),
                                              QStringLiteral("/test \u2014 Runs the tests")}));
        QTest::keyClick(box, Qt::Key_T);
        QCOMPARE(box->offered(), QStringList{QStringLiteral("/test \u2014 Runs the tests")});
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(box->toPlainText(), QStringLiteral("/test "));
        QVERIFY(!box->completer()->popup()->isVisible());
        QTest::keyClick(box, Qt::Key_Return); // now Enter sends it
        QVERIFY(waitForTurnEnd(session));
        const QJsonArray prompt = m_mock->received(QStringLiteral("session/prompt")).last().value(QStringLiteral("params")).toObject().value(QStringLiteral("prompt")).toArray();
        QCOMPARE(prompt.first().toObject().value(QStringLiteral("text")).toString(), QStringLiteral("/test "));
    }

    void contextChipsGoWithThePromptAsEmbeddedResources()
    {
        AgentSession *session = start({});
        QVERIFY(session);
        const QString form = QStringLiteral("(defun square (x) (* x x))");
        QSignalSpy chipsChanged(m_panel->chips(), &ContextChips::changed);
        m_panel->addContext(Acp::ContentBlock::fromResource(QStringLiteral("lisp-duet://definition/CL-USER::SQUARE"), form,
                                                            QStringLiteral("text/x-common-lisp")),
                            QStringLiteral("function SQUARE"));
        QCOMPARE(m_panel->chips()->labels(), QStringList{QStringLiteral("function SQUARE")});
        QVERIFY(m_panel->chips()->isVisible());
        QVERIFY(m_panel->sendPrompt(QStringLiteral("Explain this")));
        QVERIFY(waitForTurnEnd(session));
        QCOMPARE(m_panel->chips()->count(), 0);
        QCOMPARE(chipsChanged.size(), 2); // added, then sent and cleared
        const QJsonArray prompt = m_mock->received(QStringLiteral("session/prompt")).last().value(QStringLiteral("params")).toObject().value(QStringLiteral("prompt")).toArray();
        QCOMPARE(prompt.size(), 2);
        const QJsonObject resource = prompt.at(1).toObject();
        QCOMPARE(resource.value(QStringLiteral("type")).toString(), QStringLiteral("resource"));
        const QJsonObject inner = resource.value(QStringLiteral("resource")).toObject();
        QCOMPARE(inner.value(QStringLiteral("uri")).toString(), QStringLiteral("lisp-duet://definition/CL-USER::SQUARE"));
        QCOMPARE(inner.value(QStringLiteral("mimeType")).toString(), QStringLiteral("text/x-common-lisp"));
        QCOMPARE(inner.value(QStringLiteral("text")).toString(), form);
        QVERIFY(waitForChat(QStringLiteral("Resource: lisp-duet://definition/CL-USER::SQUARE (26 characters)")));
        QVERIFY(chatText().contains(QStringLiteral("\u2295 definition CL-USER::SQUARE (26 characters)")));
    }

    void enterSendsShiftEnterOpensALineUpAndDownWalkTheHistory()
    {
        AgentSession *session = start({});
        QVERIFY(session);
        AgentPromptEdit *box = m_panel->promptBox();
        QCOMPARE(QApplication::focusWidget(), box); // the panel shown: the keyboard is in the prompt box
        QTest::keyClicks(box, QStringLiteral("first"));
        QTest::keyClick(box, Qt::Key_Return);
        QVERIFY(waitForTurnEnd(session));
        QVERIFY(waitForChat(QStringLiteral("You said: first")));
        QVERIFY(box->toPlainText().isEmpty());
        QTest::keyClicks(box, QStringLiteral("line one"));
        QTest::keyClick(box, Qt::Key_Return, Qt::ShiftModifier);
        QTest::keyClicks(box, QStringLiteral("line two"));
        QCOMPARE(box->toPlainText(), QStringLiteral("line one\nline two"));
        QTest::keyClick(box, Qt::Key_Return);
        QVERIFY(waitForTurnEnd(session));
        QVERIFY(waitForChat(QStringLiteral("You said: line one")));
        const QJsonArray prompt = m_mock->received(QStringLiteral("session/prompt")).last().value(QStringLiteral("params")).toObject().value(QStringLiteral("prompt")).toArray();
        QCOMPARE(prompt.first().toObject().value(QStringLiteral("text")).toString(), QStringLiteral("line one\nline two"));
        QTest::keyClick(box, Qt::Key_Up);
        QCOMPARE(box->toPlainText(), QStringLiteral("line one\nline two"));
        QTest::keyClick(box, Qt::Key_Up); // the cursor is on the last line: Up moves it first
        QTest::keyClick(box, Qt::Key_Up);
        QCOMPARE(box->toPlainText(), QStringLiteral("first"));
        QTest::keyClick(box, Qt::Key_Down);
        QCOMPARE(box->toPlainText(), QStringLiteral("line one\nline two"));
        QTest::keyClick(box, Qt::Key_Down);
        QTest::keyClick(box, Qt::Key_Down);
        QCOMPARE(box->toPlainText(), QString());
    }
};

QTEST_MAIN(tst_AgentPanel)
#include "tst_agentpanel.moc"

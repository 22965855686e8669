// Told and shown true, third pass (issue 42), with the real engine, Session, McpServer and
// window offscreen, and agents fed through real peers. Whoever acts, every other party is told
// in its own words: a reset by the person, by another agent, or a crash is one line in every
// other agent's next digest (never again), one line in the window, and the owner of a job it
// ended reads who did it; the new engine's init file is told to agents as the person's, and
// Lisp Duet's own setup (Swank) not at all.

#include "UiTestSupport.h"

#include "access/ApprovalBar.h"
#include "console/ConsoleWidget.h"
#include "console/LispConsole.h"
#include "console/RunningJobBar.h"
#include "console/TranscriptView.h"
#include "definitions/DefinitionsModel.h"
#include "definitions/DefinitionsPanel.h"
#include "debugger/DebuggerPanel.h"
#include "../common/TestFiles.h"

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTimer>
#include <QHeaderView>
#include <QTreeView>
#include <QTreeWidget>

#include <csignal>

class TestToldTrue : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<AgentClient> m_alpha;
    std::unique_ptr<AgentClient> m_beta;
    QTemporaryDir m_home;

    Session &session() { return m_live->session; }
    QString transcript() const
    {
        m_window->console()->transcript()->flushNow();
        return m_window->console()->transcript()->toPlainText();
    }
    static QString allText(const QJsonObject &response)
    {
        QStringList texts;
        for (const QJsonValue &part : response.value("result").toObject().value("content").toArray())
            texts << part.toObject().value("text").toString();
        return texts.join('\n');
    }
    // What `agent` is told with the answer to a call that has nothing to do with it.
    static QString digestOf(AgentClient &agent)
    {
        const QString all = allText(agent.response(agent.evaluate(QStringLiteral("(+ 1 1)")), 60000));
        const qsizetype at = all.indexOf(QStringLiteral("[Session activity since your last call]"));
        return at < 0 ? QString() : all.mid(at);
    }
    bool waitReady()
    {
        return QTest::qWaitFor([this] { return session().isEngineReady() && !session().current() && session().queuedCount() == 0; }, 60000);
    }
    // A fresh engine, other than `pid`, ready and idle.
    bool waitNewEngine(qint64 pid)
    {
        return QTest::qWaitFor([&] { return session().isEngineReady() && session().enginePid() != pid; }, 60000) && waitReady();
    }
    // Session ▸ Reset session…, and Yes in the question it asks.
    void resetFromTheMenu()
    {
        QAction *reset = nullptr;
        for (QAction *action : m_window->findChildren<QAction *>()) {
            if (action->text() == QStringLiteral("&Reset session\u2026"))
                reset = action;
        }
        QVERIFY(reset);
        QTimer::singleShot(0, this, [] {
            (void)QTest::qWaitFor([] { return qobject_cast<QMessageBox *>(QApplication::activeModalWidget()) != nullptr; }, 5000);
            if (auto *question = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()))
                question->button(QMessageBox::Yes)->click();
        });
        reset->trigger();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_home.isValid());
        m_live = std::make_unique<LiveSession>();
        QVERIFY2(m_live->engine.isReady(), "the engine did not start");
        m_live->tools.add(resetSessionTool(&m_live->session));
        m_live->tools.add(loadSystemTool(&m_live->session, &m_live->jobs, &m_live->rooms.libraries));
        m_window = m_live->showWindow(QSize(1400, 860));
        QVERIFY(m_window);
        m_alpha = std::make_unique<AgentClient>(&m_live->server, QStringLiteral("agent-alpha"));
        m_beta = std::make_unique<AgentClient>(&m_live->server, QStringLiteral("agent-beta"));
        // Each agent has been told of the start already: what follows is news.
        (void)digestOf(*m_alpha);
        (void)digestOf(*m_beta);
    }

    void cleanupTestCase()
    {
        m_alpha.reset();
        m_beta.reset();
        m_window.reset();
        m_live.reset();
    }

    // Before: the agent's next answer had no digest at all ("=> NIL" for its own helper), or
    // only "load-init ; No values" and "editor-listen ; No values"; the window read "reset by
    // You" and a red "; The Lisp engine stopped ..." line.
    void aResetByThePersonIsToldToEveryAgentOnceInItsWords()
    {
        const QString initFile = m_home.filePath(QStringLiteral("init.lisp"));
        QVERIFY(TestFiles::write(initFile, "(defun person-helper () :ok)\n"));
        m_live->rooms.initFile.setFiles({initFile});
        const QJsonObject defined = m_alpha->response(m_alpha->evaluate(QStringLiteral("(defun agent-helper () :mine)")));
        QCOMPARE(AgentClient::resultText(defined), QStringLiteral("=> AGENT-HELPER"));
        (void)digestOf(*m_beta);

        const qint64 pid = session().enginePid();
        resetFromTheMenu();
        QVERIFY(waitNewEngine(pid));
        const QString alpha = digestOf(*m_alpha);
        QVERIFY2(QRegularExpression(QStringLiteral("\n- the person at \\d\\d:\\d\\d:\\d\\d: reset the session: the Lisp engine is a fresh "
                                                   "one; every definition, loaded system and result_id is gone, yours too\\.\n?"))
                     .match(alpha).hasMatch(),
                 qPrintable(alpha));
        QVERIFY2(alpha.contains(QStringLiteral(": loaded the person's init file %1 in the new Lisp engine.").arg(InitFile::shortPath(initFile))),
                 qPrintable(alpha + transcript()));
        QVERIFY2(alpha.indexOf(QStringLiteral("reset the session")) < alpha.indexOf(QStringLiteral("init file")), "in the order they happened");
        for (const char *internal : {"load-init", "editor-listen", "No values", "your init file", "reset by"})
            QVERIFY2(!alpha.contains(QLatin1String(internal)), internal);
        QVERIFY2(digestOf(*m_beta).contains(QStringLiteral("- the person at ")), "every agent is told");
        QVERIFY2(!digestOf(*m_alpha).contains(QStringLiteral("reset")), "told once");

        const QString text = transcript();
        QVERIFY2(text.contains(QStringLiteral("; You reset the session: every definition is gone.")), qPrintable(text.right(400)));
        QVERIFY2(!text.contains(QStringLiteral("reset by You")), qPrintable(text.right(400)));
        QVERIFY2(!text.contains(QStringLiteral("The Lisp engine stopped")), qPrintable(text.right(400)));
        m_live->rooms.initFile.setFiles({});
    }

    // Before: agent-beta's reset-session ("start clean") left agent-alpha's next answer "=> NIL"
    // with nothing said.
    void anAgentsResetIsToldToTheOtherAgentsAndThePerson()
    {
        const qint64 pid = session().enginePid();
        const QJsonObject reset = m_beta->response(m_beta->callTool(QStringLiteral("reset-session"), {{"description", "start clean"}}), 60000);
        QVERIFY2(!AgentClient::isError(reset), qPrintable(allText(reset)));
        QVERIFY(waitNewEngine(pid));
        const QString alpha = digestOf(*m_alpha);
        QVERIFY2(QRegularExpression(QStringLiteral("- agent-beta at \\d\\d:\\d\\d:\\d\\d: reset the session \\(start clean\\): the Lisp "
                                                   "engine is a fresh one; every definition, loaded system and result_id is gone, yours too\\."))
                     .match(alpha).hasMatch(),
                 qPrintable(alpha));
        QVERIFY2(!digestOf(*m_beta).contains(QStringLiteral("reset the session")), "the agent that reset knows it from its answer");
        QVERIFY2(transcript().contains(QStringLiteral("; agent-beta reset the session \u2014 start clean: every definition is gone.")),
                 qPrintable(transcript().right(400)));
    }

    // A job a reset ends is told to its owner in its own words, and the reset is not told twice
    // in that answer.
    void anAgentsJobEndedByThePersonsResetSaysWhoDidIt()
    {
        const int call = m_alpha->callTool(QStringLiteral("evaluate-lisp"), {{"code", "(sleep 30)"}, {"wait_seconds", 60}});
        QVERIFY(QTest::qWaitFor([this] { return session().current() != nullptr; }, 20000));
        resetFromTheMenu();
        const QJsonObject ended = m_alpha->response(call, 60000);
        const QString all = allText(ended);
        QVERIFY2(AgentClient::resultText(ended).startsWith(QStringLiteral("[ERROR] ENGINE-RESTARTED\nThe person reset the session while this "
                                                                          "evaluation ran, so it ended there.")),
                 qPrintable(all));
        QVERIFY2(!all.contains(QStringLiteral("- the person at")), qPrintable(all));
        QVERIFY(waitReady());
    }

    // The person's own evaluation, ended by their own reset: "You", and no red line.
    void thePersonsEvaluationEndedByTheirResetSaysYou()
    {
        m_window->console()->evaluate(QStringLiteral("(sleep 30)"));
        QVERIFY(QTest::qWaitFor([this] { return session().current() != nullptr; }, 20000));
        resetFromTheMenu();
        QVERIFY(QTest::qWaitFor([this] { return transcript().contains(QStringLiteral("You reset the session while this evaluation ran")); }, 20000));
        QVERIFY(waitReady());
        QVERIFY2(!transcript().contains(QStringLiteral("The Lisp engine stopped")), qPrintable(transcript().right(400)));
    }

    // A crash is one event too: every agent's next digest, one red line in the window.
    void aCrashIsToldToEveryAgentAndOnceInTheWindow()
    {
        (void)digestOf(*m_alpha);
        (void)digestOf(*m_beta);
        const qint64 pid = session().enginePid();
        QVERIFY(pid > 0);
        ::kill(pid_t(pid), SIGKILL);
        QVERIFY(waitNewEngine(pid));
        for (AgentClient *agent : {m_alpha.get(), m_beta.get()}) {
            const QString digest = digestOf(*agent);
            QVERIFY2(QRegularExpression(QStringLiteral("- Lisp Duet at \\d\\d:\\d\\d:\\d\\d: the Lisp engine stopped \\(.*\\) and a fresh one "
                                                       "started: every definition, loaded system and result_id is gone, yours too\\."))
                         .match(digest).hasMatch(),
                     qPrintable(digest));
        }
        const QString text = transcript();
        QCOMPARE(text.count(QStringLiteral("The Lisp engine stopped")), 1);
        QVERIFY2(text.contains(QStringLiteral("a fresh one is starting: every definition of the session is gone.")), qPrintable(text.right(300)));
        QVERIFY2(!text.contains(QStringLiteral(" is ready.")), qPrintable(text.right(300)));
    }

    // Before: after Interrupt, Approve or Deny the focus landed in "Filter definitions", and the
    // person's next keys went there.
    void focusGoesBackToTheInputAfterInterruptApproveAndDeny()
    {
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        ConsoleWidget *input = m_window->console()->input();
        input->setFocus();
        m_window->console()->evaluate(QStringLiteral("(sleep 20)"));
        RunningJobBar *bar = m_window->console()->runningJobBar();
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 5000);
        QTest::mouseClick(bar->interruptButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!session().current() && !bar->isVisible(), 10000);
        QCOMPARE(QApplication::focusWidget(), input);
        for (const bool approve : {true, false}) {
            m_live->access.setMode(AccessMode::Ask);
            const int call = m_alpha->evaluate(QStringLiteral("(+ 2 3)"));
            ApprovalBar *approval = m_window->console()->approvalBar();
            QTRY_VERIFY_WITH_TIMEOUT(approval->isVisible(), 10000);
            if (approve) {
                QTest::mouseClick(approval->approveButton(), Qt::LeftButton);
            } else {
                QTest::mouseClick(approval->reasonEdit(), Qt::LeftButton);
                QTest::keyClicks(approval->reasonEdit(), QStringLiteral("not now"));
                QTest::keyClick(approval->reasonEdit(), Qt::Key_Return);
            }
            QVERIFY(!m_alpha->response(call).isEmpty());
            QTRY_VERIFY(!approval->isVisible());
            QVERIFY2(QApplication::focusWidget() == input,
                     qPrintable(QStringLiteral("%1: the focus is in %2").arg(approve ? "approve" : "deny", QApplication::focusWidget() ? QApplication::focusWidget()->objectName() + QLatin1Char(' ') + QApplication::focusWidget()->metaObject()->className() : QStringLiteral("nothing"))));
        }
        m_live->access.setMode(AccessMode::Allow);
    }

    // Before: Enter while the transcript was scrolled up showed nothing: the person's own form
    // and its result stayed off-screen.
    void enterWhileScrolledUpShowsThePersonsFormAndResult()
    {
        m_window->console()->evaluate(QStringLiteral("(dotimes (i 120) (print i))"));
        QVERIFY(waitReady());
        TranscriptView *t = m_window->console()->transcript();
        t->flushNow();
        QScrollBar *bar = t->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        bar->setValue(0);
        ConsoleWidget *input = m_window->console()->input();
        input->setFocus();
        input->setPlainText(QStringLiteral("(+ 40 2)"));
        QTest::keyClick(input, Qt::Key_Return);
        QVERIFY(waitReady());
        QTRY_VERIFY(transcript().endsWith(QStringLiteral("CL-USER> (+ 40 2)\n=> 42\n")) || transcript().contains(QStringLiteral("=> 42")));
        t->flushNow();
        QCOMPARE(bar->value(), bar->maximum());
        // The result's line is in view.
        QTextBlock result = t->document()->lastBlock();
        while (result.isValid() && !result.text().contains(QStringLiteral("=> 42")))
            result = result.previous();
        QVERIFY(result.isValid());
        const QRect shown = t->cursorRect(QTextCursor(result));
        QVERIFY2(shown.top() >= 0 && shown.bottom() <= t->viewport()->height(), "the result is in view");
    }

    // Before: at the default size, names were cut to about ten letters since the Runs column
    // came ("describe-s…", "area (squ…", "COMMON-LI…").
    void definitionNamesAreReadableAtTheDefaultSize()
    {
        m_window->resize(1280, 800); // MainWindow's own default
        m_window->console()->evaluate(QStringLiteral(
            "(progn (defgeneric area (shape)) (defclass square () ((side :initarg :side :accessor side)))"
            " (defmethod area ((s square)) (* (side s) (side s)))"
            " (defun describe-shape (shape &optional (stream *standard-output*)) (format stream \"~a\" (area shape)))"
            " (defparameter *default-shape-size* 10))"));
        QVERIFY(waitReady());
        QTreeView *tree = m_window->definitionsPanel()->tree();
        const QFontMetrics metrics(tree->font());
        QTRY_VERIFY(tree->model()->rowCount() > 0);
        tree->expandAll();
        QTest::qWait(200);
        QStringList cut;
        const auto check = [&](const QModelIndex &index, const QString &mustShow) {
            const QRect shown = tree->visualRect(index);
            if (shown.width() - 8 < metrics.horizontalAdvance(mustShow))
                cut << QStringLiteral("%1 (%2 px of %3)").arg(mustShow).arg(shown.width()).arg(metrics.horizontalAdvance(mustShow));
        };
        for (int p = 0; p < tree->model()->rowCount(); ++p) {
            const QModelIndex package = tree->model()->index(p, 0);
            check(package, package.data().toString());
            for (int r = 0; r < tree->model()->rowCount(package); ++r) {
                const QModelIndex row = tree->model()->index(r, 0, package);
                const QString text = row.data().toString();
                // The name and a method's specializers, at least; a long lambda list may be cut.
                check(row, text.startsWith(QStringLiteral("area (")) ? text : text.section(QLatin1Char(' '), 0, 0));
            }
        }
        QVERIFY(saveScreenshotIfAsked(m_window.get(), QStringLiteral("definitions-names.png"), [t = m_window->console()->transcript()] { t->flushNow(); }));
        QStringList widths;
        for (int c = 0; c < tree->header()->count(); ++c)
            widths << QString::number(tree->header()->sectionSize(c));
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QStringLiteral(", ")) + QStringLiteral("; columns ") + widths.join(QLatin1Char(' ')) + QStringLiteral(" of ") + QString::number(tree->viewport()->width())));
        m_window->resize(1400, 860);
    }

    // Before: load-system ended "; No values" in the transcript, not what was loaded.
    void loadSystemEndsWithWhatWasLoaded()
    {
        const QString dir = m_home.filePath(QStringLiteral("tiny"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(TestFiles::write(dir + QStringLiteral("/told-tiny.asd"),
                                 "(asdf:defsystem \"told-tiny\" :version \"0.3\" :components ((:file \"tiny\") (:file \"more\")))\n"));
        QVERIFY(TestFiles::write(dir + QStringLiteral("/tiny.lisp"), "(defun told-tiny () 1)\n"));
        QVERIFY(TestFiles::write(dir + QStringLiteral("/more.lisp"), "(defun told-more () 2)\n"));
        m_window->console()->evaluate(QStringLiteral("(require :asdf)"));
        m_window->console()->evaluate(QStringLiteral("(progn (push #p\"%1/\" asdf:*central-registry*) nil)").arg(dir));
        QVERIFY(waitReady());
        const QJsonObject first = m_alpha->response(m_alpha->callTool(QStringLiteral("load-system"), {{"system", "told-tiny"}}), 120000);
        QVERIFY2(!first.isEmpty() && !first.value("result").toObject().value("isError").toBool(), qPrintable(allText(first)));
        QTRY_VERIFY2(transcript().contains(QStringLiteral("; Loaded told-tiny (version 0.3): 2 files.\n")), qPrintable(transcript().right(900) + allText(first)));
        const QJsonObject again = m_alpha->response(m_alpha->callTool(QStringLiteral("load-system"), {{"system", "told-tiny"}}), 60000);
        QVERIFY2(!again.isEmpty(), "the second load answered");
        QTRY_VERIFY2(transcript().contains(QStringLiteral("; told-tiny (version 0.3) was loaded already: no file needed loading.\n")),
                     qPrintable(transcript().right(400)));
        QVERIFY2(!transcript().right(400).contains(QStringLiteral("No values")), qPrintable(transcript().right(400)));
    }

    // Before: a printed line without its newline stayed hidden as "(no output yet)" while the
    // call ran.
    void aLineWithoutItsNewlineShowsWhileTheCallRuns()
    {
        const int call = m_alpha->evaluate(QStringLiteral("(progn (princ \"working on it\") (let ((end (+ (get-internal-real-time) (* 3 internal-time-units-per-second)))) (loop until (> (get-internal-real-time) end))) :done)"));
        RunningJobBar *bar = m_window->console()->runningJobBar();
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 5000);
        QLabel *output = bar->findChild<QLabel *>(QStringLiteral("runningJobOutput"));
        QVERIFY(output);
        QTRY_COMPARE_WITH_TIMEOUT(output->text(), QStringLiteral("working on it"), 2500);
        QVERIFY(!m_alpha->response(call).isEmpty());
        QVERIFY(waitReady());
    }

    // Before: the USE-VALUE value line showed with RETRY and ABORT alone.
    void theValuesLineShowsOnlyForARestartThatTakesValues()
    {
        const bool debuggedBefore = session().debugger()->debugsPerson();
        session().debugger()->setDebugDefaults(true, false); // as the app's settings have it by default
        DebuggerPanel *panel = m_window->debuggerPanel();
        auto *values = panel->findChild<QLineEdit *>(QStringLiteral("debuggerArguments"));
        QVERIFY(values);
        m_window->console()->evaluate(QStringLiteral("(error \"no value to give\")"));
        QTRY_VERIFY_WITH_TIMEOUT(panel->shown(), 10000);
        QVERIFY2(panel->restartTexts().join(QLatin1Char(' ')).contains(QStringLiteral("ABORT")), qPrintable(panel->restartTexts().join(QLatin1Char('\n'))));
        QVERIFY2(!values->isVisibleTo(panel), qPrintable(panel->restartTexts().join(QLatin1Char('\n'))));
        QVERIFY(panel->chooseRestart(int(panel->restartTexts().size()) - 1)); // ABORT
        QTRY_VERIFY_WITH_TIMEOUT(!panel->shown(), 10000);
        QVERIFY(waitReady());
        m_window->console()->evaluate(QStringLiteral("(restart-case (error \"give one\") (use-value (v) :report \"Use a value.\" v))"));
        QTRY_VERIFY_WITH_TIMEOUT(panel->shown(), 10000);
        QVERIFY(values->isVisibleTo(panel));
        QCOMPARE(values->placeholderText(), QStringLiteral("USE-VALUE's value, as Lisp: 42"));
        panel->setArguments(QStringLiteral("41"));
        QVERIFY(panel->chooseRestart(0));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->shown(), 10000);
        QVERIFY(waitReady());
        QTRY_VERIFY(transcript().contains(QStringLiteral("=> 41")));
        session().debugger()->setDebugDefaults(debuggedBefore, false);
    }

    // Before: a definition loaded from a file outside the project (the init file's) showed the
    // file's full path in By, which squeezed the names.
    void byNamesAFileOutsideTheProjectShortly()
    {
        const QString file = m_home.filePath(QStringLiteral("elsewhere/helpers.lisp"));
        QVERIFY(QDir().mkpath(QFileInfo(file).path()));
        QVERIFY(TestFiles::write(file, "(in-package :cl-user)\n\n(defun outside-helper () 1)\n"));
        m_window->console()->evaluate(QStringLiteral("(load \"%1\")").arg(file));
        QVERIFY(waitReady());
        DefinitionsModel *model = m_window->definitions();
        QModelIndex row;
        QVERIFY(QTest::qWaitFor([&] { row = model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("OUTSIDE-HELPER")); return row.isValid(); }, 10000));
        const QString by = model->data(row.siblingAtColumn(DefinitionsModel::ByColumn)).toString();
        const QString tip = model->data(row.siblingAtColumn(DefinitionsModel::ByColumn), Qt::ToolTipRole).toString();
        QVERIFY2(by == QStringLiteral("helpers.lisp:3"), qPrintable(by + QStringLiteral(" | ") + tip));
        QVERIFY2(tip.contains(file + QStringLiteral(":3")), qPrintable(tip));
    }

    // Before: the version list had no agent's why (only in a tooltip).
    void theVersionListSaysTheAgentsWhy()
    {
        m_window->setDefinitionLedger(&m_live->ledger);
        QVERIFY(!m_alpha->response(m_alpha->evaluate(QStringLiteral("(defun told-area (s) (* s s))"), QStringLiteral("square area"))).isEmpty());
        QVERIFY(!m_alpha->response(m_alpha->evaluate(QStringLiteral("(defun told-area (s) (* s s 1))"), QStringLiteral("keep it exact"))).isEmpty());
        DefinitionsModel *model = m_window->definitions();
        const DefinitionsModel::Definition *d = nullptr;
        QVERIFY(QTest::qWaitFor([&] {
            d = model->definition(model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("TOLD-AREA")));
            return d && d->versions >= 2;
        }, 10000));
        QVERIFY(m_window->definitionsPanel()->select(d->key));
        QTreeWidget *history = m_window->definitionsPanel()->history();
        QTRY_VERIFY(history->topLevelItemCount() >= 2);
        QVERIFY2(history->topLevelItem(0)->text(1).endsWith(QStringLiteral(" \u2014 keep it exact")), qPrintable(history->topLevelItem(0)->text(1)));
        QVERIFY2(history->topLevelItem(1)->text(1).endsWith(QStringLiteral(" \u2014 square area")), qPrintable(history->topLevelItem(1)->text(1)));
    }

    // Before: an accessor's generic function was listed as "height (clos::self)" (cut to
    // "height (clos::se…").
    void anAccessorsGenericFunctionReadsByItsParameterNames()
    {
        QVERIFY(!m_alpha->response(m_alpha->evaluate(QStringLiteral("(defclass told-box () ((height :accessor told-height :initarg :height)))"))).isEmpty());
        DefinitionsModel *model = m_window->definitions();
        QModelIndex row;
        QVERIFY(QTest::qWaitFor([&] { row = model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("TOLD-HEIGHT")); return row.isValid(); }, 10000));
        QCOMPARE(row.data().toString(), QStringLiteral("told-height (self)"));
    }
};

QTEST_MAIN(TestToldTrue)
#include "tst_toldtrue.moc"

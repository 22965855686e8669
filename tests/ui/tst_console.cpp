// The REPL console against the real engine: typing, multi-line input, history, completion,
// arglist hints, streaming output, errors and interrupts, checked in the transcript.

#include "UiTestSupport.h"

#include "console/ConsoleWidget.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QStandardPaths>
#include <QStringListModel>
#include <QTemporaryDir>
#include <QTextBlock>

class TestConsole : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<LispConsole> m_console;

    ConsoleWidget *input() const { return m_console->input(); }
    QString transcript() const
    {
        m_console->transcript()->flushNow();
        return m_console->transcript()->toPlainText();
    }
    bool waitForTranscript(const QString &text, int timeoutMs = 15000)
    {
        return QTest::qWaitFor([&] { return transcript().contains(text); }, timeoutMs);
    }
    bool waitIdle(int timeoutMs = 15000)
    {
        return QTest::qWaitFor([&] { return !m_live->session.current() && m_live->session.queuedCount() == 0; }, timeoutMs);
    }
    void type(const QString &text)
    {
        QTest::keyClicks(input(), text);
    }
    void enter(Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QTest::keyClick(input(), Qt::Key_Return, modifiers);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QFile::remove(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/history.jsonl"));
        m_live = std::make_unique<LiveSession>();
        QVERIFY2(m_live->engine.isReady(), "the engine did not start");
        m_console = std::make_unique<LispConsole>(&m_live->session);
        m_console->resize(900, 600);
        m_console->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_console.get()));
    }

    void cleanupTestCase()
    {
        m_console.reset();
        m_live.reset();
    }

    void init()
    {
        input()->clear();
        input()->setFocus();
    }

    void enterOnACompleteFormEvaluatesIt()
    {
        type(QStringLiteral("(+ 1 2)"));
        enter();
        QVERIFY(input()->toPlainText().isEmpty());
        QVERIFY(waitForTranscript(QStringLiteral("=> 3")));
        QVERIFY(transcript().contains(QStringLiteral("CL-USER> (+ 1 2)")));
    }

    void enterOnAnIncompleteFormOpensAnIndentedLine()
    {
        type(QStringLiteral("(defun twice (x)"));
        enter();
        QCOMPARE(input()->toPlainText(), QStringLiteral("(defun twice (x)\n  "));
        type(QStringLiteral("(* x 2))"));
        enter();
        QVERIFY(input()->toPlainText().isEmpty());
        QVERIFY(waitForTranscript(QStringLiteral("=> TWICE")));
        QVERIFY(transcript().contains(QStringLiteral("(defun twice (x)\n  (* x 2))")));
    }

    void shiftEnterAlwaysOpensANewLine()
    {
        const QString before = transcript();
        type(QStringLiteral("(+ 40 2)"));
        enter(Qt::ShiftModifier);
        QCOMPARE(input()->toPlainText(), QStringLiteral("(+ 40 2)\n"));
        QTest::qWait(200);
        QCOMPARE(transcript(), before);
        enter();
        QVERIFY(waitForTranscript(QStringLiteral("=> 42")));
    }

    void upAndDownWalkTheHistoryAtTheFirstAndLastLine()
    {
        QVERIFY(waitIdle());
        type(QStringLiteral("(list 'first)"));
        enter();
        type(QStringLiteral("(list 'second)"));
        enter();
        QVERIFY(waitForTranscript(QStringLiteral("=> (SECOND)")));
        QTest::keyClick(input(), Qt::Key_Up);
        QCOMPARE(input()->toPlainText(), QStringLiteral("(list 'second)"));
        QTest::keyClick(input(), Qt::Key_Up);
        QCOMPARE(input()->toPlainText(), QStringLiteral("(list 'first)"));
        QTest::keyClick(input(), Qt::Key_Down);
        QCOMPARE(input()->toPlainText(), QStringLiteral("(list 'second)"));
        QTest::keyClick(input(), Qt::Key_Down);
        QCOMPARE(input()->toPlainText(), QString());
        // With text typed, Up visits only the entries that start with it.
        type(QStringLiteral("(list 'f"));
        QTest::keyClick(input(), Qt::Key_Up);
        QCOMPARE(input()->toPlainText(), QStringLiteral("(list 'first)"));
    }

    void upInsideAMultiLineInputMovesTheCursorNotTheHistory()
    {
        type(QStringLiteral("(let ((a 1))"));
        enter();
        type(QStringLiteral("a"));
        QTest::keyClick(input(), Qt::Key_Up);
        QCOMPARE(input()->toPlainText(), QStringLiteral("(let ((a 1))\n  a"));
        QCOMPARE(input()->textCursor().blockNumber(), 0);
    }

    void historyIsSavedAndLoadedByANewConsole()
    {
        QVERIFY(!input()->historyFile().isEmpty());
        ConsoleWidget other;
        other.setHistoryFile(input()->historyFile());
        QVERIFY(other.history().entries().contains(QStringLiteral("(list 'second)")));
        QVERIFY(other.history().entries().contains(QStringLiteral("(defun twice (x)\n  (* x 2))")));
    }

    void ctrlRFindsAnOlderEntry()
    {
        QTest::keyClick(input(), Qt::Key_R, Qt::ControlModifier);
        QVERIFY(input()->isSearching());
        type(QStringLiteral("twice"));
        QCOMPARE(input()->toPlainText(), QStringLiteral("(defun twice (x)\n  (* x 2))"));
        QVERIFY(m_console->hintText().contains(QStringLiteral("reverse-i-search")));
        QTest::keyClick(input(), Qt::Key_Escape);
        QVERIFY(!input()->isSearching());
        QVERIFY(input()->toPlainText().isEmpty());
    }

    void tabShowsEveryCompletionFromTheEngine()
    {
        type(QStringLiteral("(mapc"));
        QTest::keyClick(input(), Qt::Key_Tab);
        QCompleter *completer = input()->completer();
        QVERIFY(QTest::qWaitFor([&] { return completer->popup()->isVisible(); }, 5000));
        const auto *model = qobject_cast<QStringListModel *>(completer->model());
        QVERIFY(model);
        const QStringList shown = model->stringList();
        for (const QString &name : {QStringLiteral("mapc"), QStringLiteral("mapcan"), QStringLiteral("mapcar"), QStringLiteral("mapcon")})
            QVERIFY2(shown.contains(name), qPrintable(shown.join(u' ')));
        QCOMPARE(completer->completionCount(), 4);
        // Choosing one in the popup puts it into the input.
        completer->popup()->setCurrentIndex(completer->completionModel()->index(2, 0));
        QTest::keyClick(completer->popup(), Qt::Key_Return);
        QCOMPARE(input()->toPlainText(), QStringLiteral("(mapcar"));
    }

    void tabWithOneCandidateInsertsIt()
    {
        type(QStringLiteral("(multiple-value-bi"));
        QTest::keyClick(input(), Qt::Key_Tab);
        QVERIFY(QTest::qWaitFor([&] { return input()->toPlainText() == QStringLiteral("(multiple-value-bind"); }, 5000));
        QVERIFY(!input()->completer()->popup()->isVisible());
    }

    void tabCompletesPackageQualifiedSymbols()
    {
        type(QStringLiteral("(cl:string-upc"));
        QTest::keyClick(input(), Qt::Key_Tab);
        QVERIFY(QTest::qWaitFor([&] { return input()->toPlainText() == QStringLiteral("(cl:string-upcase"); }, 5000));
    }

    void typingInsideACallShowsTheOperatorsLambdaList()
    {
        type(QStringLiteral("(mapcar "));
        QVERIFY(QTest::qWaitFor([&] { return m_console->hintText().startsWith(QStringLiteral("(mapcar ")); }, 5000));
        QVERIFY2(m_console->hintText().contains(QStringLiteral("&REST"), Qt::CaseInsensitive), qPrintable(m_console->hintText()));
        input()->clear();
        type(QStringLiteral("(twice "));
        QVERIFY(QTest::qWaitFor([&] { return m_console->hintText() == QStringLiteral("(twice X)"); }, 5000));
    }

    void theMatchingParenIsHighlighted()
    {
        input()->setPlainText(QStringLiteral("(a (b c) d)"));
        QTextCursor cursor = input()->textCursor();
        cursor.setPosition(3);
        input()->setTextCursor(cursor);
        const auto selections = input()->extraSelections();
        QCOMPARE(selections.size(), 2);
        QCOMPARE(selections.at(0).cursor.selectionStart(), 3);
        QCOMPARE(selections.at(1).cursor.selectionStart(), 7);
    }

    void outputAppearsWhileTheEvaluationRuns()
    {
        type(QStringLiteral("(progn (format t \"tick-one~%\") (finish-output) (sleep 1.5) :done)"));
        enter();
        QVERIFY(waitForTranscript(QStringLiteral("tick-one")));
        QVERIFY2(m_live->session.current(), "the output should be shown before the evaluation ends");
        QVERIFY(waitForTranscript(QStringLiteral("=> :DONE")));
    }

    // A program the code started (or a thread it left behind) writes after the evaluation
    // ended: no evaluation claims that output, so it is shown as the engine's.
    void outputTheEngineWritesWhileNothingRunsIsShown()
    {
        type(QStringLiteral("(progn (mp:process-run-function \"late\" (lambda () (sleep 0.3) (ext:system \"echo written-late\"))) :started)"));
        enter();
        QVERIFY(waitForTranscript(QStringLiteral("=> :STARTED")));
        QVERIFY(waitIdle());
        QVERIFY2(waitForTranscript(QStringLiteral("; the engine wrote: written-late")), qPrintable(transcript().right(400)));
    }

    void valuesOutputErrorOutputAndWarningsLookDifferent()
    {
        QVERIFY(waitIdle());
        type(QStringLiteral("(progn (format t \"plain-out~%\") (format *error-output* \"error-out~%\") (warn \"be careful\") :value-here)"));
        enter();
        QVERIFY(waitForTranscript(QStringLiteral("=> :VALUE-HERE")));
        auto colourOf = [this](const QString &needle) {
            for (QTextBlock b = m_console->transcript()->document()->lastBlock(); b.isValid(); b = b.previous()) {
                const int at = int(b.text().indexOf(needle));
                if (at >= 0) {
                    for (auto it = b.begin(); !it.atEnd(); ++it) {
                        const QTextFragment f = it.fragment();
                        if (f.position() - b.position() <= at && at < f.position() - b.position() + f.length())
                            return f.charFormat().foreground().color().name();
                    }
                }
            }
            return QString();
        };
        const QSet<QString> colours{colourOf(QStringLiteral("plain-out")), colourOf(QStringLiteral("error-out")),
                                    colourOf(QStringLiteral("be careful")), colourOf(QStringLiteral(":VALUE-HERE"))};
        QCOMPARE(colours.size(), 4);
        QVERIFY2(transcript().contains(QStringLiteral("; SIMPLE-WARNING: be careful")), qPrintable(transcript().right(300)));
    }

    void anErrorShowsItsTypeMessageAndACollapsedBacktrace()
    {
        QVERIFY(waitIdle());
        type(QStringLiteral("(defun bad (x) (car x)) (bad 42)"));
        enter();
        QVERIFY(waitForTranscript(QStringLiteral("[ERROR]")));
        const QString text = transcript();
        QVERIFY2(text.contains(QStringLiteral("TYPE-ERROR")), qPrintable(text.right(400)));
        QVERIFY(text.contains(QStringLiteral("[+] Backtrace (")));
        // The frames are hidden until the link is clicked.
        TranscriptView *view = m_console->transcript();
        QTextBlock link;
        for (QTextBlock block = view->document()->lastBlock(); block.isValid(); block = block.previous()) {
            if (block.text().startsWith(QStringLiteral("[+] Backtrace"))) {
                link = block;
                break;
            }
        }
        QVERIFY(link.isValid());
        QVERIFY(!link.next().isVisible());
        view->ensureCursorVisible();
        QTextCursor at(link);
        at.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, 2);
        const QPoint point = view->cursorRect(at).center();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, point);
        QVERIFY(link.next().isVisible());
        QVERIFY(link.text().startsWith(QStringLiteral("[-] Backtrace")));
    }

    void ctrlCInAnEmptyInputInterruptsARunningLoop()
    {
        QVERIFY(waitIdle());
        type(QStringLiteral("(loop)"));
        enter();
        QVERIFY(QTest::qWaitFor([&] { return m_live->session.current() != nullptr; }, 5000));
        QTest::qWait(200);
        QTest::keyClick(input(), Qt::Key_C, Qt::ControlModifier);
        QVERIFY(waitForTranscript(QStringLiteral("The evaluation was interrupted"), 10000));
        QVERIFY(waitIdle());
        type(QStringLiteral("(+ 2 2)"));
        enter();
        QVERIFY(waitForTranscript(QStringLiteral("=> 4")));
    }

    void thePromptFollowsTheSessionPackage()
    {
        QCOMPARE(m_console->promptText(), QStringLiteral("CL-USER>"));
        type(QStringLiteral("(defpackage :duet-demo (:use :cl)) (in-package :duet-demo)"));
        enter();
        QVERIFY(QTest::qWaitFor([&] { return m_console->promptText() == QStringLiteral("DUET-DEMO>"); }, 10000));
        type(QStringLiteral("(in-package :cl-user)"));
        enter();
        QVERIFY(QTest::qWaitFor([&] { return m_console->promptText() == QStringLiteral("CL-USER>"); }, 10000));
    }

    void zoomScalesTheConsoleFont()
    {
        const double base = m_console->transcript()->font().pointSizeF();
        m_console->setZoom(2.0);
        QCOMPARE(m_console->transcript()->font().pointSizeF(), base * 2);
        QCOMPARE(input()->font().pointSizeF(), base * 2);
        m_console->setZoom(1.0);
        QCOMPARE(m_console->transcript()->font().pointSizeF(), base);
    }
};

QTEST_MAIN(TestConsole)
#include "tst_console.moc"

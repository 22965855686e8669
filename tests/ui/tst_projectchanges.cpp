// The person sees and controls agents' file changes (issue 11, item 8): real ProjectFiles on
// files in a QTemporaryDir, changes proposed through ProjectFiles::propose exactly as the file
// tools do, the real window offscreen. A change shows as a coloured diff block; in Ask mode
// nothing is written before Approve; Deny and Read-only leave the file alone and tell the agent;
// Paused holds the change; Undo gives the file its bytes back. (Test runs in the window:
// tst_projecttestruns; where definitions came from: tst_projectdefinitions.)
//
// With DUET_SCREENSHOT_DIR set (tests/ui/screenshots.sh), edit-diff.png, approval.png and
// approval-evaluate.png are saved there.

#include "ProjectWindow.h"

#include "access/AccessGate.h"
#include "access/ApprovalBar.h"
#include "toolcalls/ToolCallLog.h"

#include <QJsonArray>
#include <QPushButton>
#include <QStatusBar>

namespace {
const QString Original = QStringLiteral(
    ";;;; shapes.lisp\r\n"
    "(in-package #:shapes)\r\n"
    "\r\n"
    "(defun area (shape)\r\n"
    "  (* (width shape) (height shape)))\r\n"
    "\r\n"
    "(defun perimeter (shape)\r\n"
    "  (* 2 (+ (width shape) (height shape))))\r\n");

QString edited(QString text)
{
    return text.replace(QStringLiteral("(defun area (shape)\r\n  (* (width shape) (height shape)))"),
                        QStringLiteral("(defun area (shape)\r\n  \"The area of SHAPE.\"\r\n  (* (shape-width shape) (shape-height shape)))"));
}

struct Outcome
{
    bool done = false;
    FileChange change;
    QString error;
};
} // namespace

class TestProjectChanges : public QObject
{
    Q_OBJECT

private:
    ProjectWindow m_project;
    // m_project's, for short.
    LiveSession *m_live = nullptr;
    ProjectFiles *m_files = nullptr;
    MainWindow *m_window = nullptr;
    QString m_path;
    const Origin m_claude = Origin::agent(QStringLiteral("claude"), QStringLiteral("claude#1"));

    TranscriptView *view() const { return m_project.view(); }
    QString transcript() const { return m_project.transcript(); }
    QTextBlock blockStartingWith(const QString &prefix) const { return m_project.blockStartingWith(prefix); }
    void saveScreenshot(const QString &name) { QVERIFY2(m_project.saveScreenshot(name), qPrintable(name)); }

    // What edit-form does: computes the new text from the file as it is when its turn comes.
    std::shared_ptr<Outcome> propose(const QString &after, const QString &description = QStringLiteral("document area"))
    {
        auto outcome = std::make_shared<Outcome>();
        m_files->propose(
            m_path, m_claude,
            [after, description](const TextFileContents &, bool, QString *) -> std::optional<FileChange> {
                FileChange change;
                change.kind = FileChange::Kind::Edit;
                change.tool = QStringLiteral("edit-form");
                change.description = description;
                change.summary = QStringLiteral("replaced (defun area) at lines 4-6");
                change.after = after;
                return change;
            },
            [outcome](const FileChange &change, const QString &error) {
                outcome->done = true;
                outcome->change = change;
                outcome->error = error;
            });
        return outcome;
    }

    // Evaluates as the person and waits: the first value, or the error's message.
    QString evaluateNow(const QString &code)
    {
        JobPtr finished;
        m_live->session.whenFinished(m_live->session.submit(EngineProtocol::evaluation(code)), [&finished](JobPtr job) { finished = job; });
        if (!QTest::qWaitFor([&finished] { return bool(finished); }, 20000))
            return QStringLiteral("(no answer in 20 s)");
        return finished->result.ok() ? finished->result.values.value(0) : finished->result.error.message;
    }

    // The State column of the newest Tool calls row for this tool, as the panel shows it.
    QString toolCallState(const QString &tool) const
    {
        const ToolCallLog *log = m_window->toolCallLog();
        for (int row = log->rowCount() - 1; row >= 0; --row) {
            if (log->entry(row).tool() == tool)
                return log->data(log->index(row, ToolCallLog::StateColumn)).toString();
        }
        return QStringLiteral("(no %1 row)").arg(tool);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_project.open(&error), qPrintable(error));
        m_live = m_project.live();
        m_files = m_project.files();
        m_window = m_project.window();
        m_path = m_files->root().path() + QStringLiteral("/src/shapes.lisp");
    }

    void cleanupTestCase() { m_project.close(); }

    void init()
    {
        m_window->access()->setMode(AccessMode::Allow);
        QFile file(m_path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(Original.toUtf8());
        file.close();
        // What read-file tells ProjectFiles: claude has seen the file as it is now.
        m_files->noteSeen(m_claude.clientKey, m_path, TextFile::digest(Original.toUtf8()));
    }

    void theWindowNamesTheProject()
    {
        QCOMPARE(m_window->windowTitle(), QStringLiteral("shapes \u2014 Lisp Duet"));
        QCOMPARE(m_window->projectText(), QStringLiteral("Project: shapes"));
    }

    void anAgentsChangeAppearsAsAColouredDiffBlock()
    {
        auto outcome = propose(edited(Original));
        QTRY_VERIFY(outcome->done);
        QCOMPARE(outcome->error, QString());
        QCOMPARE(bytesOf(m_path), edited(Original).toUtf8());
        const QString text = transcript();
        QVERIFY2(text.contains(QStringLiteral("claude \u00b7 edit-form \u2014 document area   Undo")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("src/shapes.lisp: replaced (defun area) at lines 4-6  (+2 \u22121)")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("--- a/src/shapes.lisp\n+++ b/src/shapes.lisp\n@@ ")));
        QVERIFY(text.contains(QStringLiteral("+  \"The area of SHAPE.\"")));
        // Coloured by kind: the added line green, the hunk header dim, context plain.
        const QTextBlock added = blockStartingWith(QStringLiteral("+  \"The area"));
        QVERIFY(added.isValid());
        const QColor green = added.begin().fragment().charFormat().foreground().color();
        QVERIFY2(green.green() > green.red() + 40, qPrintable(green.name()));
        const QTextBlock hunk = blockStartingWith(QStringLiteral("@@ "));
        QVERIFY(hunk.isValid());
        QVERIFY(hunk.begin().fragment().charFormat().foreground().color() != green);
        const QTextBlock removed = blockStartingWith(QStringLiteral("-  (* (width shape)"));
        QVERIFY(removed.isValid());
        const QColor red = removed.begin().fragment().charFormat().foreground().color();
        QVERIFY2(red.red() > red.green() + 40, qPrintable(red.name()));
        saveScreenshot(QStringLiteral("edit-diff.png"));
    }

    void aLongDiffIsCollapsedBeyondTwentyLines()
    {
        QString after = Original;
        for (int i = 0; i < 40; ++i)
            after += QStringLiteral("(defparameter *p%1* %1)\r\n").arg(i);
        auto outcome = propose(after, QStringLiteral("many parameters"));
        QTRY_VERIFY(outcome->done);
        QCOMPARE(outcome->error, QString());
        const int total = int(outcome->change.diff.lines.size());
        QVERIFY(total > TranscriptView::DiffLinesShown);
        const QString link = QStringLiteral("[+] Show all %1 lines (%2 more)").arg(total).arg(total - TranscriptView::DiffLinesShown);
        QVERIFY2(transcript().contains(link), qPrintable(transcript()));
        const QTextBlock last = blockStartingWith(QStringLiteral("+(defparameter *p39* 39)"));
        QVERIFY(last.isValid());
        QVERIFY(!last.isVisible());
        QVERIFY(blockStartingWith(QStringLiteral("+(defparameter *p0* 0)")).isVisible() || total - 40 > TranscriptView::DiffLinesShown);
        // "Show all" is the group's toggle.
        const QTextBlock toggle = blockStartingWith(QStringLiteral("[+] Show all"));
        QTextCursor cursor(toggle);
        cursor.movePosition(QTextCursor::NextCharacter);
        const QString href = cursor.charFormat().anchorHref();
        QVERIFY(href.startsWith(QStringLiteral("toggle:")));
        view()->toggleGroup(href.mid(7).toULongLong());
        QVERIFY(blockStartingWith(QStringLiteral("+(defparameter *p39* 39)")).isVisible());
        QVERIFY(blockStartingWith(QStringLiteral("[-] Show all")).isValid());
    }

    void askModeWritesNothingBeforeApprove()
    {
        m_window->access()->setMode(AccessMode::Ask);
        auto outcome = propose(edited(Original));
        QTRY_COMPARE(m_window->access()->pending().size(), 1);
        ApprovalBar *bar = m_window->console()->approvalBar();
        QVERIFY(bar->isVisible());
        QVERIFY(bar->showsDiff());
        QVERIFY2(bar->headline().contains(QStringLiteral("<b>claude</b> wants to change <b>src/shapes.lisp</b> with edit-form \u2014 document area")),
                 qPrintable(bar->headline()));
        QVERIFY2(bar->summary().startsWith(QStringLiteral("replaced (defun area) at lines 4-6")), qPrintable(bar->summary()));
        QVERIFY2(bar->diffText().contains(QStringLiteral("+  \"The area of SHAPE.\"")), qPrintable(bar->diffText()));
        saveScreenshot(QStringLiteral("approval.png"));
        QTest::qWait(200);
        QVERIFY(!outcome->done);
        QCOMPARE(bytesOf(m_path), Original.toUtf8());
        QTest::mouseClick(bar->approveButton(), Qt::LeftButton);
        QTRY_VERIFY(outcome->done);
        QCOMPARE(outcome->error, QString());
        QCOMPARE(bytesOf(m_path), edited(Original).toUtf8());
        QVERIFY(m_window->access()->pending().isEmpty());
        QTRY_VERIFY(!bar->isVisible());
    }

    void denyLeavesTheFileUntouchedAndTellsTheAgent()
    {
        m_window->access()->setMode(AccessMode::Ask);
        auto outcome = propose(edited(Original));
        QTRY_COMPARE(m_window->access()->pending().size(), 1);
        QTest::mouseClick(m_window->console()->approvalBar()->denyButton(), Qt::LeftButton);
        QTRY_VERIFY(outcome->done);
        QCOMPARE(outcome->error, AccessModes::changeDeniedMessage(QStringLiteral("src/shapes.lisp")));
        QVERIFY(outcome->error.contains(QStringLiteral("denied")));
        QCOMPARE(bytesOf(m_path), Original.toUtf8());
    }

    // What the person refused stays in the transcript beside the changes that were made.
    void aDeniedChangeLeavesALineInTheTranscript()
    {
        m_window->access()->setMode(AccessMode::Ask);
        auto outcome = propose(edited(Original));
        QTRY_COMPARE(m_window->access()->pending().size(), 1);
        QTest::mouseClick(m_window->console()->approvalBar()->denyButton(), Qt::LeftButton);
        QTRY_VERIFY(outcome->done);
        const QString line = QStringLiteral("; claude's change to src/shapes.lisp was not made: %1")
                                 .arg(AccessModes::changeDeniedMessage(QStringLiteral("src/shapes.lisp")));
        QTRY_VERIFY2(transcript().contains(line), qPrintable(transcript().right(600)));
    }

    void readOnlyRefusesEveryChange()
    {
        m_window->access()->setMode(AccessMode::ReadOnly);
        auto outcome = propose(edited(Original));
        QTRY_VERIFY(outcome->done);
        QCOMPARE(outcome->error, AccessModes::changeReadOnlyMessage(QStringLiteral("src/shapes.lisp")));
        QCOMPARE(bytesOf(m_path), Original.toUtf8());
        QVERIFY(m_window->access()->pending().isEmpty());
    }

    void pausedHoldsAChangeUntilAccessResumes()
    {
        m_window->access()->setMode(AccessMode::Paused);
        auto outcome = propose(edited(Original));
        QTRY_COMPARE(m_window->access()->heldCount(), 1);
        QTest::qWait(200);
        m_window->access()->setMode(AccessMode::Paused); // no change of mode: nothing is decided
        QCOMPARE(m_window->access()->heldCount(), 1);
        QVERIFY(!outcome->done);
        QCOMPARE(bytesOf(m_path), Original.toUtf8());
        // Resumed in Ask: now the person decides, with the diff.
        m_window->access()->setMode(AccessMode::Ask);
        QCOMPARE(m_window->access()->heldCount(), 0);
        QTRY_COMPARE(m_window->access()->pending().size(), 1);
        QVERIFY(!outcome->done);
        m_window->access()->setMode(AccessMode::Allow);
        QTRY_VERIFY(outcome->done);
        QCOMPARE(outcome->error, QString());
        QCOMPARE(bytesOf(m_path), edited(Original).toUtf8());
    }

    void pausingWhileAChangeAwaitsApprovalHoldsItAndSaysSo()
    {
        m_window->access()->setMode(AccessMode::Ask);
        auto outcome = propose(edited(Original));
        QTRY_COMPARE(m_window->access()->pending().size(), 1);
        m_window->access()->setMode(AccessMode::Paused);
        QVERIFY(m_window->access()->pending().isEmpty());
        QCOMPARE(m_window->access()->heldCount(), 1);
        QVERIFY2(m_window->statusBar()->currentMessage().endsWith(QStringLiteral("One file change waits until you resume.")),
                 qPrintable(m_window->statusBar()->currentMessage()));
        QTRY_VERIFY(!m_window->console()->approvalBar()->isVisible());
        QVERIFY(!outcome->done);
        m_window->access()->setMode(AccessMode::ReadOnly);
        QTRY_VERIFY(outcome->done);
        QCOMPARE(outcome->error, AccessModes::changeReadOnlyMessage(QStringLiteral("src/shapes.lisp")));
        QCOMPARE(bytesOf(m_path), Original.toUtf8());
    }

    void askModeLetsAFileToolsCallThroughToTheChangeGate()
    {
        Tool fileTool(ToolSpec{.name = QStringLiteral("edit-form"), .hints = Hints::Destructive, .changesFiles = true},
                      [](const ToolCallPtr &, const ToolArguments &) {});
        Tool evaluation(ToolSpec{.name = QStringLiteral("evaluate-lisp"), .hints = Hints::Destructive},
                        [](const ToolCallPtr &, const ToolArguments &) {});
        m_window->access()->setMode(AccessMode::Ask);
        auto call = ToolCallPtr::create(QStringLiteral("edit-form"), QJsonObject{}, m_claude, false);
        QString verdict = QStringLiteral("<none>");
        m_window->access()->gate(nullptr, &fileTool, call, [&verdict](const QString &refusal) { verdict = refusal; });
        QCOMPARE(verdict, QString()); // passed at once: the change itself will wait
        QVERIFY(m_window->access()->pending().isEmpty());
        m_window->access()->gate(nullptr, &evaluation, call, [&verdict](const QString &refusal) { verdict = refusal; });
        QCOMPARE(m_window->access()->pending().size(), 1);
        m_window->access()->setMode(AccessMode::ReadOnly); // decides the waiting evaluation
        QCOMPARE(verdict, AccessModes::readOnlyMessage(QStringLiteral("evaluate-lisp")));
        m_window->access()->gate(nullptr, &fileTool, call, [&verdict](const QString &refusal) { verdict = refusal; });
        QCOMPARE(verdict, AccessModes::readOnlyWriteMessage(QStringLiteral("edit-form")));
        QVERIFY(verdict.contains(QStringLiteral("edit-form")));
    }

    // The real write-file tool over MCP: in Ask mode its call runs, the change waits with its
    // diff, and the tool's result says what the person decided; Read-only refuses the call.
    void anAgentsToolCallWaitsForTheChangeNotForTheCall()
    {
        AgentClient agent(&m_live->server, QStringLiteral("claude-code"));
        const QString created = m_files->root().path() + QStringLiteral("/src/new.lisp");
        const QJsonObject arguments{{"path", "src/new.lisp"}, {"content", "(defun new-thing ()\n  :new)\n"}, {"description", "add new-thing"}};
        m_window->access()->setMode(AccessMode::Ask);
        int id = agent.callTool(QStringLiteral("write-file"), arguments);
        QTRY_COMPARE(m_window->access()->pending().size(), 1);
        QVERIFY(m_window->access()->pending().first().isChange);
        ApprovalBar *bar = m_window->console()->approvalBar();
        QVERIFY2(bar->headline().contains(QStringLiteral("<b>claude-code</b> wants to create <b>src/new.lisp</b> with write-file \u2014 add new-thing")),
                 qPrintable(bar->headline()));
        QVERIFY(bar->diffText().contains(QStringLiteral("+(defun new-thing ()")));
        QVERIFY(!QFile::exists(created));
        QTest::mouseClick(bar->denyButton(), Qt::LeftButton);
        QJsonObject response = agent.response(id);
        QVERIFY(AgentClient::isError(response));
        QCOMPARE(AgentClient::resultText(response), AccessModes::changeDeniedMessage(QStringLiteral("src/new.lisp")));
        QVERIFY(!QFile::exists(created));

        id = agent.callTool(QStringLiteral("write-file"), arguments);
        QTRY_COMPARE(m_window->access()->pending().size(), 1);
        // The Tool calls panel says what the call is waiting for.
        QCOMPARE(toolCallState(QStringLiteral("write-file")), QStringLiteral("awaiting approval"));
        QTest::mouseClick(bar->approveButton(), Qt::LeftButton);
        response = agent.response(id);
        QVERIFY2(!AgentClient::isError(response), qPrintable(AgentClient::resultText(response)));
        QTRY_COMPARE(toolCallState(QStringLiteral("write-file")), QStringLiteral("done"));
        QCOMPARE(bytesOf(created), QByteArray("(defun new-thing ()\n  :new)\n"));
        QTRY_VERIFY(transcript().contains(QStringLiteral("claude-code \u00b7 write-file \u2014 add new-thing   Undo")));

        m_window->access()->setMode(AccessMode::ReadOnly);
        id = agent.callTool(QStringLiteral("write-file"), QJsonObject{{"path", "src/new.lisp"}, {"content", "changed\n"}});
        response = agent.response(id);
        QVERIFY(AgentClient::isError(response));
        QCOMPARE(AgentClient::resultText(response), AccessModes::readOnlyWriteMessage(QStringLiteral("write-file")));
        QCOMPARE(bytesOf(created), QByteArray("(defun new-thing ()\n  :new)\n"));
        QVERIFY(QFile::remove(created));
    }

    // edit-form with evaluate: true in Ask mode: one approval writes the file and then evaluates
    // the new form, so the bar says both before the person decides; the call's row in the Tool
    // calls panel waits for the person, not for the engine.
    void anEditThatAlsoEvaluatesSaysSoBeforeTheApproval()
    {
        evaluateNow(QStringLiteral("(defpackage #:shapes (:use #:cl))"));
        AgentClient agent(&m_live->server, QStringLiteral("claude-code"));
        m_window->access()->setMode(AccessMode::Ask);
        const int id = agent.callTool(QStringLiteral("edit-form"),
                                      QJsonObject{{"path", "src/shapes.lisp"}, {"form", "defun perimeter"},
                                                  {"text", "(defun perimeter (shape)\n  (* 2 (+ (first shape) (second shape))))"},
                                                  {"evaluate", true}, {"description", "perimeter of a list"}});
        QTRY_COMPARE(m_window->access()->pending().size(), 1);
        ApprovalBar *bar = m_window->console()->approvalBar();
        QVERIFY2(bar->summary().startsWith(QStringLiteral("replaced (defun perimeter) at lines 7-8, "
                                                          "then evaluates the new text in the session (in SHAPES)")),
                 qPrintable(bar->summary()));
        QVERIFY2(bar->approveButton()->toolTip().contains(QStringLiteral("then evaluates the new text")), qPrintable(bar->approveButton()->toolTip()));
        QCOMPARE(toolCallState(QStringLiteral("edit-form")), QStringLiteral("awaiting approval"));
        saveScreenshot(QStringLiteral("approval-evaluate.png"));
        QCOMPARE(evaluateNow(QStringLiteral("(fboundp 'shapes::perimeter)")), QStringLiteral("NIL"));

        QTest::mouseClick(bar->approveButton(), Qt::LeftButton);
        const QJsonObject response = agent.response(id);
        QVERIFY2(!AgentClient::isError(response), qPrintable(AgentClient::resultText(response)));
        QTRY_COMPARE(toolCallState(QStringLiteral("edit-form")), QStringLiteral("done"));
        QVERIFY(bytesOf(m_path).contains("(+ (first shape) (second shape))"));
        QCOMPARE(evaluateNow(QStringLiteral("(shapes::perimeter '(3 4))")), QStringLiteral("14"));
        evaluateNow(QStringLiteral("(delete-package '#:shapes)")); // the test-run tests load the real one
    }

    void undoGivesTheFileItsBytesBack()
    {
        auto outcome = propose(edited(Original));
        QTRY_VERIFY(outcome->done);
        QCOMPARE(outcome->error, QString());
        QCOMPARE(bytesOf(m_path), edited(Original).toUtf8());
        // What a click on the block's "Undo" link does.
        Q_EMIT view()->linkActivated(QStringLiteral("undo:%1").arg(outcome->change.id));
        QTRY_COMPARE(bytesOf(m_path), Original.toUtf8());
        QTRY_VERIFY(transcript().contains(QStringLiteral("You undid claude's change to src/shapes.lisp")));
        // Nothing of claude's is left to undo: the transcript says why.
        Q_EMIT view()->linkActivated(QStringLiteral("undo:%1").arg(outcome->change.id));
        QTRY_VERIFY2(transcript().contains(QStringLiteral("Could not undo claude's change to src/shapes.lisp: you already undid it.")),
                     qPrintable(transcript()));
        QCOMPARE(bytesOf(m_path), Original.toUtf8());
    }

    void undoOfAnOlderChangeIsRefusedWithAReason()
    {
        auto first = propose(edited(Original));
        QTRY_VERIFY(first->done);
        auto second = propose(edited(Original) + QStringLiteral("(defun volume (shape) 0)\r\n"), QStringLiteral("add volume"));
        QTRY_VERIFY(second->done);
        QCOMPARE(second->error, QString());
        const QByteArray now = bytesOf(m_path);
        Q_EMIT view()->linkActivated(QStringLiteral("undo:%1").arg(first->change.id));
        QTRY_VERIFY2(transcript().contains(QStringLiteral("Only the newest change to a file can be undone.")), qPrintable(transcript()));
        QCOMPARE(bytesOf(m_path), now);
    }
};

QTEST_MAIN(TestProjectChanges)
#include "tst_projectchanges.moc"

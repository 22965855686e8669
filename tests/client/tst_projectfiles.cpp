// The project's files (issue 11): every path confined to the root with hostile paths refused by a
// sentence that names the root, text read strictly as UTF-8, diffs, and changes that queue per
// file, wait for approval, never overwrite what changed on disk meanwhile, and can be undone.

#include "project/ProjectFiles.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

namespace {
void writeBytes(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}
QByteArray bytesOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}
Origin agent(const QString &name = QStringLiteral("claude-code"))
{
    return Origin::agent(name, name + QStringLiteral("#1"));
}
// A maker that replaces `from` by `to` in the file's text.
ProjectFiles::Maker replacing(const QString &from, const QString &to)
{
    return [from, to](const TextFileContents &current, bool, QString *error) -> std::optional<FileChange> {
        if (!current.text.contains(from)) {
            *error = QStringLiteral("'%1' is not in the file").arg(from);
            return std::nullopt;
        }
        FileChange change;
        change.kind = FileChange::Kind::Edit;
        change.after = QString(current.text).replace(from, to);
        change.summary = QStringLiteral("replaced %1").arg(from);
        return change;
    };
}
struct Outcome
{
    bool done = false;
    FileChange change;
    QString error;
    ProjectFiles::Done callback()
    {
        return [this](const FileChange &c, const QString &e) {
            done = true;
            change = c;
            error = e;
        };
    }
};
} // namespace

class TestProjectFiles : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_root;
    QString m_outside;

    QString at(const QString &relative) const { return m_root + QLatin1Char('/') + relative; }

private Q_SLOTS:
    void init()
    {
        QDir(m_dir.path()).removeRecursively();
        m_root = m_dir.filePath(QStringLiteral("project"));
        m_outside = m_dir.filePath(QStringLiteral("outside"));
        QDir().mkpath(m_root + QStringLiteral("/src"));
        QDir().mkpath(m_outside);
        m_root = QFileInfo(m_root).canonicalFilePath();
        m_outside = QFileInfo(m_outside).canonicalFilePath();
        writeBytes(at(QStringLiteral("src/main.lisp")), "(defun main ()\n  42)\n");
        writeBytes(m_outside + QStringLiteral("/secret.lisp"), "(defvar *secret* 1)\n");
    }

    // ---- the root and its paths

    void aRootMustBeAnExistingAbsoluteFolderOtherThanSlash_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("sentence");
        QTest::newRow("empty") << QString() << "must name a folder";
        QTest::newRow("relative") << "project" << "must be an absolute path";
        QTest::newRow("missing") << "/no/such/folder" << "does not exist";
        QTest::newRow("a file") << "/etc/hostname" << "is not a folder";
        QTest::newRow("slash") << "/" << "whole file system";
    }
    void aRootMustBeAnExistingAbsoluteFolderOtherThanSlash()
    {
        QFETCH(QString, path);
        QFETCH(QString, sentence);
        ProjectRoot root;
        QString error;
        QVERIFY(!root.setPath(path, &error));
        QVERIFY2(error.contains(sentence), qPrintable(error));
        QVERIFY(!root.isSet());
    }

    void withoutARootEveryPathIsRefusedWithWhatToDo()
    {
        const ProjectRoot root;
        const auto resolved = root.resolve(QStringLiteral("src/main.lisp"), ProjectRoot::Access::Read);
        QVERIFY(!resolved.ok());
        QVERIFY2(resolved.error.contains(QStringLiteral("set-project-root")), qPrintable(resolved.error));
    }

    void pathsInsideTheRootResolveToCanonicalPaths()
    {
        ProjectRoot root;
        QVERIFY(root.setPath(m_root));
        auto resolved = root.resolve(QStringLiteral("src/main.lisp"), ProjectRoot::Access::Read);
        QVERIFY2(resolved.ok(), qPrintable(resolved.error));
        QCOMPARE(resolved.absolute, at(QStringLiteral("src/main.lisp")));
        QCOMPARE(resolved.relative, QStringLiteral("src/main.lisp"));
        resolved = root.resolve(at(QStringLiteral("src/../src/main.lisp")), ProjectRoot::Access::Read);
        QVERIFY2(resolved.ok(), qPrintable(resolved.error));
        QCOMPARE(resolved.relative, QStringLiteral("src/main.lisp"));
        resolved = root.resolve(QStringLiteral("src/new/deeper/file.lisp"), ProjectRoot::Access::Write);
        QVERIFY2(resolved.ok(), qPrintable(resolved.error));
        QVERIFY(!resolved.exists);
        QCOMPARE(resolved.absolute, at(QStringLiteral("src/new/deeper/file.lisp")));
        QVERIFY(root.resolve(QStringLiteral("src"), ProjectRoot::Access::List).ok());
    }

    void hostilePathsAreRefusedWithASentenceThatNamesTheRoot_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("access");
        QTest::addColumn<QString>("sentence");
        const int read = int(ProjectRoot::Access::Read), write = int(ProjectRoot::Access::Write);
        QTest::newRow("dot dot") << "../outside/secret.lisp" << read << "is outside the project root";
        QTest::newRow("dot dot write") << "../escape.lisp" << write << "is outside the project root";
        QTest::newRow("deep dot dot") << "src/../../outside/secret.lisp" << read << "is outside the project root";
        QTest::newRow("absolute elsewhere") << "/etc/passwd" << read << "is outside the project root";
        QTest::newRow("link to a file outside") << "link-out.lisp" << read << "is a symbolic link to";
        QTest::newRow("link to a folder outside") << "linked-dir/secret.lisp" << read << "is a symbolic link to";
        QTest::newRow("write through a link outside") << "linked-dir/new.lisp" << write << "outside the project root";
        QTest::newRow("link to a device") << "null-link" << read << "outside the project root";
        QTest::newRow("climbing a folder that does not exist") << "nothere/../../x.lisp" << write << "climbs with '..'";
        QTest::newRow("newline in the name") << "a\nb.lisp" << write << "line break";
        QTest::newRow("NUL in the name") << QStringLiteral("a") + QChar(0) + QStringLiteral("b") << write << "NUL";
        QTest::newRow("a named pipe") << "pipe" << read << "is a named pipe, not a regular file";
        QTest::newRow("a folder read as a file") << "src" << read << "is a folder, not a regular file";
        QTest::newRow("the repository's files") << ".git/hooks/pre-commit" << write << "inside .git";
        QTest::newRow("a missing file") << "src/absent.lisp" << read << "does not exist in the project root";
    }
    void hostilePathsAreRefusedWithASentenceThatNamesTheRoot()
    {
        QFETCH(QString, path);
        QFETCH(int, access);
        QFETCH(QString, sentence);
        QVERIFY(QFile::link(m_outside + QStringLiteral("/secret.lisp"), at(QStringLiteral("link-out.lisp"))));
        QVERIFY(QFile::link(m_outside, at(QStringLiteral("linked-dir"))));
        QVERIFY(QFile::link(QStringLiteral("/dev/null"), at(QStringLiteral("null-link"))));
        QCOMPARE(mkfifo(QFile::encodeName(at(QStringLiteral("pipe"))).constData(), 0600), 0);
        QDir().mkpath(at(QStringLiteral(".git/hooks")));
        ProjectRoot root;
        QVERIFY(root.setPath(m_root));
        const auto resolved = root.resolve(path, ProjectRoot::Access(access));
        QVERIFY2(!resolved.ok(), qPrintable(resolved.absolute));
        QVERIFY2(resolved.error.contains(sentence), qPrintable(resolved.error));
        if (sentence.contains(QStringLiteral("outside")))
            QVERIFY2(resolved.error.contains(m_root), qPrintable(resolved.error));
    }

    void linksThatStayInsideTheRootAreFine()
    {
        QVERIFY(QFile::link(at(QStringLiteral("src/main.lisp")), at(QStringLiteral("alias.lisp"))));
        ProjectRoot root;
        QVERIFY(root.setPath(m_root));
        const auto resolved = root.resolve(QStringLiteral("alias.lisp"), ProjectRoot::Access::Write);
        QVERIFY2(resolved.ok(), qPrintable(resolved.error));
        QCOMPARE(resolved.absolute, at(QStringLiteral("src/main.lisp")));
    }

    void readOnlyRootsMayBeReadButNeverWritten()
    {
        ProjectRoot root;
        QVERIFY(root.setPath(m_root));
        root.setReadOnlyRoots({m_outside});
        const auto read = root.resolve(m_outside + QStringLiteral("/secret.lisp"), ProjectRoot::Access::Read);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QVERIFY(read.readOnly);
        const auto write = root.resolve(m_outside + QStringLiteral("/secret.lisp"), ProjectRoot::Access::Write);
        QVERIFY(!write.ok());
        QVERIFY2(write.error.contains(QStringLiteral("may be read but not written")), qPrintable(write.error));
    }

    // ---- text

    void textIsStrictUtf8AndKeepsEveryByte()
    {
        writeBytes(at(QStringLiteral("crlf.lisp")), "(a)\r\n;; caf\xc3\xa9\r\n");
        const TextFileContents crlf = TextFile::read(at(QStringLiteral("crlf.lisp")));
        QVERIFY(crlf.ok());
        QCOMPARE(crlf.text.toUtf8(), QByteArray("(a)\r\n;; caf\xc3\xa9\r\n"));
        QCOMPARE(crlf.digest, TextFile::digest("(a)\r\n;; caf\xc3\xa9\r\n"));

        writeBytes(at(QStringLiteral("latin1.lisp")), "(defvar *x* \"caf\xe9\")\n");
        const TextFileContents latin1 = TextFile::read(at(QStringLiteral("latin1.lisp")));
        QVERIFY(!latin1.ok());
        QVERIFY2(latin1.error.contains(QStringLiteral("not valid UTF-8 (the first bad byte is at offset 17)")), qPrintable(latin1.error));

        writeBytes(at(QStringLiteral("image.fasl")), QByteArray("\x7f" "ELF\0\0\1", 7));
        const TextFileContents binary = TextFile::read(at(QStringLiteral("image.fasl")));
        QVERIFY(!binary.ok());
        QVERIFY2(binary.error.contains(QStringLiteral("binary file")), qPrintable(binary.error));
    }

    void aLargeFileIsReadInWindowsOfLines()
    {
        QByteArray big;
        for (int i = 1; i <= 200000; ++i)
            big += "(line " + QByteArray::number(i) + ")\n";
        writeBytes(at(QStringLiteral("big.lisp")), big);
        const TextFileContents whole = TextFile::read(at(QStringLiteral("big.lisp")), 1024 * 1024);
        QVERIFY(!whole.ok());
        QVERIFY2(whole.error.contains(QStringLiteral("read it in line ranges")), qPrintable(whole.error));
        const TextFileLines window = TextFile::readLines(at(QStringLiteral("big.lisp")), 150000, 3);
        QVERIFY(window.ok());
        QCOMPARE(window.lines, (QStringList{QStringLiteral("(line 150000)"), QStringLiteral("(line 150001)"), QStringLiteral("(line 150002)")}));
        QCOMPARE(window.totalLines, 200000);
        QVERIFY(window.more);
        QCOMPARE(window.digest, TextFile::digest(big));
    }

    void writingIsAtomicAndCreatesFolders()
    {
        QString error;
        QVERIFY(TextFile::write(at(QStringLiteral("new/dir/file.lisp")), QStringLiteral("(x \u00e9)\n"), &error));
        QCOMPARE(bytesOf(at(QStringLiteral("new/dir/file.lisp"))), QByteArray("(x \xc3\xa9)\n"));
        QVERIFY(QDir(at(QStringLiteral("new/dir"))).entryList(QDir::Files | QDir::Hidden).size() == 1); // no temporary left
    }

    void diffsAreUnifiedWithLineNumbers()
    {
        const FileDiff diff = UnifiedDiff::between(QStringLiteral("src/a.lisp"), QStringLiteral("(a)\n(b)\n(c)\n"), QStringLiteral("(a)\n(B)\n(c)\n(d)\n"));
        QCOMPARE(diff.added, 2);
        QCOMPARE(diff.removed, 1);
        QCOMPARE(diff.text, QStringLiteral("--- a/src/a.lisp\n+++ b/src/a.lisp\n@@ -1,3 +1,4 @@\n (a)\n-(b)\n+(B)\n (c)\n+(d)\n"));
        QCOMPARE(diff.lines.at(4).kind, DiffLine::Kind::Removed);
        QCOMPARE(diff.lines.at(4).oldLine, 2);
        QCOMPARE(diff.lines.at(5).newLine, 2);
        QVERIFY(UnifiedDiff::between(QStringLiteral("x"), QStringLiteral("same\n"), QStringLiteral("same\n")).isEmpty());
        const FileDiff created = UnifiedDiff::between(QStringLiteral("n.lisp"), QString(), QStringLiteral("(new)\n"));
        QVERIFY(created.text.startsWith(QStringLiteral("--- /dev/null\n+++ b/n.lisp\n")));
    }

    // ---- changes

    void aChangeIsWrittenRecordedAndAnnounced()
    {
        ProjectFiles files;
        QVERIFY(files.setRoot(m_root, Origin::person()));
        QSignalSpy applied(&files, &ProjectFiles::changeApplied);
        Outcome outcome;
        files.propose(at(QStringLiteral("src/main.lisp")), agent(), replacing(QStringLiteral("42"), QStringLiteral("43")), outcome.callback());
        QVERIFY(outcome.done);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(bytesOf(at(QStringLiteral("src/main.lisp"))), QByteArray("(defun main ()\n  43)\n"));
        QCOMPARE(applied.size(), 1);
        QCOMPARE(outcome.change.path, QStringLiteral("src/main.lisp"));
        QCOMPARE(outcome.change.origin.name, QStringLiteral("claude-code"));
        QCOMPARE(outcome.change.afterDigest, TextFile::digest("(defun main ()\n  43)\n"));
        QVERIFY(outcome.change.diff.text.contains(QStringLiteral("-  42)\n+  43)\n")));
        QCOMPARE(files.history().size(), 1);
    }

    void twoChangesToOneFileWaitForEachOther()
    {
        ProjectFiles files;
        QVERIFY(files.setRoot(m_root, Origin::person()));
        QList<std::function<void(const QString &)>> waiting;
        files.setChangeGate([&waiting](const FileChange &, std::function<void(const QString &)> decide) { waiting << decide; });
        Outcome first, second;
        files.propose(at(QStringLiteral("src/main.lisp")), agent(QStringLiteral("alice")), replacing(QStringLiteral("42"), QStringLiteral("43")), first.callback());
        files.propose(at(QStringLiteral("src/main.lisp")), agent(QStringLiteral("bob")), replacing(QStringLiteral("43"), QStringLiteral("44")), second.callback());
        QCOMPARE(waiting.size(), 1); // bob's change is not even computed while alice's waits
        waiting.takeFirst()(QString());
        QVERIFY(first.done && first.error.isEmpty());
        QVERIFY(QTest::qWaitFor([&] { return waiting.size() == 1; }, 2000));
        waiting.takeFirst()(QString());
        QVERIFY(second.done);
        QVERIFY2(second.error.isEmpty(), qPrintable(second.error)); // computed from alice's result
        QCOMPARE(bytesOf(at(QStringLiteral("src/main.lisp"))), QByteArray("(defun main ()\n  44)\n"));
    }

    // A change proposed right after the previous one to the same file finished (before the
    // event loop turned) reaches the gate once: the next-change step the finished one scheduled
    // must not start it a second time.
    void aChangeProposedRightAfterAnotherReachesTheGateOnce()
    {
        ProjectFiles files;
        QVERIFY(files.setRoot(m_root, Origin::person()));
        QList<std::function<void(const QString &)>> waiting;
        files.setChangeGate([&waiting](const FileChange &, std::function<void(const QString &)> decide) { waiting.append(decide); });
        Outcome first;
        files.propose(at(QStringLiteral("src/main.lisp")), agent(), replacing(QStringLiteral("42"), QStringLiteral("43")), first.callback());
        QCOMPARE(waiting.size(), 1);
        waiting.takeFirst()(QString());
        QVERIFY(first.done);
        Outcome second;
        files.propose(at(QStringLiteral("src/main.lisp")), agent(), replacing(QStringLiteral("43"), QStringLiteral("44")), second.callback());
        QCOMPARE(waiting.size(), 1);
        QTest::qWait(50); // the first change's scheduled step runs now
        QCOMPARE(waiting.size(), 1);
        waiting.takeFirst()(QString());
        QVERIFY(second.done);
        QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
        QTest::qWait(50);
        QVERIFY(waiting.isEmpty());
        QCOMPARE(bytesOf(at(QStringLiteral("src/main.lisp"))), QByteArray("(defun main ()\n  44)\n"));
    }

    void aRefusedChangeWritesNothing()
    {
        ProjectFiles files;
        QVERIFY(files.setRoot(m_root, Origin::person()));
        files.setChangeGate([](const FileChange &, std::function<void(const QString &)> decide) { decide(QStringLiteral("The person denied it.")); });
        QSignalSpy refused(&files, &ProjectFiles::changeRefused);
        Outcome outcome;
        files.propose(at(QStringLiteral("src/main.lisp")), agent(), replacing(QStringLiteral("42"), QStringLiteral("43")), outcome.callback());
        QCOMPARE(outcome.error, QStringLiteral("The person denied it."));
        QCOMPARE(bytesOf(at(QStringLiteral("src/main.lisp"))), QByteArray("(defun main ()\n  42)\n"));
        QCOMPARE(refused.size(), 1);
        QVERIFY(files.history().isEmpty());
    }

    void aFileSavedByAnEditorWhileAChangeWaitsIsNotOverwritten()
    {
        ProjectFiles files;
        QVERIFY(files.setRoot(m_root, Origin::person()));
        std::function<void(const QString &)> decide;
        files.setChangeGate([&decide](const FileChange &, std::function<void(const QString &)> d) { decide = d; });
        Outcome outcome;
        files.propose(at(QStringLiteral("src/main.lisp")), agent(), replacing(QStringLiteral("42"), QStringLiteral("43")), outcome.callback());
        writeBytes(at(QStringLiteral("src/main.lisp")), "(defun main ()\n  42) ; the person's edit\n");
        decide(QString());
        QVERIFY2(outcome.error.contains(QStringLiteral("changed on disk while this change waited")), qPrintable(outcome.error));
        QCOMPARE(bytesOf(at(QStringLiteral("src/main.lisp"))), QByteArray("(defun main ()\n  42) ; the person's edit\n"));
    }

    void anAgentWhoseReadIsStaleIsRefused()
    {
        ProjectFiles files;
        QVERIFY(files.setRoot(m_root, Origin::person()));
        files.noteSeen(agent().clientKey, at(QStringLiteral("src/main.lisp")), TextFile::digest("(defun main ()\n  42)\n"));
        writeBytes(at(QStringLiteral("src/main.lisp")), "(defun main ()\n  42)\n(defun helper ())\n");
        Outcome outcome;
        files.propose(at(QStringLiteral("src/main.lisp")), agent(), replacing(QStringLiteral("42"), QStringLiteral("43")), outcome.callback());
        QVERIFY2(outcome.error.contains(QStringLiteral("changed on disk since you last read it")), qPrintable(outcome.error));
        QCOMPARE(bytesOf(at(QStringLiteral("src/main.lisp"))), QByteArray("(defun main ()\n  42)\n(defun helper ())\n"));
        // Another agent that never read it may still make a change found by content.
        Outcome other;
        files.propose(at(QStringLiteral("src/main.lisp")), agent(QStringLiteral("other")), replacing(QStringLiteral("42"), QStringLiteral("43")), other.callback());
        QVERIFY2(other.error.isEmpty(), qPrintable(other.error));
    }

    void thePersonCanUndoAnAgentsLastChange()
    {
        ProjectFiles files;
        QVERIFY(files.setRoot(m_root, Origin::person()));
        Outcome edit, undo, again;
        files.propose(at(QStringLiteral("src/main.lisp")), agent(), replacing(QStringLiteral("42"), QStringLiteral("43")), edit.callback());
        QVERIFY(files.canUndo(at(QStringLiteral("src/main.lisp"))));
        files.undoLast(at(QStringLiteral("src/main.lisp")), Origin::person(), undo.callback());
        QVERIFY(QTest::qWaitFor([&] { return undo.done; }, 2000));
        QVERIFY2(undo.error.isEmpty(), qPrintable(undo.error));
        QCOMPARE(undo.change.kind, FileChange::Kind::Undo);
        QCOMPARE(undo.change.undoes, edit.change.id);
        QCOMPARE(bytesOf(at(QStringLiteral("src/main.lisp"))), QByteArray("(defun main ()\n  42)\n"));
        QVERIFY(!files.canUndo(at(QStringLiteral("src/main.lisp"))));
        files.undoLast(at(QStringLiteral("src/main.lisp")), Origin::person(), again.callback());
        QVERIFY(again.error.contains(QStringLiteral("No change by an agent")));
    }

    // The rules of undo live in ProjectFiles: by the change's id, only the newest change of a
    // file, and only once; each refusal is the whole sentence the window shows.
    void onlyTheNewestChangeOfAFileIsUndoneAndOnlyOnce()
    {
        ProjectFiles files;
        QVERIFY(files.setRoot(m_root, Origin::person()));
        Outcome first, second, older, newest, again;
        files.propose(at(QStringLiteral("src/main.lisp")), agent(), replacing(QStringLiteral("42"), QStringLiteral("43")), first.callback());
        files.propose(at(QStringLiteral("src/main.lisp")), agent(), replacing(QStringLiteral("43"), QStringLiteral("44")), second.callback());
        QVERIFY(QTest::qWaitFor([&] { return second.done; }, 2000));
        files.undo(first.change.id, Origin::person(), older.callback());
        QVERIFY(QTest::qWaitFor([&] { return older.done; }, 2000));
        QVERIFY2(older.error.startsWith(QStringLiteral("Could not undo claude-code's change to src/main.lisp: the file changed after it (claude-code's edit at "))
                     && older.error.endsWith(QStringLiteral("Only the newest change to a file can be undone.")),
                 qPrintable(older.error));
        files.undo(second.change.id, Origin::person(), newest.callback());
        QVERIFY(QTest::qWaitFor([&] { return newest.done; }, 2000));
        QVERIFY2(newest.error.isEmpty(), qPrintable(newest.error));
        QCOMPARE(bytesOf(at(QStringLiteral("src/main.lisp"))), QByteArray("(defun main ()\n  43)\n"));
        files.undo(second.change.id, Origin::person(), again.callback());
        QVERIFY(QTest::qWaitFor([&] { return again.done; }, 2000));
        QCOMPARE(again.error, QStringLiteral("Could not undo claude-code's change to src/main.lisp: you already undid it."));
        Outcome gone;
        files.undo(99999, Origin::person(), gone.callback());
        QVERIFY(gone.error.contains(QStringLiteral("no longer in this run's history")));
    }

    // The window undoes a change it finds in history(): the path it passes lives in the list
    // the undo is appended to. The file's queue must still move on afterwards.
    void anUndoGivenAPathFromTheHistoryLeavesTheQueueWorking()
    {
        ProjectFiles files;
        QVERIFY(files.setRoot(m_root, Origin::person()));
        Outcome edit, undo, next;
        files.propose(at(QStringLiteral("src/main.lisp")), agent(), replacing(QStringLiteral("42"), QStringLiteral("43")), edit.callback());
        QVERIFY(edit.done);
        files.undoLast(files.history().constLast().absolutePath, Origin::person(), undo.callback());
        QVERIFY(QTest::qWaitFor([&] { return undo.done; }, 2000));
        QVERIFY2(undo.error.isEmpty(), qPrintable(undo.error));
        // The person's own change: the agent's read is stale after the undo, and is refused for it.
        files.propose(at(QStringLiteral("src/main.lisp")), Origin::person(), replacing(QStringLiteral("42"), QStringLiteral("44")), next.callback());
        QVERIFY(QTest::qWaitFor([&] { return next.done; }, 2000));
        QVERIFY2(next.error.isEmpty(), qPrintable(next.error));
        QCOMPARE(bytesOf(at(QStringLiteral("src/main.lisp"))), QByteArray("(defun main ()\n  44)\n"));
    }

    void undoNeverLosesLaterChangesAndTakesBackACreatedFile()
    {
        ProjectFiles files;
        QVERIFY(files.setRoot(m_root, Origin::person()));
        Outcome edit, undo;
        files.propose(at(QStringLiteral("src/main.lisp")), agent(), replacing(QStringLiteral("42"), QStringLiteral("43")), edit.callback());
        writeBytes(at(QStringLiteral("src/main.lisp")), "(defun main ()\n  43) ; later\n");
        files.undoLast(at(QStringLiteral("src/main.lisp")), Origin::person(), undo.callback());
        QVERIFY(QTest::qWaitFor([&] { return undo.done; }, 2000));
        QVERIFY2(undo.error.contains(QStringLiteral("would lose those later changes")), qPrintable(undo.error));
        QCOMPARE(bytesOf(at(QStringLiteral("src/main.lisp"))), QByteArray("(defun main ()\n  43) ; later\n"));

        Outcome create, takeBack;
        files.propose(at(QStringLiteral("src/fresh.lisp")), agent(),
                      [](const TextFileContents &, bool exists, QString *) -> std::optional<FileChange> {
                          FileChange change;
                          change.after = exists ? QString() : QStringLiteral("(defun fresh ())\n");
                          return change;
                      },
                      create.callback());
        QVERIFY2(create.error.isEmpty(), qPrintable(create.error));
        QVERIFY(create.change.created);
        files.undoLast(at(QStringLiteral("src/fresh.lisp")), Origin::person(), takeBack.callback());
        QVERIFY(QTest::qWaitFor([&] { return takeBack.done; }, 2000));
        QVERIFY2(takeBack.error.isEmpty(), qPrintable(takeBack.error));
        QVERIFY(takeBack.change.deleted);
        QVERIFY(!QFile::exists(at(QStringLiteral("src/fresh.lisp"))));
    }
};

QTEST_GUILESS_MAIN(TestProjectFiles)
#include "tst_projectfiles.moc"

// The journal: records as JSON lines, written as they happen, read back tolerating a torn
// last line; attached to a real Session so evaluations and engine events land in it.

#include "client/EngineClient.h"
#include "history/Journal.h"
#include "project/ProjectFiles.h"
#include "session/Session.h"
#include "SessionHarness.h"

#include <QFile>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {
using SessionHarness::waitFor;

quint64 eval(Session &session, const QString &code, Origin origin = Origin::person())
{
    return SessionHarness::submit(session, code, origin);
}

QList<QByteArray> linesOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> lines = file.readAll().split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}
} // namespace

class TestJournal : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
    }

    void anEvaluationRoundTripsThroughItsJsonRecord()
    {
        Job e;
        e.id = 7;
        e.sequence = 3;
        e.request.code = QStringLiteral("(defun f (x) (* x 2))");
        e.request.origin = Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code#1"));
        e.request.description = QStringLiteral("define the doubler");
        e.result.status = JobResult::Status::Error;
        e.result.values = {QStringLiteral("F")};
        e.result.stdoutText = QStringLiteral("hello\n");
        e.result.warnings = {QStringLiteral("STYLE-WARNING: x")};
        e.result.error = {QStringLiteral("DIVISION-BY-ZERO"), QStringLiteral("Division by zero"), QStringLiteral("eval"), {QStringLiteral("0: (/ 1 0)")}};
        e.result.realMicroseconds = 1234;
        e.queuedAt = QDateTime::currentDateTime().addMSecs(-30);
        e.startedAt = e.queuedAt.addMSecs(10);
        e.finishedAt = e.startedAt.addMSecs(12);

        const JournalEntry written = JournalEntry::fromJob(e, QStringLiteral("COMMON-LISP-USER"));
        JournalEntry read;
        QVERIFY(JournalEntry::fromJson(written.toJson(), &read));
        QVERIFY(read.past);
        QCOMPARE(read.job.request.code, e.request.code);
        QCOMPARE(read.job.request.package, QStringLiteral("COMMON-LISP-USER"));
        QCOMPARE(read.job.request.origin.name, QStringLiteral("claude-code"));
        QCOMPARE(read.job.request.origin.clientKey, QStringLiteral("claude-code#1"));
        QVERIFY(read.job.request.origin.isAgent());
        QCOMPARE(read.job.request.description, e.request.description);
        QCOMPARE(read.job.result.status, JobResult::Status::Error);
        QCOMPARE(read.job.result.error.type, QStringLiteral("DIVISION-BY-ZERO"));
        QCOMPARE(read.job.result.error.backtrace, e.result.error.backtrace);
        QCOMPARE(read.job.result.stdoutText, e.result.stdoutText);
        QCOMPARE(read.job.result.warnings, e.result.warnings);
        QCOMPARE(read.job.result.realMicroseconds, 1234);
        QCOMPARE(read.job.finishedAt, e.finishedAt);
        QCOMPARE(read.job.queuedAt, e.queuedAt);
    }

    void outputBeyondTheCapIsCutAndCounted()
    {
        Job e;
        e.result.stdoutText = QString(Journal::OutputCap + 500, QLatin1Char('x'));
        e.result.stderrText = QStringLiteral("short");
        const JournalEntry entry = JournalEntry::fromJob(e);
        QCOMPARE(entry.job.result.stdoutText.size(), Journal::OutputCap);
        QCOMPARE(entry.stdoutCut, 500);
        QCOMPARE(entry.stderrCut, 0);
        JournalEntry read;
        QVERIFY(JournalEntry::fromJson(entry.toJson(), &read));
        QCOMPARE(read.stdoutCut, 500);
    }

    void theFileIsPrivateAndEachRecordIsOneLine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/j.jsonl"));
        Journal journal;
        QVERIFY(journal.open(path));
        QVERIFY(journal.recordEvent(QStringLiteral("app-started"), QStringLiteral("started")));
        QVERIFY(journal.recordEvent(QStringLiteral("session-reset"), QStringLiteral("multi\nline\nmessage"), Origin::person()));
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QCOMPARE(int(st.st_mode & 0777), 0600);
        // Written through to the kernel already: another reader sees both lines now.
        const QList<QByteArray> lines = linesOf(path);
        QCOMPARE(lines.size(), 2);
        for (const QByteArray &line : lines)
            QVERIFY(QJsonDocument::fromJson(line).isObject());
    }

    void aTornLastLineIsReportedAndTheRestIsRead()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("j.jsonl"));
        {
            Journal journal;
            QVERIFY(journal.open(path));
            journal.recordEvent(QStringLiteral("app-started"), QStringLiteral("one"));
            journal.recordEvent(QStringLiteral("engine-started"), QStringLiteral("two"));
        }
        QFile file(path);
        QVERIFY(file.open(QIODevice::Append));
        file.write("{\"type\":\"evaluation\",\"code\":\"(+ 1");
        file.close();

        JournalContents contents = Journal::read(path);
        QVERIFY(contents.ok());
        QCOMPARE(contents.entries.size(), 2);
        QVERIFY(contents.tornTail);
        QCOMPARE(contents.badLines, 0);

        // Appending again starts on a fresh line: the torn piece stays alone and new records read.
        Journal journal;
        QVERIFY(journal.open(path));
        journal.recordEvent(QStringLiteral("app-started"), QStringLiteral("three"));
        contents = Journal::read(path);
        QCOMPARE(contents.entries.size(), 3);
        QCOMPARE(contents.entries.last().message, QStringLiteral("three"));
        QCOMPARE(contents.badLines, 1);
        QVERIFY(!contents.tornTail);
    }

    void aMissingFileIsAClearError()
    {
        const JournalContents contents = Journal::read(QStringLiteral("/nonexistent/dir/j.jsonl"));
        QVERIFY(!contents.ok());
        QVERIFY(contents.error.contains(QStringLiteral("/nonexistent/dir/j.jsonl")));
    }

    void latestFindsTheNewestJournalWithEvaluations()
    {
        // Test mode: Journal::directory() is under ~/.qttest, shared by the runs of this test.
        QDir(Journal::directory()).removeRecursively();
        QDir().mkpath(Journal::directory());
        auto writeFile = [](const QString &name, const QByteArray &content) {
            QFile f(Journal::directory() + QLatin1Char('/') + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        };
        writeFile(QStringLiteral("20260101T000000.000Z.jsonl"), "{\"type\":\"evaluation\",\"code\":\"1\"}\n");
        writeFile(QStringLiteral("20260102T000000.000Z.jsonl"), "{\"type\":\"evaluation\",\"code\":\"2\"}\n");
        writeFile(QStringLiteral("20260103T000000.000Z.jsonl"), "{\"type\":\"event\",\"event\":\"app-started\"}\n");
        QVERIFY(Journal::latest().endsWith(QStringLiteral("20260102T000000.000Z.jsonl")));
        QVERIFY(Journal::latest(Journal::directory() + QStringLiteral("/20260102T000000.000Z.jsonl"))
                    .endsWith(QStringLiteral("20260101T000000.000Z.jsonl")));
        QVERIFY(Journal::newPath().startsWith(Journal::directory()));
        QDir(Journal::directory()).removeRecursively();
    }

    void fileChangesAreRecordedWithDigestsAndDiffButNotTheirTexts()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("project"));
        QDir().mkpath(root);
        {
            QFile file(root + QStringLiteral("/a.lisp"));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("(defun a () 1)\n");
        }
        ProjectFiles files;
        Journal journal;
        const QString path = dir.filePath(QStringLiteral("j.jsonl"));
        QVERIFY(journal.open(path));
        journal.attach(&files);
        QVERIFY(files.setRoot(root, Origin::person()));
        bool done = false;
        const Origin agent = Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code#1"));
        files.propose(QFileInfo(root + QStringLiteral("/a.lisp")).canonicalFilePath(), agent,
                      [](const TextFileContents &current, bool, QString *) -> std::optional<FileChange> {
                          FileChange change;
                          change.kind = FileChange::Kind::Edit;
                          change.tool = QStringLiteral("edit-form");
                          change.description = QStringLiteral("return 2");
                          change.after = QString(current.text).replace(QLatin1Char('1'), QLatin1Char('2'));
                          return change;
                      },
                      [&done](const FileChange &, const QString &error) { done = error.isEmpty(); });
        QVERIFY(done);
        const JournalContents contents = Journal::read(path);
        QVERIFY(contents.ok());
        const auto change = std::find_if(contents.entries.cbegin(), contents.entries.cend(), [](const JournalEntry &e) { return e.isFileChange(); });
        QVERIFY(change != contents.entries.cend());
        QCOMPARE(change->file.path, QStringLiteral("a.lisp"));
        QCOMPARE(change->file.origin.name, QStringLiteral("claude-code"));
        QCOMPARE(change->file.tool, QStringLiteral("edit-form"));
        QCOMPARE(change->file.beforeDigest, TextFile::digest("(defun a () 1)\n"));
        QCOMPARE(change->file.afterDigest, TextFile::digest("(defun a () 2)\n"));
        QVERIFY(change->file.diff.text.contains(QStringLiteral("-(defun a () 1)\n+(defun a () 2)")));
        QVERIFY(!linesOf(path).join().contains("\"before\""));
        QVERIFY(std::any_of(contents.entries.cbegin(), contents.entries.cend(),
                            [](const JournalEntry &e) { return e.event == QStringLiteral("project-root"); }));
    }

    void pruningKeepsTheNewestJournalsAndWhatIsProtected()
    {
        // Test mode: Journal::directory() is under ~/.qttest, shared by the runs of this test.
        QDir(Journal::directory()).removeRecursively();
        QDir().mkpath(Journal::directory());
        const QString dir = Journal::directory() + QLatin1Char('/');
        QStringList names;
        for (int day = 1; day <= 9; ++day)
            names << QStringLiteral("2026010%1T000000.000Z.jsonl").arg(day);
        names << QStringLiteral("20260109T000000.000Z-2.jsonl") << QStringLiteral("my-notes.jsonl");
        for (const QString &name : std::as_const(names)) {
            QFile f(dir + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"type\":\"evaluation\",\"code\":\"1\"}\n");
        }
        // Keep 3: the two of Jan 9 and Jan 8; Jan 2 is protected (the previous session shown).
        QCOMPARE(Journal::prune(3, {dir + QStringLiteral("20260102T000000.000Z.jsonl")}), 6);
        QStringList left = QDir(Journal::directory()).entryList(QDir::Files, QDir::Name);
        QCOMPARE(left, (QStringList{QStringLiteral("20260102T000000.000Z.jsonl"), QStringLiteral("20260108T000000.000Z.jsonl"),
                                    QStringLiteral("20260109T000000.000Z-2.jsonl"), QStringLiteral("20260109T000000.000Z.jsonl"),
                                    QStringLiteral("my-notes.jsonl")}));
        QCOMPARE(Journal::prune(3), 1); // nothing protected now: Jan 2 goes, a hand-made file stays
        QCOMPARE(Journal::prune(0, {dir + QStringLiteral("20260108T000000.000Z.jsonl")}), 2);
        left = QDir(Journal::directory()).entryList(QDir::Files, QDir::Name);
        QCOMPARE(left, (QStringList{QStringLiteral("20260108T000000.000Z.jsonl"), QStringLiteral("my-notes.jsonl")}));
        QDir(Journal::directory()).removeRecursively();
    }

    void aSessionsEvaluationsAndEngineEventsAreRecordedAsTheyHappen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("session.jsonl"));
        EngineClient engine;
        Session session(&engine);
        Journal journal;
        QVERIFY(journal.open(path));
        journal.attach(&session);
        engine.start();

        auto done = waitFor(session, eval(session, QStringLiteral("(defpackage :jt (:use :cl)) (in-package :jt) (defun twice (x) (* 2 x))")));
        QVERIFY(done && done->result.ok());
        done = waitFor(session, eval(session, QStringLiteral("(progn (princ \"out\") (twice 21))"),
                                     Origin::agent(QStringLiteral("agent-a"), QStringLiteral("agent-a#1"))));
        QVERIFY(done);
        QCOMPARE(done->result.values, QStringList{QStringLiteral("42")});
        // Each evaluation is on disk by the time its finished() handlers ran.
        JournalContents contents = Journal::read(path);
        QList<JournalEntry> jobs;
        for (const JournalEntry &entry : contents.entries) {
            if (entry.isJob())
                jobs << entry;
        }
        QCOMPARE(jobs.size(), 2);
        QCOMPARE(jobs.at(0).job.request.package, QStringLiteral("COMMON-LISP-USER"));
        QCOMPARE(jobs.at(1).job.request.package, QStringLiteral("JT"));
        QCOMPARE(jobs.at(1).job.result.stdoutText, QStringLiteral("out"));
        QCOMPARE(jobs.at(1).job.request.origin.name, QStringLiteral("agent-a"));
        QVERIFY(jobs.at(1).job.startedAt.isValid());

        QSignalSpy status(&session, &Session::engineStatus);
        session.reset(Origin::agent(QStringLiteral("agent-a"), QStringLiteral("agent-a#1")), QStringLiteral("start clean"));
        QTRY_VERIFY_WITH_TIMEOUT(!status.isEmpty() && status.last().at(0).value<Session::EngineStatus>() == Session::EngineStatus::Ready, 20000);
        contents = Journal::read(path);
        QStringList events;
        for (const JournalEntry &entry : contents.entries) {
            if (!entry.isJob())
                events << entry.event;
        }
        QVERIFY2(events.contains(QStringLiteral("engine-started")), qPrintable(events.join(u',')));
        QVERIFY2(events.contains(QStringLiteral("session-reset")), qPrintable(events.join(u',')));
        QVERIFY2(events.contains(QStringLiteral("engine-restarted")), qPrintable(events.join(u',')));
        for (const JournalEntry &entry : contents.entries) {
            if (entry.event == QStringLiteral("session-reset")) {
                QCOMPARE(entry.by.name, QStringLiteral("agent-a"));
                QCOMPARE(entry.message, QStringLiteral("The session was reset by agent-a (start clean).")); // its description
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestJournal)
#include "tst_journal.moc"

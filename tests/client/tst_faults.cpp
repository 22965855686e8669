// The fault table of issue 6, engine and session rows: each test does something hostile to
// a real engine through a real Session, then checks what the caller was told, that the next
// evaluation succeeds, and that every completed evaluation is still in the transcript and in
// the journal. tests/FAULTS.md lists the rows with the behaviour each test proves.

#include "../common/ResidentMemory.h"
#include "client/EngineClient.h"
#include "history/Journal.h"
#include "session/Session.h"
#include "SessionHarness.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QThread>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using SessionHarness::evaluate;
using SessionHarness::submit;
using SessionHarness::waitFor;

namespace {

const QString KilledAfterGrace1s = QStringLiteral(
    "The evaluation did not finish within 1 s and did not stop within 2 s of being interrupted (it may run inside "
    "WITHOUT-INTERRUPTS or a blocking foreign call), so the engine process was killed and a fresh one started. Every "
    "definition of the session is gone; replay the journal to restore them.");
const QString KilledAfterInterrupt = QStringLiteral(
    "The evaluation did not stop within 2 s of being interrupted, so the engine process was killed and a fresh one "
    "started. Every definition of the session is gone; replay the journal to restore them.");
} // namespace

class TestFaults : public QObject
{
    Q_OBJECT

    QTemporaryDir *m_dir = nullptr;
    EngineClient *m_engine = nullptr;
    Session *m_session = nullptr;
    Journal *m_journal = nullptr;
    int m_finished = 0;

    bool waitReady(int timeoutMs = 20000)
    {
        return QTest::qWaitFor([this] { return m_engine->isReady(); }, timeoutMs);
    }
    // Waits for a fresh engine after one died: ready again, with another process id.
    bool waitRestarted(qint64 oldPid, int timeoutMs = 20000)
    {
        return QTest::qWaitFor([&] { return m_engine->isReady() && m_engine->pid() != oldPid; }, timeoutMs);
    }

private Q_SLOTS:
    void init()
    {
        m_dir = new QTemporaryDir;
        m_engine = new EngineClient;
        m_session = new Session(m_engine);
        m_journal = new Journal;
        QVERIFY(m_journal->open(m_dir->filePath(QStringLiteral("faults.jsonl"))));
        m_journal->attach(m_session);
        m_finished = 0;
        connect(m_session, &Session::finished, this, [this] { ++m_finished; });
        m_engine->start();
        QVERIFY(waitReady());
        const JobPtr before = evaluate(*m_session, QStringLiteral("(defvar *before* :kept)"));
        QVERIFY(before && before->result.ok());
    }

    // Every row ends here: the next evaluation succeeds, and nothing completed is lost.
    void cleanup()
    {
        if (m_session && !QTest::currentTestFailed()) {
            const JobPtr next = evaluate(*m_session, QStringLiteral("(+ 40 2)"));
            QVERIFY2(next, "the next evaluation was never answered");
            QVERIFY2(next->result.ok(), qPrintable(next->result.error.message));
            QCOMPARE(next->result.values, QStringList{QStringLiteral("42")});
            QCOMPARE(int(m_session->transcript().size()), m_finished);
            QCOMPARE(m_session->transcript().first()->request.code, QStringLiteral("(defvar *before* :kept)"));
            int journaled = 0;
            for (const JournalEntry &entry : Journal::read(m_journal->path()).entries)
                journaled += entry.isJob();
            QCOMPARE(journaled, m_finished);
        }
        delete m_journal;
        delete m_session;
        delete m_engine;
        delete m_dir;
        m_journal = nullptr;
        m_session = nullptr;
        m_engine = nullptr;
        m_dir = nullptr;
    }

    void anEngineKilledBySigkillMidEvaluationIsReplacedAndTheCallerTold()
    {
        const qint64 pid = m_engine->pid();
        const quint64 id = submit(*m_session, QStringLiteral("(sleep 60)"));
        QTRY_VERIFY(m_session->current() && m_session->current()->id == id);
        QTest::qWait(200);
        QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
        const JobPtr done = waitFor(*m_session, id);
        QVERIFY(done);
        QCOMPARE(done->result.status, JobResult::Status::EngineRestarted);
        QCOMPARE(done->result.error.type, QStringLiteral("ENGINE-RESTARTED"));
        QVERIFY2(done->result.error.message.contains(QStringLiteral("signal 9")), qPrintable(done->result.error.message));
        QVERIFY(done->result.error.message.contains(QStringLiteral("every definition of the session is gone")));
        QVERIFY(waitRestarted(pid));
    }

    void aRequestWrittenToAnEngineThatJustDiedDoesNotEndTheHost()
    {
        // The host writes the protocol pipe itself (write(2), not QProcess): once the engine is
        // gone and before the event loop has seen it exit, a request meets a pipe with no
        // reader. That must fail with EPIPE and cost a restart, not end the host with SIGPIPE
        // (an interrupt storm once ended this program that way).
        const qint64 pid = m_engine->pid();
        const quint64 id = submit(*m_session, QStringLiteral("(sleep 60)"));
        QTRY_VERIFY(m_session->current() && m_session->current()->id == id);
        QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
        QThread::msleep(300); // the process ends and its pipes close; no event is processed
        m_session->interruptCurrent(); // writes the interrupt line into the dead engine's pipe
        const JobPtr done = waitFor(*m_session, id);
        QVERIFY(done);
        QCOMPARE(done->result.status, JobResult::Status::EngineRestarted);
        QVERIFY(waitRestarted(pid));
        const JobPtr after = evaluate(*m_session, QStringLiteral("(+ 1 2)"));
        QVERIFY(after && after->result.ok());
    }

    void aSigsegvSentToTheEngineCostsARestartAtMost()
    {
        const qint64 pid = m_engine->pid();
        const quint64 id = submit(*m_session, QStringLiteral("(sleep 5)"));
        QTRY_VERIFY(m_session->current() && m_session->current()->id == id);
        QTest::qWait(200);
        QCOMPARE(::kill(pid_t(pid), SIGSEGV), 0);
        const JobPtr done = waitFor(*m_session, id);
        QVERIFY(done);
        // ECL traps SIGSEGV: a signal sent to the process either surfaces in a Lisp thread as
        // a condition (the evaluation fails, the engine lives) or ends the process (restart).
        if (done->result.status == JobResult::Status::EngineRestarted) {
            QVERIFY2(done->result.error.message.contains(QStringLiteral("signal")), qPrintable(done->result.error.message));
            QVERIFY(waitRestarted(pid));
        } else {
            qInfo("SIGSEGV by kill: status %s, %s: %s", qPrintable(JobResult::statusName(done->result.status)),
                  qPrintable(done->result.error.type), qPrintable(done->result.error.message));
            QVERIFY(done->result.status == JobResult::Status::Ok || !done->result.error.message.isEmpty());
        }
    }

    void aSegfaultThroughTheFfiIsAnErrorAndTheImageLives()
    {
        const qint64 pid = m_engine->pid();
        const JobPtr done = evaluate(*m_session, QStringLiteral("(ffi:deref-pointer (ffi:make-pointer 0 :int) :int)"));
        QVERIFY(done);
        QCOMPARE(done->result.status, JobResult::Status::Error);
        QCOMPARE(done->result.error.type, QStringLiteral("EXT:SEGMENTATION-VIOLATION"));
        QCOMPARE(m_engine->pid(), pid);
        const JobPtr kept = evaluate(*m_session, QStringLiteral("*before*"));
        QVERIFY(kept && kept->result.ok());
        QCOMPARE(kept->result.values, QStringList{QStringLiteral(":KEPT")});
    }

    void codeThatIgnoresInterruptsPastItsTimeLimitCostsARestartWithAnExactMessage()
    {
        const qint64 pid = m_engine->pid();
        QElapsedTimer clock;
        clock.start();
        const JobPtr done = evaluate(*m_session, QStringLiteral("(mp:without-interrupts (loop))"), Origin::person(), 1000);
        QVERIFY(done);
        const qint64 elapsed = clock.elapsed();
        QCOMPARE(done->result.status, JobResult::Status::EngineRestarted);
        QCOMPARE(done->result.error.type, QStringLiteral("ENGINE-RESTARTED"));
        QCOMPARE(done->result.error.message, KilledAfterGrace1s);
        // 1 s limit + 2 s grace (coarse timers may fire up to 5% early): not killed before its time.
        QVERIFY2(elapsed >= 2800, qPrintable(QString::number(elapsed)));
        QVERIFY(waitRestarted(pid));
    }

    void aPersonsInterruptOfSuchCodeCostsARestartWithAnExactMessage()
    {
        const qint64 pid = m_engine->pid();
        const quint64 id = submit(*m_session, QStringLiteral("(mp:without-interrupts (loop))"), Origin::person(), 0);
        QTRY_VERIFY(m_session->current() && m_session->current()->id == id);
        QTest::qWait(300);
        m_session->interruptCurrent();
        const JobPtr done = waitFor(*m_session, id);
        QVERIFY(done);
        QCOMPARE(done->result.status, JobResult::Status::EngineRestarted);
        QCOMPARE(done->result.error.message, KilledAfterInterrupt);
        QVERIFY(waitRestarted(pid));
    }

    void aCancelOfInterruptibleCodeStopsItAndKeepsTheEngine()
    {
        const qint64 pid = m_engine->pid();
        const quint64 id = submit(*m_session, QStringLiteral("(loop)"), Origin::person(), 0);
        QTRY_VERIFY(m_session->current() && m_session->current()->id == id);
        QVERIFY(m_session->cancel(id));
        const JobPtr done = waitFor(*m_session, id);
        QVERIFY(done);
        QCOMPARE(done->result.status, JobResult::Status::Interrupted);
        QCOMPARE(done->result.error.message, QStringLiteral("The evaluation was interrupted. The session is intact."));
        QCOMPARE(m_engine->pid(), pid);
    }

    void heapExhaustionUnderALimitIsAnErrorAndTheImageLives()
    {
        const qint64 pid = m_engine->pid();
        const JobPtr limit = evaluate(*m_session, QStringLiteral("(ext:set-limit 'ext:heap-size (* 256 1024 1024))"));
        QVERIFY(limit && limit->result.ok());
        const JobPtr done = evaluate(*m_session,
                                           QStringLiteral("(let ((keep '())) (loop (push (make-array 1000000 :element-type 'double-float) keep)))"),
                                           Origin::person(), 60000);
        QVERIFY(done);
        QCOMPARE(done->result.status, JobResult::Status::Error);
        QCOMPARE(done->result.error.type, QStringLiteral("EXT:STORAGE-EXHAUSTED"));
        QCOMPARE(m_engine->pid(), pid);
        const JobPtr kept = evaluate(*m_session, QStringLiteral("(length (make-list 1000 :initial-element *before*))"));
        QVERIFY(kept && kept->result.ok());
        QCOMPARE(kept->result.values, QStringList{QStringLiteral("1000")});
    }

    void stackExhaustionIsAnErrorAndTheImageLives()
    {
        const qint64 pid = m_engine->pid();
        const JobPtr done = evaluate(*m_session, QStringLiteral("(defun deep (n) (1+ (deep (1+ n)))) (deep 0)"));
        QVERIFY(done);
        QCOMPARE(done->result.status, JobResult::Status::Error);
        QVERIFY2(done->result.error.type.contains(QStringLiteral("STACK-OVERFLOW")), qPrintable(done->result.error.type));
        QCOMPARE(m_engine->pid(), pid);
        // The stack is usable again: a second overflow is caught the same way.
        const JobPtr again = evaluate(*m_session, QStringLiteral("(deep 0)"));
        QVERIFY(again && again->result.error.type.contains(QStringLiteral("STACK-OVERFLOW")));
    }

    void oneHundredMegabytesOfOutputKeepOnlyTheCapAndHostMemoryStaysBounded()
    {
        const qint64 rssBefore = residentKiB();
        const JobPtr done = evaluate(*m_session,
                                           QStringLiteral("(let ((line (make-string 99 :initial-element #\\x))) "
                                                          "(dotimes (i 1000000) (write-line line)) :done)"),
                                           Origin::person(), 120000);
        QVERIFY(done);
        QVERIFY2(done->result.ok(), qPrintable(done->result.error.message));
        QCOMPARE(done->result.values, QStringList{QStringLiteral(":DONE")});
        const qint64 kept = done->result.stdoutText.size();
        QVERIFY2(kept <= 100000, qPrintable(QString::number(kept)));
        QCOMPARE(kept + done->result.outputDropped, qint64(100) * 1000000);
        const qint64 growthKiB = residentKiB() - rssBefore;
        qInfo("100 MB of output: %lld characters kept, %lld dropped, host RSS grew %lld KiB", kept,
              done->result.outputDropped, growthKiB);
#if !DUET_UNDER_ASAN
        QVERIFY2(growthKiB < 32 * 1024, qPrintable(QString::number(growthKiB)));
#endif
    }

    void oneHundredMegabytesWrittenToTheProcessStdoutStayBounded()
    {
        // Output that bypasses Lisp streams (a child process writing to fd 1) reaches the host
        // as process output; the session keeps a capped amount of it.
        const qint64 rssBefore = residentKiB();
        const JobPtr done = evaluate(*m_session, QStringLiteral("(ext:system \"head -c 100000000 /dev/zero | tr '\\\\0' x\")"),
                                           Origin::person(), 120000);
        QVERIFY(done);
        QVERIFY2(done->result.ok(), qPrintable(done->result.error.message));
        const qint64 growthKiB = residentKiB() - rssBefore;
        qInfo("100 MB on the engine's stdout: %lld characters kept in stderr, host RSS grew %lld KiB",
              qint64(done->result.stderrText.size()), growthKiB);
        QVERIFY2(done->result.stderrText.size() <= 100000, qPrintable(QString::number(done->result.stderrText.size())));
        QVERIFY(done->result.outputDropped >= 100000000 - 100000 - 65536); // at most a pipe's worth arrives after the reply
#if !DUET_UNDER_ASAN // ASan holds freed memory in its quarantine (256 MB): RSS says nothing there
        QVERIFY2(growthKiB < 64 * 1024, qPrintable(QString::number(growthKiB)));
#endif
    }

    void quitAndExitAreRefused_data()
    {
        QTest::addColumn<QString>("code");
        QTest::newRow("ext:quit") << QStringLiteral("(ext:quit)");
        QTest::newRow("ext:quit with a code") << QStringLiteral("(ext:quit 3)");
        QTest::newRow("ext:exit") << QStringLiteral("(ext:exit)");
        QTest::newRow("si:quit") << QStringLiteral("(si:quit)");
    }

    void quitAndExitAreRefused()
    {
        QFETCH(QString, code);
        const qint64 pid = m_engine->pid();
        const JobPtr done = evaluate(*m_session, code);
        QVERIFY(done);
        QCOMPARE(done->result.status, JobResult::Status::Error);
        QVERIFY2(done->result.error.type.contains(QStringLiteral("QUIT-REFUSED")), qPrintable(done->result.error.type));
        QCOMPARE(m_engine->pid(), pid);
        const JobPtr kept = evaluate(*m_session, QStringLiteral("*before*"));
        QVERIFY(kept && kept->result.ok());
    }

    void aReplyOverTheEngineLineCapFailsItsEvaluationAndTheSessionGoesOn()
    {
        // The real cap is 256 MiB, beyond what the kernel's output caps let a job return; a
        // 64 KiB cap here makes a 100,000-character printed value a reply too large to read.
        m_engine->setMaxLineBytes(64 * 1024);
        const JobPtr big = evaluate(*m_session, QStringLiteral("(make-string 200000 :initial-element #\\a)"));
        m_engine->setMaxLineBytes(EngineClient::DefaultMaxLineBytes);
        QVERIFY2(big, "the evaluation was never answered");
        QCOMPARE(big->result.status, JobResult::Status::Failed);
        QCOMPARE(big->result.error.type, QStringLiteral("REPLY-TOO-LARGE"));
        QCOMPARE(big->result.error.message,
                 QStringLiteral("The engine's reply was larger than 64 KiB and was dropped. Lower max_output_chars or "
                                "print_length, or return a smaller value (the session is intact)."));
        const JobPtr kept = evaluate(*m_session, QStringLiteral("*before*"));
        QVERIFY(kept && kept->result.ok());
        QCOMPARE(kept->result.values, QStringList{QStringLiteral(":KEPT")});
    }

    void anInterruptStormWhileEvaluationsRunLeavesNothingUnanswered()
    {
        // 1,000 interrupts, a few per millisecond, while 200 evaluations queue up and run. On a
        // loaded 2-core machine the engine can be off the CPU for longer than the 2 s default
        // grace (CI once saw the storm take 8 s): a generous grace keeps this test about lost
        // or deadlocked interrupts, which would still cost a restart, not about scheduling.
        m_session->setInterruptGraceMs(10000);
        QList<quint64> ids;
        for (int i = 0; i < 200; ++i)
            ids << submit(*m_session, i % 2 ? QStringLiteral("(sleep 0.01)") : QStringLiteral("(loop repeat 300000 count t)"));
        int interrupts = 0;
        QElapsedTimer clock;
        clock.start();
        while (interrupts < 1000) {
            m_session->interruptCurrent();
            ++interrupts;
            QCoreApplication::processEvents();
            if (interrupts % 4 == 0)
                QTest::qWait(1);
        }
        QHash<quint64, JobResult::Status> statuses;
        QTRY_VERIFY_WITH_TIMEOUT(m_finished >= 201, 120000); // the defvar of init() and the 200
        for (const JobPtr &e : m_session->transcript()) {
            if (ids.contains(e->id))
                statuses.insert(e->id, e->result.status);
        }
        QCOMPARE(statuses.size(), ids.size());
        int ok = 0;
        int interrupted = 0;
        int restarted = 0;
        for (JobResult::Status status : std::as_const(statuses)) {
            ok += status == JobResult::Status::Ok;
            interrupted += status == JobResult::Status::Interrupted;
            restarted += status == JobResult::Status::EngineRestarted;
        }
        qInfo("interrupt storm: %d interrupts in %lld ms; %d ok, %d interrupted, %d engine restarts", interrupts,
              clock.elapsed(), ok, interrupted, restarted);
        QCOMPARE(ok + interrupted + restarted, ids.size());
        QVERIFY(interrupted > 0);
        QCOMPARE(restarted, 0); // every interrupt was honoured (or its job finished) within the grace
    }
};

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"

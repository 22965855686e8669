// Code that tries to break the session: each case must give a clear result, never a hang or
// a crash of the app, and the very next evaluation must work (INV-002 of seed 002).

#include "../common/ResidentMemory.h"
#include "../common/EngineHarness.h"

#include <QJsonDocument>

#include <QFile>
#include <QTest>

#include <csignal>
#include <sys/types.h>

class TestBadInput : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> m_lisp;

    // The check that follows every case: the session still evaluates, in the same package.
    void verifyNextEvaluationWorks()
    {
        const JobResult next = m_lisp->result(QStringLiteral("(list (+ 40 2) (package-name *package*))"));
        QVERIFY2(next.ok(), qPrintable(next.error.type + QLatin1Char(' ') + next.error.message));
        QCOMPARE(next.values, QStringList{"(42 \"COMMON-LISP-USER\")"});
    }

    JobResult runWithTimeout(const QString &code, int timeoutMs, int waitMs = 60000)
    {
        JobRequest request;
        request.code = code;
        request.timeoutMs = timeoutMs;
        const JobPtr job = m_lisp->run(request, waitMs);
        if (job)
            return job->result;
        JobResult missing;
        missing.status = JobResult::Status::Failed;
        missing.error.message = QStringLiteral("no result within %1 ms").arg(waitMs);
        return missing;
    }


private Q_SLOTS:
    void init()
    {
        m_lisp = std::make_unique<EngineHarness>();
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
    }
    void cleanup() { m_lisp.reset(); }

    void aReaderErrorIsAnErrorResult()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(+ 1 2"));
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, QStringLiteral("END-OF-FILE"));
        verifyNextEvaluationWorks();
    }

    void anUnknownPackageIsAnErrorResult()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(+ 1 2)"), QStringLiteral("nowhere"));
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, QStringLiteral("PACKAGE-ERROR"));
        verifyNextEvaluationWorks();
    }

    void anEndlessLoopIsStoppedByTheTimeLimit()
    {
        QVERIFY(m_lisp->result(QStringLiteral("(defvar *made-before* :kept)")).ok());
        const qint64 pid = m_lisp->engine.pid();
        QElapsedTimer clock;
        clock.start();
        const JobResult result = runWithTimeout(QStringLiteral("(loop)"), 500);
        QCOMPARE(result.status, JobResult::Status::TimedOut);
        QCOMPARE(result.error.type, QStringLiteral("TIMEOUT"));
        QVERIFY2(result.error.message.contains(QStringLiteral("did not finish within 0.5 s and was interrupted")),
                 qPrintable(result.error.message));
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(m_lisp->engine.pid(), pid); // interrupted, not killed
        QCOMPARE(m_lisp->result(QStringLiteral("*made-before*")).values, QStringList{":KEPT"});
        verifyNextEvaluationWorks();
    }

    void codeThatWritesAsFastAsItCanIsStillInterrupted_data()
    {
        QTest::addColumn<QString>("code");
        QTest::newRow("write-char") << "(loop (write-char #\\a))";
        QTest::newRow("print") << "(loop (print 1))";
        QTest::newRow("stderr with finish-output") << "(loop (format *error-output* \"x~%\") (finish-output *error-output*))";
        QTest::newRow("a string stream of its own") << "(let ((s (make-string-output-stream))) (loop (write-string \"abc\" s)))";
    }
    void codeThatWritesAsFastAsItCanIsStillInterrupted()
    {
        QFETCH(QString, code);
        const qint64 pid = m_lisp->engine.pid();
        const JobResult result = runWithTimeout(code, 700, 15000);
        QCOMPARE(result.status, JobResult::Status::TimedOut);
        QCOMPARE(m_lisp->engine.pid(), pid);
        QVERIFY(result.stdoutText.size() + result.stderrText.size() <= 100000);
        verifyNextEvaluationWorks();
    }

    void theSessionDefaultTimeLimitApplies()
    {
        m_lisp->session.setDefaultTimeoutMs(300);
        const JobResult result = m_lisp->result(QStringLiteral("(loop)"));
        QCOMPARE(result.status, JobResult::Status::TimedOut);
        QVERIFY2(result.error.message.contains(QStringLiteral("0.3 s")), qPrintable(result.error.message));
        m_lisp->session.setDefaultTimeoutMs(30000);
        verifyNextEvaluationWorks();
    }

    void quitAndExitAreRefused_data()
    {
        QTest::addColumn<QString>("code");
        QTest::newRow("ext:quit") << "(ext:quit)";
        QTest::newRow("ext:exit") << "(ext:exit)";
        QTest::newRow("si:quit with a code") << "(si:quit 3)";
        QTest::newRow("ext:exit with a code") << "(ext:exit 1)";
    }
    void quitAndExitAreRefused()
    {
        QFETCH(QString, code);
        const qint64 pid = m_lisp->engine.pid();
        const JobResult result = m_lisp->result(code);
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, QStringLiteral("LISP-DUET:QUIT-REFUSED"));
        QVERIFY2(result.error.message.contains(QStringLiteral("is disabled in Lisp Duet")), qPrintable(result.error.message));
        QCOMPARE(m_lisp->engine.pid(), pid);
        verifyNextEvaluationWorks();
    }

    void codeThatEndsItsOwnThreadGetsAnErrorAndANewThread_data()
    {
        QTest::addColumn<QString>("code");
        QTest::newRow("exit-process") << "(mp:exit-process)";
        QTest::newRow("process-kill of itself") << "(progn (mp:process-kill mp:*current-process*) (sleep 5))";
    }
    void codeThatEndsItsOwnThreadGetsAnErrorAndANewThread()
    {
        QFETCH(QString, code);
        QVERIFY(m_lisp->result(QStringLiteral("(defvar *before-the-end* :kept)")).ok());
        const qint64 pid = m_lisp->engine.pid();
        const JobResult result = runWithTimeout(code, 5000);
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, QStringLiteral("LISP-DUET:THREAD-ENDED"));
        QCOMPARE(m_lisp->engine.pid(), pid);
        QCOMPARE(m_lisp->result(QStringLiteral("*before-the-end*")).values, QStringList{":KEPT"});
        verifyNextEvaluationWorks();
        // The new thread can be interrupted like the old one.
        QCOMPARE(runWithTimeout(QStringLiteral("(loop)"), 500).status, JobResult::Status::TimedOut);
        QCOMPARE(m_lisp->engine.pid(), pid);
    }

    void deeplyNestedCodeIsRefusedNotACrash()
    {
        // ECL's reader overflows its C stack at about 25,000 levels and the engine dies.
        const qint64 pid = m_lisp->engine.pid();
        const JobResult result = m_lisp->result(QStringLiteral("'") + QString(30000, QLatin1Char('(')) + QString(30000, QLatin1Char(')')));
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, QStringLiteral("LISP-DUET:NESTING-TOO-DEEP"));
        QCOMPARE(result.error.phase, QStringLiteral("read"));
        QVERIFY2(result.error.message.contains(QStringLiteral("30000 deep")), qPrintable(result.error.message));
        QCOMPARE(m_lisp->engine.pid(), pid);
        verifyNextEvaluationWorks();
        // Deep, but within the limit: read and evaluated.
        const JobResult deep = m_lisp->result(QStringLiteral("(length '") + QString(5000, QLatin1Char('(')) + QString(5000, QLatin1Char(')'))
                                               + QStringLiteral(")"));
        QCOMPARE(deep.values, QStringList{"1"});
    }

    void codeLargerThanThePipeArrivesWholeAndTheEngineStaysResponsive()
    {
        // 4 MB of code: far more than a pipe holds (64 KiB), so the request is written in
        // parts as the engine reads; a question asked meanwhile is answered after it.
        const qint64 pid = m_lisp->engine.pid();
        const QString big = QStringLiteral("(length \"") + QString(4 * 1024 * 1024, QLatin1Char('x')) + QStringLiteral("\")");
        bool answered = false;
        m_lisp->session.query(EngineProtocol::arglist(QStringLiteral("car")), [&answered](const QJsonObject &reply) {
            answered = EngineProtocol::Reply(reply).ok();
        });
        const JobResult result = m_lisp->result(big);
        QCOMPARE(result.status, JobResult::Status::Ok);
        QCOMPARE(result.values, QStringList{QString::number(4 * 1024 * 1024)});
        QTRY_VERIFY(answered);
        QCOMPARE(m_lisp->engine.pid(), pid);
        verifyNextEvaluationWorks();
    }

    void deeplyNestedCodeIsRefusedByCompileAndMacroexpandToo()
    {
        const qint64 pid = m_lisp->engine.pid();
        const QString deep = QString(30000, QLatin1Char('(')) + QString(30000, QLatin1Char(')'));
        for (const EngineJob &request : {EngineProtocol::compilation(deep), EngineProtocol::macroexpansion(deep, false)}) {
            const QString op = EngineProtocol::operationName(request.kind);
            const JobPtr done = m_lisp->run(request);
            QVERIFY(done);
            const QString reply = QString::fromUtf8(QJsonDocument(done->result.reply).toJson(QJsonDocument::Compact));
            QVERIFY2(reply.contains(QStringLiteral("NESTING-TOO-DEEP")), qPrintable(op + QStringLiteral(": ") + reply.left(300)));
            QCOMPARE(m_lisp->engine.pid(), pid);
        }
        verifyNextEvaluationWorks();
    }

    void parenthesesInStringsCommentsAndCharactersDoNotCountAsNesting()
    {
        const QString many(20000, QLatin1Char('('));
        const QString code = QStringLiteral("(list (length \"%1\") ; %1\n #| %1 |# (length '(%2)) (length (symbol-name '|%1|)))")
                                 .arg(many, QStringLiteral("#\\( ").repeated(11000));
        const JobResult result = m_lisp->result(code);
        QVERIFY2(result.ok(), qPrintable(result.error.type + QLatin1Char(' ') + result.error.message.left(300)));
        QCOMPARE(result.values, QStringList{"(20000 11000 20000)"});
    }

    void deepRecursionIsAStackOverflowError()
    {
        for (int round = 0; round < 2; ++round) { // the guard page must be re-armed after the first
            const JobResult result = m_lisp->result(QStringLiteral("(defun deep (n) (1+ (deep (1+ n)))) (deep 0)"));
            QCOMPARE(result.status, JobResult::Status::Error);
            QCOMPARE(result.error.type, QStringLiteral("EXT:STACK-OVERFLOW"));
            QVERIFY2(result.error.message.contains(QStringLiteral("overflow")), qPrintable(result.error.message));
            QCOMPARE(result.error.backtrace.size(), 20); // at most 20 frames
            QVERIFY2(result.error.backtrace.first().startsWith(QStringLiteral("0: (DEEP ")), qPrintable(result.error.backtrace.first()));
            verifyNextEvaluationWorks();
        }
    }

    void aHugeAllocationIsAStorageErrorNotACrash()
    {
        const qint64 pid = m_lisp->engine.pid();
        const JobResult result = m_lisp->result(QStringLiteral("(length (make-array (expt 10 10)))"));
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, QStringLiteral("EXT:STORAGE-EXHAUSTED"));
        QCOMPARE(m_lisp->engine.pid(), pid);
        verifyNextEvaluationWorks();
        // The limit is restored afterwards: the second attempt is refused the same way.
        QCOMPARE(m_lisp->result(QStringLiteral("(length (make-array (expt 10 10)))")).error.type, QStringLiteral("EXT:STORAGE-EXHAUSTED"));
        verifyNextEvaluationWorks();
    }

    void interactiveInputIsRefusedNotAwaited_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("what");
        QTest::newRow("y-or-n-p") << "(y-or-n-p \"Proceed?\")" << "LISP-DUET:INTERACTIVE-INPUT-UNAVAILABLE" << "Y-OR-N-P";
        QTest::newRow("yes-or-no-p") << "(yes-or-no-p)" << "LISP-DUET:INTERACTIVE-INPUT-UNAVAILABLE" << "*query-io*";
        QTest::newRow("read") << "(read)" << "LISP-DUET:INTERACTIVE-INPUT-UNAVAILABLE" << "*standard-input*";
        QTest::newRow("read-line") << "(read-line)" << "LISP-DUET:INTERACTIVE-INPUT-UNAVAILABLE" << "*standard-input*";
        QTest::newRow("read-char from *terminal-io*") << "(read-char *terminal-io*)" << "LISP-DUET:INTERACTIVE-INPUT-UNAVAILABLE" << "*terminal-io*";
        QTest::newRow("break") << "(break)" << "LISP-DUET:DEBUGGER-UNAVAILABLE" << "BREAK";
        QTest::newRow("break with a message") << "(break \"stop at ~A\" 3)" << "LISP-DUET:DEBUGGER-UNAVAILABLE" << "stop at 3";
        QTest::newRow("invoke-debugger") << "(invoke-debugger (make-condition 'simple-error :format-control \"dbg\"))"
                                         << "LISP-DUET:DEBUGGER-UNAVAILABLE" << "INVOKE-DEBUGGER";
    }
    void interactiveInputIsRefusedNotAwaited()
    {
        QFETCH(QString, code);
        QFETCH(QString, type);
        QFETCH(QString, what);
        // A hang would end in TimedOut after 5 s instead.
        const JobResult result = runWithTimeout(code, 5000);
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, type);
        QVERIFY2(result.error.message.contains(what), qPrintable(result.error.message));
        verifyNextEvaluationWorks();
    }

    void aCircularListValueIsPrintedWithLabels()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(let ((x (list :a))) (setf (cdr x) x) (list x (make-array 1 :initial-element x)))"));
        QVERIFY(result.ok());
        QCOMPARE(result.values, QStringList{"(#1=(:A . #1#) #(#1#))"});
        verifyNextEvaluationWorks();
    }

    void aPrintObjectMethodThatSignalsDoesNotBreakTheResult()
    {
        const JobResult result = m_lisp->result(QStringLiteral(
            "(defstruct pt x) (defmethod print-object ((p pt) s) (error \"cannot print a pt\")) (values 1 (make-pt :x 1))"));
        QVERIFY2(result.ok(), qPrintable(result.error.message));
        QCOMPARE(result.values, (QStringList{"1", "#<error printing a PT: SIMPLE-ERROR: cannot print a pt>"}));
        // Printing inside the user's own code signals normally.
        const JobResult printed = m_lisp->result(QStringLiteral("(princ-to-string (make-pt :x 2))"));
        QCOMPARE(printed.status, JobResult::Status::Error);
        QCOMPARE(printed.error.message, QStringLiteral("cannot print a pt"));
        verifyNextEvaluationWorks();
    }

    void anErrorInAThreadTheUserStartedLeavesTheEngineRunning()
    {
        const qint64 pid = m_lisp->engine.pid();
        QVERIFY(m_lisp->result(QStringLiteral("(mp:process-join (mp:process-run-function \"doomed\" (lambda () (error \"in a thread\"))))")).status
                != JobResult::Status::EngineRestarted);
        QCOMPARE(m_lisp->engine.pid(), pid);
        verifyNextEvaluationWorks();
    }

    void anEngineKilledMidEvaluationIsRestarted()
    {
        QVERIFY(m_lisp->result(QStringLiteral("(defvar *lost* t)")).ok());
        const qint64 pid = m_lisp->engine.pid();
        QVERIFY(pid > 0);
        bool started = false;
        QObject::connect(&m_lisp->session, &Session::started, &m_lisp->session, [&started](JobPtr) { started = true; });
        JobRequest request;
        request.code = QStringLiteral("(sleep 20)");
        const quint64 id = m_lisp->session.submit(request);
        QVERIFY(QTest::qWaitFor([&started] { return started; }, 10000));
        QTest::qWait(100); // let the engine get into the SLEEP
        QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
        const JobPtr job = m_lisp->waitFor(id, 15000);
        QVERIFY(job);
        QCOMPARE(job->result.status, JobResult::Status::EngineRestarted);
        QCOMPARE(job->result.error.type, QStringLiteral("ENGINE-RESTARTED"));
        QVERIFY2(job->result.error.message.contains(QStringLiteral("signal 9")) &&
                 job->result.error.message.contains(QStringLiteral("A fresh engine has been started")),
                 qPrintable(job->result.error.message));
        // Submitted while the new engine starts: it waits in the queue, then runs.
        verifyNextEvaluationWorks();
        QVERIFY(m_lisp->engine.pid() != pid);
        QCOMPARE(m_lisp->result(QStringLiteral("(boundp '*lost*)")).values, QStringList{"NIL"});
    }

    void codeThatIgnoresInterruptsIsKilledAfterTheGracePeriod()
    {
        m_lisp->session.setInterruptGraceMs(1000);
        const qint64 pid = m_lisp->engine.pid();
        QElapsedTimer clock;
        clock.start();
        const JobResult result = runWithTimeout(QStringLiteral("(mp:without-interrupts (loop))"), 1000, 20000);
        QCOMPARE(result.status, JobResult::Status::EngineRestarted);
        // Limit plus grace: 2 s, less the 5 % that Qt's coarse timers may fire early.
        QVERIFY2(clock.elapsed() >= 1800 && clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY2(result.error.message.contains(QStringLiteral("did not finish within 1 s and did not stop within 1 s of being interrupted")),
                 qPrintable(result.error.message));
        QVERIFY2(result.error.message.contains(QStringLiteral("a fresh one started")), qPrintable(result.error.message));
        verifyNextEvaluationWorks();
        QVERIFY(m_lisp->engine.pid() != pid);
    }

    void megabytesOfOutputAreCappedAndCounted()
    {
        const JobResult result = runWithTimeout(QStringLiteral("(dotimes (i 300000) (write-string \"0123456789\")) :done"), 120000, 130000);
        QVERIFY2(result.ok(), qPrintable(result.error.message));
        QCOMPARE(result.values, QStringList{":DONE"});
        QCOMPARE(result.stdoutText.size(), 100000);
        QCOMPARE(result.outputDropped, 2900000);
        // Dropped output is counted, never kept: the engine stays small.
        const qint64 rss = residentKiB(m_lisp->engine.pid());
        QVERIFY2(rss > 0 && rss < 300 * 1024, qPrintable(QString::number(rss)));
        verifyNextEvaluationWorks();
    }

    void theOutputCapCanBeRaisedPerEvaluation()
    {
        EvalOptions options;
        options.maxOutputChars = 200000;
        const JobPtr job = m_lisp->run(EngineProtocol::evaluation(QStringLiteral("(write-string (make-string 150000 :initial-element #\\x)) nil"), {}, options));
        QVERIFY(job && job->result.ok());
        QCOMPARE(job->result.stdoutText.size(), 150000);
        QCOMPARE(job->result.outputDropped, 0);
    }

    void aTenMegabyteStringValueIsCutWhenPrinted()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(make-string 10000000 :initial-element #\\a)"));
        QVERIFY2(result.ok(), qPrintable(result.error.message));
        QCOMPARE(result.values.size(), 1);
        const QString value = result.values.first();
        QVERIFY2(value.size() < 100200, qPrintable(QString::number(value.size())));
        QVERIFY(value.startsWith(QStringLiteral("\"aaaa")));
        QVERIFY2(value.endsWith(QStringLiteral(" ... [cut: the printed form is longer than 100,000 characters]")), qPrintable(value.right(100)));
        verifyNextEvaluationWorks();
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_badinput.moc"

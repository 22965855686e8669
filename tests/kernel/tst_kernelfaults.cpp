// The kernel under faults and loads it did not cause (issue 41, points 7 and 10): a memory
// fault reported as one the second time too (ECL took the second fault at the same address
// for a fault inside the first one's handling and ended the thread); the worker or the
// service thread killed while idle (as from an editor's thread list) costs nothing to the
// next, unrelated request, which the next thread answers; a test run whose thread ends under
// it keeps the output it printed before; the memory a 16 MiB form took is given back by the
// person's (si:gc t).

#include "../common/EngineHarness.h"
#include "../common/ResidentMemory.h"
#include "../common/TestFiles.h"

#include "client/EngineProtocol.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

class TestKernelFaults : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> m_lisp;
    QTemporaryDir m_root;

    JobResult eval(const QString &code) { return m_lisp->result(code); }

    QJsonObject ask(const EngineProtocol::Query &query, int ms = 30000) { return m_lisp->ask(query, ms); }

    // Kills THREAD (worker or service) from a thread of its own, once it is idle.
    void killIdle(const QString &thread)
    {
        QVERIFY(eval(QStringLiteral("(mp:process-run-function \"killer\" (lambda () (sleep 0.3) (mp:process-kill lisp-duet.kernel::*%1*)))")
                         .arg(thread))
                    .ok());
        QTest::qWait(1000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_lisp = std::make_unique<EngineHarness>();
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
    }
    void cleanupTestCase() { m_lisp.reset(); }

    void theSecondMemoryFaultIsAMemoryFaultToo()
    {
        for (int i = 0; i < 3; ++i) {
            const JobResult fault = eval(QStringLiteral("(ffi:deref-pointer (ffi:make-pointer 0 :int) :int)"));
            QCOMPARE(fault.error.type, QStringLiteral("EXT:SEGMENTATION-VIOLATION"));
        }
        QCOMPARE(eval(QStringLiteral("(+ 1 2)")).values, QStringList{"3"});
    }

    void theWorkerKilledWhileIdleIsNotTheNextCallsFault()
    {
        killIdle(QStringLiteral("worker"));
        const JobResult next = eval(QStringLiteral("(+ 2 3)"));
        QVERIFY2(next.ok(), qPrintable(next.error.type + QStringLiteral(": ") + next.error.message));
        QCOMPARE(next.values, QStringList{"5"});
        // The code that ends its own thread is still told so.
        const JobResult ended = eval(QStringLiteral("(mp:exit-process)"));
        QCOMPARE(ended.error.type, QStringLiteral("LISP-DUET:THREAD-ENDED"));
        QCOMPARE(eval(QStringLiteral("(+ 3 4)")).values, QStringList{"7"});
    }

    void theServiceKilledWhileIdleStillAnswers()
    {
        killIdle(QStringLiteral("service"));
        const QJsonObject listed = ask(EngineProtocol::definitions(), 10000);
        QVERIFY2(EngineProtocol::Reply(listed).ok(), "definitions was not answered after the service thread was killed");
        QVERIFY(EngineProtocol::Reply(ask(EngineProtocol::arglist(QStringLiteral("car")), 10000)).ok());
    }

    void aFullCollectionGivesTheMemoryOfAHugeFormBack()
    {
        const qint64 pid = m_lisp->engine.engineInfo().value(QStringLiteral("pid")).toInteger();
        QVERIFY(pid > 0);
        QVERIFY(eval(QStringLiteral("(si:gc t)")).ok());
        const qint64 before = residentKiB(pid);
        QString form = QStringLiteral("(length '(");
        form.reserve(18 * 1024 * 1024);
        for (int i = 0; i < 2400000; ++i)
            form += QString::number(i) + QLatin1Char(' ');
        form += QStringLiteral("))");
        QVERIFY(form.size() > 16 * 1024 * 1024);
        QCOMPARE(m_lisp->result(form, QString(), 120000).values, QStringList{"2400000"});
        const qint64 grown = residentKiB(pid);
        QVERIFY(eval(QStringLiteral("(si:gc t)")).ok());
        qint64 after = residentKiB(pid);
        qInfo("engine RSS: %lld KiB at first, %lld after the form, %lld after (si:gc t)", before, grown, after);
        // Boehm's collector is conservative: one stale word on a thread's stack keeps the whole
        // list alive for a collection (seen once, in a full run at nice 10 beside another: 133 MB
        // more; 22 MB more in 7 runs around it). The person's second (si:gc t) then gives it back.
        if (after - before >= 48 * 1024) {
            QVERIFY(eval(QStringLiteral("(si:gc t)")).ok());
            after = residentKiB(pid);
            qInfo("engine RSS after a second (si:gc t): %lld KiB", after);
        }
        QVERIFY2(grown - before > 50 * 1024, "the form did not take memory: nothing is shown");
        QVERIFY2(after - before < 48 * 1024, qPrintable(QStringLiteral("%1 KiB more than before").arg(after - before)));
    }

    void aTestRunWhoseThreadEndsKeepsItsOutput()
    {
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("crashy/crashy.asd")),
                                 "(asdf:defsystem \"crashy\"\n"
                                 "  :perform (asdf:test-op (o c)\n"
                                 "             (format t \"checking the parser... ok~%the last test before the crash~%\")\n"
                                 "             (finish-output)\n"
                                 "             (mp:exit-process)))\n"));
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("faulty/faulty.asd")),
                                 "(asdf:defsystem \"faulty\"\n"
                                 "  :perform (asdf:test-op (o c)\n"
                                 "             (format t \"the last test before the fault~%\")\n"
                                 "             (ffi:deref-pointer (ffi:make-pointer 0 :int) :int)))\n"));
        QVERIFY(EngineProtocol::Reply(ask(EngineProtocol::projectRoot(m_root.path()))).ok());
        JobRequest crash = EngineProtocol::testRun(QStringLiteral("crashy"));
        const JobPtr crashed = m_lisp->run(crash, 120000);
        QVERIFY(crashed);
        QCOMPARE(crashed->result.error.type, QStringLiteral("LISP-DUET:THREAD-ENDED"));
        QVERIFY2(crashed->result.reply.value(QStringLiteral("output")).toString().contains(QLatin1String("the last test before the crash")),
                 qPrintable(QJsonDocument(crashed->result.reply).toJson()));
        const JobPtr faulted = m_lisp->run(EngineProtocol::testRun(QStringLiteral("faulty")), 120000);
        QVERIFY(faulted);
        QCOMPARE(faulted->result.error.type, QStringLiteral("EXT:SEGMENTATION-VIOLATION"));
        QVERIFY2(faulted->result.reply.value(QStringLiteral("output")).toString().contains(QLatin1String("the last test before the fault")),
                 qPrintable(QJsonDocument(faulted->result.reply).toJson()));
        QCOMPARE(eval(QStringLiteral("(+ 1 2)")).values, QStringList{"3"});
    }
};

QTEST_GUILESS_MAIN(TestKernelFaults)
#include "tst_kernelfaults.moc"

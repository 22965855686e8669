// The kernel under faults and loads it did not cause (issue 41, points 7 and 10): a memory
// fault reported as one the second time too (ECL took the second fault at the same address
// for a fault inside the first one's handling and ended the thread); the worker or the
// service thread killed while idle (as from an editor's thread list) costs nothing to the
// next, unrelated request, which the next thread answers; a test run whose thread ends under
// it keeps the output it printed before; the memory a 16 MiB form took is given back by the
// person's (si:gc t), for a second such form too.

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

    // The collector's heap (mapped) and the free part of it still mapped, in KiB.
    QList<qint64> collectorKiB()
    {
        const JobResult heap = eval(QStringLiteral(
            "(list (floor (lisp-duet.kernel::mapped-heap-bytes) 1024)"
            " (floor (si:call-cfun (si:find-foreign-symbol \"GC_get_free_bytes\" :default :pointer-void 0)"
            " :unsigned-long nil nil) 1024))"));
        const QStringList numbers = heap.values.value(0).mid(1).chopped(1).split(QLatin1Char(' '));
        return numbers.size() == 2 ? QList<qint64>{numbers[0].toLongLong(), numbers[1].toLongLong()} : QList<qint64>{-1, -1};
    }

    // Evaluates a 16 MiB form (2.4 million numbers from FIRST on), then the person's (si:gc t).
    // Returns whether the collector's heap came back within 16 MB of its start.
    bool hugeFormThenCollect(qint64 pid, int first)
    {
        [&] { QVERIFY(eval(QStringLiteral("(si:gc t)")).ok()); }();
        const qint64 before = residentKiB(pid);
        const QList<qint64> heapBefore = collectorKiB();
        QString form = QStringLiteral("(length '(");
        form.reserve(20 * 1024 * 1024);
        for (int i = first; i < first + 2400000; ++i)
            form += QString::number(i) + QLatin1Char(' ');
        form += QStringLiteral("))");
        bool shown = false;
        [&] {
            QVERIFY(form.size() > 16 * 1024 * 1024);
            QCOMPARE(m_lisp->result(form, QString(), 120000).values, QStringList{"2400000"});
            shown = true;
        }();
        if (!shown)
            return false;
        const qint64 grown = residentKiB(pid);
        [&] { QVERIFY(eval(QStringLiteral("(si:gc t)")).ok()); }();
        const qint64 after = residentKiB(pid);
        const QList<qint64> heapAfter = collectorKiB();
        qInfo("engine RSS: %lld KiB at first, %lld after the form, %lld after (si:gc t); the collector's heap: "
              "%lld KiB at first, %lld after, %lld of it free and still mapped",
              before, grown, after, heapBefore[0], heapAfter[0], heapAfter[1]);
        [&] {
            QVERIFY2(grown - before > 50 * 1024, "the form did not take memory: nothing is shown");
            // What the collector freed is unmapped: none of it stays in the engine.
            QVERIFY2(heapAfter[1] >= 0 && heapAfter[1] < 2048,
                     qPrintable(QStringLiteral("%1 KiB free but mapped").arg(heapAfter[1])));
            // And what is outside its heap (the request's 18 MB of text, read and parsed) is
            // given back too (within 4 MB here; 22 MB when the reader kept its buffer).
            const qint64 outside = (after - heapAfter[0]) - (before - heapBefore[0]);
            QVERIFY2(outside < 12 * 1024, qPrintable(QStringLiteral("%1 KiB more outside the collector's heap").arg(outside)));
        }();
        return heapAfter[0] - heapBefore[0] < 16 * 1024;
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
        // Twice: the second form's buffers come after buffers of its size were freed once,
        // which moves glibc's threshold for giving memory back (main.cpp).
        const bool firstCollected = hugeFormThenCollect(pid, 0);
        QVERIFY(!QTest::currentTestFailed());
        const bool secondCollected = hugeFormThenCollect(pid, 1);
        QVERIFY(!QTest::currentTestFailed());
        // Boehm's collector is conservative: a stale word kept the form alive (58 to 78 MB of
        // its heap) through any number of collections, in about 1 run in 16 with another test
        // run beside (clearing ECL's Lisp stack above its top made it 1 in 120, but broke
        // run-tests after edit-form: not kept). One kept form is tolerated; a form the engine
        // keeps for good (a record that holds it) is kept both times.
        if (!firstCollected || !secondCollected)
            qInfo("the collector kept the %s form alive", firstCollected ? "second" : "first");
        QVERIFY2(firstCollected || secondCollected, "the collector kept both huge forms");
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

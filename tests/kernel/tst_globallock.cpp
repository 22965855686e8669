// ECL's global environment lock is never kept by a thread that has left it (issue 37: each
// time load-system then waited for ever in ASDF's first PROCLAIM, as would every later form
// with a new symbol).
// - An interrupt that throws (a question's time limit, the person's Interrupt): ECL 21.2.1 runs
//   a pending interrupt at the end of an allocation even inside that lock (here: a new (SETF
//   name) defined, as loading compiled code or a DEFCLASS accessor does); the engine's SIGSEGV
//   chain keeps it queued until the lock is given back. The two storm tests keep the lock
//   within a few rounds without that (the first within 50-100 throws in a plain `ecl`).
// - A thread reading ECL's global tables while another grows them died holding the read lock
//   (GlobalTableLocks.cpp): the race test, 3 runs in 3 before.
// A suite of its own: ECL never frees (SETF name) entries or property lists, so the hundreds of
// thousands made here would weigh on another suite's memory figures.

#include "../common/EngineHarness.h"

#include <QTest>

class TestGlobalLock : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> m_lisp;

private Q_SLOTS:
    void initTestCase()
    {
        // The storms below count their throws: with native code on, 1 run in 4 saw 23 of 250
        // throws in its 10 s (most likely slowed by the background compile beside it, ECL's
        // compiler loading with its writes under the lock). (The hang and THREAD-ENDED that
        // native code on met here before, 2 runs in 16, were most likely the race
        // growingTheGlobalTablesNeverKillsAThreadReadingThem shows.)
        qputenv("LISP_DUET_NATIVE", "0");
        m_lisp = std::make_unique<EngineHarness>();
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
    }
    void cleanupTestCase() { m_lisp.reset(); }

    // 250 throwing interrupts from a thread of the code's own, then a write from another
    // thread (a writer waits for ever on a kept lock: it gets 5 s).
    void aThrowingInterruptNeverKeepsTheGlobalLock()
    {
        const JobResult storm = m_lisp->result(QStringLiteral(
            "(let* ((stop nil) (thrown 0)"
            "       (victim (mp:process-run-function \"victim\""
            "                 (lambda () (loop until stop do (catch :tag (loop until stop do (si::setf-definition (gensym) t))))))))"
            "  (sleep 0.1)"
            "  (loop repeat 20000 while (< thrown 250)"
            "        do (ignore-errors (mp:interrupt-process victim (lambda () (incf thrown) (throw :tag nil)))) (sleep 0.0005))"
            "  (setf stop t) (mp:process-join victim)"
            "  (let* ((written nil)"
            "         (writer (mp:process-run-function \"writer\" (lambda () (si:put-sysprop 'storm-probe 'written t) (setf written t)))))"
            "    (declare (ignore writer))"
            "    (loop repeat 100 until written do (sleep 0.05))"
            "    (list (if written :free :held) (>= thrown 250) thrown)))"), QString(), 60000);
        QVERIFY2(storm.ok(), qPrintable(storm.error.type + QStringLiteral(": ") + storm.error.message));
        // Until 250 have thrown: on a loaded machine interrupts that arrive while one is still
        // pending are run as one (at nice 10 beside a full run, fewer than 250 of 500 threw).
        QVERIFY2(storm.values.value(0).startsWith(QLatin1String("(:FREE T ")), qPrintable(storm.values.value(0)));
        QCOMPARE(m_lisp->result(QStringLiteral("(proclaim '(special *after-the-storm*)) (defun after-the-storm () 1) (after-the-storm)"),
                                QString(), 10000).values,
                 QStringList{"1"});
    }

    // ECL 21.2.1 grows its table of system properties without the write lock in SI:REM-SYSPROP
    // (every (DECLAIM (INLINE ..)) and FTYPE proclamation) and its (SETF name) table under the
    // read lock; a reader meanwhile (every SUBTYPEP) faulted on the vector being replaced, and
    // died holding the read lock: the next definition waited for ever (GlobalTableLocks.cpp).
    // Plain ecl: the reader dies in each of 3 runs of 400,000 writes; the engine before hung in
    // 3 runs of 3 with 50,000 of each. With the writes locked, a reader that never stops holds
    // each write back until it lets go (glibc's rwlock lets readers first): 7 s here on a quiet
    // machine, 26 s with 200,000.
    void growingTheGlobalTablesNeverKillsAThreadReadingThem()
    {
        const JobResult race = m_lisp->result(QStringLiteral(
            "(let* ((stop nil)"
            "       (reader (mp:process-run-function \"reader\""
            "                 (compile nil '(lambda (stop-p)"
            "                                 (let ((reads 0))"
            "                                   (loop until (funcall stop-p)"
            "                                         do (dolist (name '(car cdr list cons integer fixnum string vector))"
            "                                              (si:get-sysprop name 'probe) (si::setf-definition name nil) (incf reads)))"
            "                                   reads)))"
            "                 (lambda () stop)))"
            "       (writer (mp:process-run-function \"writer\""
            "                 (compile nil '(lambda ()"
            "                                 (loop repeat 50000"
            "                                       do (si:rem-sysprop (gensym) 'probe) (si::setf-definition (gensym) t))"
            "                                 :done)))))"
            "  (let ((written (mp:process-join writer)))"
            "    (setf stop t)"
            "    (list written (integerp (mp:process-join reader)))))"), QString(), 60000);
        // A kept lock: the writer waits for ever, and so does this form.
        QVERIFY2(race.ok(), qPrintable(QStringLiteral("the race did not end well: %1: %2").arg(race.error.type, race.error.message)));
        QCOMPARE(race.values, QStringList{"(:DONE T)"});
        QCOMPARE(m_lisp->result(QStringLiteral("(proclaim '(special *after-the-race*)) (defun after-the-race () 2) (after-the-race)"),
                                QString(), 10000).values,
                 QStringList{"2"});
        // A (SETF name) made new and never defined is still ECL's undefined function.
        QCOMPARE(m_lisp->result(QStringLiteral("(handler-case (funcall (car (si::setf-definition (gensym) t)) 1)"
                                               "  (undefined-function (c) (first (cell-error-name c))))"),
                                QString(), 10000).values,
                 QStringList{"SETF"});
    }

    // The same through the person's Interrupt: the job is thrown out wherever it is, and the
    // next definition still goes through.
    void interruptingAJobInsideTheGlobalLockLeavesItFree()
    {
        for (int round = 0; round < 200; ++round) {
            JobRequest request;
            request.code = QStringLiteral("(loop (si::setf-definition (gensym) t))");
            const quint64 id = m_lisp->session.submit(request);
            QVERIFY(QTest::qWaitFor([&] { return m_lisp->session.current() && m_lisp->session.current()->id == id; }, 10000));
            QTest::qWait(5 + round % 7);
            m_lisp->session.interruptCurrent();
            const JobPtr stopped = m_lisp->waitFor(id, 10000);
            QVERIFY2(stopped, qPrintable(QStringLiteral("round %1: the interrupted job did not end").arg(round)));
            QVERIFY2(stopped->result.status == JobResult::Status::Interrupted,
                     qPrintable(QStringLiteral("round %1: %2 %3: %4")
                                    .arg(round)
                                    .arg(JobResult::statusName(stopped->result.status), stopped->result.error.type,
                                         stopped->result.error.message)));
            const JobResult defined = m_lisp->result(QStringLiteral("(defun after-an-interrupt () %1) (after-an-interrupt)").arg(round),
                                                     QString(), 10000);
            QVERIFY2(defined.ok(), qPrintable(QStringLiteral("round %1: %2").arg(round).arg(defined.error.message)));
        }
    }
};

QTEST_GUILESS_MAIN(TestGlobalLock)
#include "tst_globallock.moc"

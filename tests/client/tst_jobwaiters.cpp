// JobWaiters: the callers waiting for a job's next answerable point, with deadlines served by
// one timer (issue 22: a timer per waiter used to outlive its answer by the whole wait).
#include "session/JobWaiters.h"

#include <QAbstractEventDispatcher>
#include <QElapsedTimer>
#include <QHash>
#include <QTest>

class TestJobWaiters : public QObject
{
    Q_OBJECT

    QHash<quint64, JobPtr> m_live;

    JobPtr live(quint64 id)
    {
        auto job = JobPtr::create();
        job->id = id;
        m_live.insert(id, job);
        return job;
    }
    // The timers registered with this thread's event loop, by their owners.
    static int timersOf(QObject *object)
    {
        int count = 0;
        for (QObject *child : object->findChildren<QObject *>())
            count += int(QAbstractEventDispatcher::instance()->registeredTimers(child).size());
        return count + int(QAbstractEventDispatcher::instance()->registeredTimers(object).size());
    }

private Q_SLOTS:
    void init() { m_live.clear(); }

    void answeringCallsEveryWaiterOfTheJobInTheOrderTheyCame()
    {
        JobWaiters waiters([this](quint64 id) { return m_live.value(id); });
        const JobPtr job = live(7);
        QStringList calls;
        waiters.add(7, [&](JobPtr) { calls << QStringLiteral("first"); });
        waiters.add(7, [&](JobPtr) { calls << QStringLiteral("second"); }, 60000);
        waiters.add(8, [&](JobPtr) { calls << QStringLiteral("other job"); });
        QVERIFY(waiters.has(7));
        waiters.answer(job);
        QCOMPARE(calls, (QStringList{QStringLiteral("first"), QStringLiteral("second")}));
        QVERIFY(!waiters.has(7));
        QVERIFY(waiters.has(8));
        waiters.answer(job); // nobody waits any more: nothing is called twice
        QCOMPARE(calls.size(), 2);
    }

    void aDeadlineAnswersAJobThatStillRunsOnceAndOnlyOnce()
    {
        JobWaiters waiters([this](quint64 id) { return m_live.value(id); });
        const JobPtr job = live(1);
        int called = 0;
        QElapsedTimer clock;
        clock.start();
        waiters.add(1, [&](JobPtr reached) {
            QCOMPARE(reached, job);
            ++called;
        }, 40);
        QTRY_COMPARE_WITH_TIMEOUT(called, 1, 5000);
        QVERIFY2(clock.elapsed() >= 39, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(!waiters.has(1));
        waiters.answer(job); // its end comes later: already answered
        QTest::qWait(60);
        QCOMPARE(called, 1);
    }

    void deadlinesComeInTheirOrderWhateverOrderTheyWereAskedIn()
    {
        JobWaiters waiters([this](quint64 id) { return m_live.value(id); });
        live(1);
        live(2);
        live(3);
        QList<quint64> order;
        waiters.add(1, [&](JobPtr job) { order << job->id; }, 90);
        waiters.add(2, [&](JobPtr job) { order << job->id; }, 10);
        waiters.add(3, [&](JobPtr job) { order << job->id; }, 50);
        QTRY_COMPARE_WITH_TIMEOUT(order.size(), 3, 5000);
        QCOMPARE(order, (QList<quint64>{2, 3, 1}));
    }

    void aJobThatEndedBeforeItsDeadlineIsNotCalledAgainByIt()
    {
        JobWaiters waiters([this](quint64 id) { return m_live.value(id); });
        const JobPtr job = live(4);
        int called = 0;
        waiters.add(4, [&](JobPtr) { ++called; }, 30);
        waiters.answer(job);
        m_live.remove(4);
        QCOMPARE(called, 1);
        QTest::qWait(80);
        QCOMPARE(called, 1);
    }

    void thousandsOfAnsweredCallsLeaveAtMostOneTimerBehind()
    {
        // Every call with wait_seconds waits with a deadline of 100 s and is answered within
        // microseconds: none of them may leave a timer in the event loop for the rest of the 100 s.
        QObject owner;
        auto *waiters = new JobWaiters([this](quint64 id) { return m_live.value(id); }, &owner);
        for (quint64 id = 1; id <= 5000; ++id) {
            const JobPtr job = live(id);
            waiters->add(id, [](JobPtr) {}, 100000);
            waiters->answer(job);
            m_live.remove(id);
        }
        QVERIFY2(timersOf(&owner) <= 1, qPrintable(QString::number(timersOf(&owner))));
    }

    void aCallbackMayWaitAgainForTheSameJob()
    {
        JobWaiters waiters([this](quint64 id) { return m_live.value(id); });
        const JobPtr job = live(5);
        int rounds = 0;
        std::function<void(JobPtr)> again = [&](JobPtr) {
            if (++rounds < 3)
                waiters.add(5, again, 10);
        };
        waiters.add(5, again, 10);
        QTRY_COMPARE_WITH_TIMEOUT(rounds, 3, 5000);
        QVERIFY(!waiters.has(5));
    }
};

QTEST_GUILESS_MAIN(TestJobWaiters)
#include "tst_jobwaiters.moc"

// The Session's side of the shared debugger (issue 20): the time limit does not run while a job
// is parked, an untouched debugger is abandoned, an engine kill or a reset ends every parked
// job and says so, the first choice wins, a caller waits for a job's next answerable point,
// the debugging defaults, the activity digest and the journal. Real engine, real Session.

#include "../common/EngineHarness.h"

#include "history/Journal.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

class TestDebugSession : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> m_lisp;

    Session &session() { return m_lisp->session; }

    quint64 debugEval(const QString &code, int timeoutMs = -1, const Origin &origin = Origin::person())
    {
        JobRequest request;
        request.code = code;
        request.debug = true;
        request.timeoutMs = timeoutMs;
        request.origin = origin;
        return session().submit(request);
    }

private Q_SLOTS:
    void init()
    {
        m_lisp = std::make_unique<EngineHarness>();
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
    }
    void cleanup() { m_lisp.reset(); }

    void theTimeLimitDoesNotRunWhileParkedAndResumesAfter()
    {
        // 0.6 s of work, parked for 1.5 s, 0.3 s more: within a 1.2 s limit of running time.
        const quint64 id = debugEval(QStringLiteral("(sleep 0.6) (cerror \"Go on.\" \"pause\") (sleep 0.3) :done"), 1200);
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        QTest::qWait(1500);
        QCOMPARE(session().job(id)->state, Job::State::Parked);
        QVERIFY(session().debugger()->invokeRestart(debugger->id, QStringLiteral("CONTINUE"), {}, Origin::person()));
        const JobPtr done = m_lisp->waitFor(id);
        QCOMPARE(done->result.status, JobResult::Status::Ok);
        QCOMPARE(done->result.values, QStringList{":DONE"});

        // What is left of the limit after the parking still holds: 0.6 s + 0.9 s is over 1.2 s.
        const quint64 over = debugEval(QStringLiteral("(sleep 0.6) (cerror \"Go on.\" \"pause\") (sleep 0.9) :done"), 1200);
        const DebuggerPtr second = m_lisp->waitParked(over);
        QVERIFY(second);
        QTest::qWait(800);
        QVERIFY(session().debugger()->invokeRestart(second->id, QStringLiteral("CONTINUE"), {}, Origin::person()));
        QElapsedTimer resumed;
        resumed.start();
        const JobPtr timedOut = m_lisp->waitFor(over);
        QCOMPARE(timedOut->result.status, JobResult::Status::TimedOut);
        QVERIFY2(resumed.elapsed() < 850, qPrintable(QString::number(resumed.elapsed())));
    }

    void anUntouchedDebuggerIsAbandonedAndItsEvaluationEnds()
    {
        session().debugger()->setAbandonAfterMs(600);
        const quint64 id = debugEval(QStringLiteral("(error \"nobody comes\")"), -1, Origin::agent(QStringLiteral("claude"), QStringLiteral("c1")));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        const JobPtr done = m_lisp->waitFor(id, 10000);
        QVERIFY(done);
        QCOMPARE(done->result.status, JobResult::Status::Error);
        QCOMPARE(done->result.error.message, QStringLiteral("nobody comes"));
        QCOMPARE(debugger->state, Debugger::State::Continued);
        QCOMPARE(debugger->choice.restart, QStringLiteral("ABORT"));
        QCOMPARE(debugger->choice.by.name, QStringLiteral("Lisp Duet"));
        QVERIFY(debugger->outcomeSentence().contains(QStringLiteral("nobody answered it for 0.6 s")));
        // Its caller hears of it in the activity digest, though the choice was not its own.
        const QList<JobPtr> activity = session().takeActivityFor(QStringLiteral("c1"));
        QVERIFY(std::any_of(activity.cbegin(), activity.cend(), [id](const JobPtr &job) { return job->id == id; }));
    }

    void anEngineKilledWhileJobsAreParkedReportsEachOfThem()
    {
        const quint64 outer = debugEval(QStringLiteral("(error \"outer\")"));
        QVERIFY(m_lisp->waitParked(outer));
        const quint64 inner = debugEval(QStringLiteral("(error \"inner\")"));
        QVERIFY(m_lisp->waitParked(inner));
        QSignalSpy closed(session().debugger(), &SessionDebugger::debuggerClosed);
        QCOMPARE(::kill(pid_t(session().enginePid()), SIGKILL), 0);
        const JobPtr innerDone = m_lisp->waitFor(inner);
        const JobPtr outerDone = m_lisp->waitFor(outer);
        QVERIFY(innerDone && outerDone);
        QCOMPARE(innerDone->result.status, JobResult::Status::EngineRestarted);
        QCOMPARE(outerDone->result.status, JobResult::Status::EngineRestarted);
        QVERIFY(outerDone->result.error.message.contains(QStringLiteral("parked in debugger")));
        QCOMPARE(closed.size(), 2);
        QCOMPARE(outerDone->debugger->state, Debugger::State::Ended);
        QVERIFY(session().debugger()->openDebuggers().isEmpty());
        QVERIFY(m_lisp->waitReady());
        QCOMPARE(m_lisp->result("(+ 1 2)").values, QStringList{"3"});
    }

    void aResetWhileParkedEndsTheParkedJobAndSaysWho()
    {
        const quint64 id = debugEval(QStringLiteral("(error \"parked\")"));
        QVERIFY(m_lisp->waitParked(id));
        session().reset(Origin::agent(QStringLiteral("claude"), QStringLiteral("c1")));
        const JobPtr done = m_lisp->waitFor(id);
        QCOMPARE(done->result.status, JobResult::Status::EngineRestarted);
        QVERIFY2(done->result.error.message.startsWith(QStringLiteral("claude reset the session while this evaluation was parked in debugger ")),
                 qPrintable(done->result.error.message));
        QVERIFY(done->resetBy && done->resetBy->name == QStringLiteral("claude"));
    }

    void theFirstChoiceWinsAndTheLaterOneIsToldWhoChoseWhat()
    {
        const quint64 id = debugEval(QStringLiteral("(restart-case (error \"pick\") (use-value (v) v))"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        const quint64 person = session().debugger()->invokeRestart(debugger->id, QStringLiteral("USE-VALUE"), {QStringLiteral("3")}, Origin::person());
        const quint64 agent = session().debugger()->invokeRestart(debugger->id, QStringLiteral("ABORT"), {}, Origin::agent(QStringLiteral("claude"), QStringLiteral("c1")));
        QVERIFY(person && agent);
        QCOMPARE(m_lisp->waitFor(id)->result.values, QStringList{"3"});
        const JobPtr late = m_lisp->waitFor(agent);
        QCOMPARE(late->result.status, JobResult::Status::Failed);
        QCOMPARE(late->result.error.type, QStringLiteral("DEBUGGER-CLOSED"));
        QVERIFY2(late->result.error.message.contains(QStringLiteral("the person chose USE-VALUE (3) at ")), qPrintable(late->result.error.message));
        // And asking now is refused at once with the same sentence.
        QString refusal;
        QCOMPARE(session().debugger()->invokeRestart(debugger->id, 0, {}, Origin::person(), &refusal), 0u);
        QVERIFY(refusal.contains(QStringLiteral("the person chose USE-VALUE (3)")));
    }

    void aCallerWaitsForTheNextAnswerablePoint()
    {
        const quint64 id = debugEval(QStringLiteral("(sleep 0.3) (cerror \"Go on.\" \"stop\") (sleep 0.3) :end"));
        JobPtr first;
        Job::State firstState = Job::State::Queued;
        session().whenAnswerable(id, [&](JobPtr job) { first = job; firstState = job->state; });
        QVERIFY(QTest::qWaitFor([&] { return !first.isNull(); }, 10000));
        QCOMPARE(firstState, Job::State::Parked);
        // Right after a choice, the job is on its way: its next point is the one that counts.
        // A deadline answers with the job still going.
        const quint64 invocation = session().debugger()->invokeRestart(first->debugger->id, QStringLiteral("CONTINUE"), {}, Origin::person());
        QVERIFY(m_lisp->waitFor(invocation));
        JobPtr early;
        Job::State earlyState = Job::State::Queued;
        session().whenAnswerable(id, [&](JobPtr job) { early = job; earlyState = job->state; }, 50);
        QVERIFY(QTest::qWaitFor([&] { return !early.isNull(); }, 5000));
        QCOMPARE(earlyState, Job::State::Running);
        JobPtr last;
        session().whenAnswerable(id, [&](JobPtr job) { last = job; });
        QVERIFY(QTest::qWaitFor([&] { return !last.isNull(); }, 10000));
        QCOMPARE(last->state, Job::State::Done);
        QCOMPARE(last->result.values, QStringList{":END"});
        // Done already: answered at once.
        bool again = false;
        session().whenAnswerable(id, [&](JobPtr) { again = true; });
        QVERIFY(again);
    }

    void debuggingIsOnByDefaultOnlyWhereThePersonSaysSo()
    {
        session().debugger()->setDebugDefaults(true, false);
        const quint64 mine = submitPlain(QStringLiteral("(error \"mine\")"), Origin::person());
        QVERIFY(m_lisp->waitParked(mine, 1, 10000));
        const quint64 theirs = submitPlain(QStringLiteral("(error \"theirs\")"), Origin::agent(QStringLiteral("claude"), QStringLiteral("c1")));
        const JobPtr unwound = m_lisp->waitFor(theirs);
        QCOMPARE(unwound->result.status, JobResult::Status::Error);
        QVERIFY(!unwound->debugger);
        session().debugger()->setDebugDefaults(true, true);
        const quint64 now = submitPlain(QStringLiteral("(error \"now theirs parks\")"), Origin::agent(QStringLiteral("claude"), QStringLiteral("c1")));
        QVERIFY(m_lisp->waitParked(now, 1, 10000));
        QCOMPARE(session().debugger()->openDebuggers().size(), 2);
    }

    void cancellingAParkedJobAbortsIt()
    {
        const quint64 id = debugEval(QStringLiteral("(error \"cancel me\")"));
        QVERIFY(m_lisp->waitParked(id));
        QVERIFY(session().cancel(id, {}, Origin::agent(QStringLiteral("claude"), QStringLiteral("c1"))));
        const JobPtr done = m_lisp->waitFor(id);
        QCOMPARE(done->result.status, JobResult::Status::Error);
        QCOMPARE(done->debugger->choice.restart, QStringLiteral("ABORT"));
        QCOMPARE(done->debugger->choice.by.name, QStringLiteral("claude"));
    }

    void anAgentHearsWhenThePersonParksAndWhenThePersonAnswersItsDebugger()
    {
        const Origin claude = Origin::agent(QStringLiteral("claude"), QStringLiteral("c1"));
        (void)session().takeActivityFor(claude.clientKey);
        const quint64 persons = debugEval(QStringLiteral("(error \"the person's\")"));
        QVERIFY(m_lisp->waitParked(persons));
        QList<JobPtr> activity = session().takeActivityFor(claude.clientKey);
        QCOMPARE(activity.size(), 1);
        QCOMPARE(activity.first()->state, Job::State::Parked);
        QVERIFY(session().takeActivityFor(claude.clientKey).isEmpty()); // told once
        QVERIFY(session().debugger()->invokeRestart(session().debugger()->openDebuggers().first()->id, QStringLiteral("ABORT"), {}, Origin::person()));
        QVERIFY(m_lisp->waitFor(persons));

        const quint64 agents = debugEval(QStringLiteral("(restart-case (error \"the agent's\") (use-value (v) v))"), -1, claude);
        const DebuggerPtr debugger = m_lisp->waitParked(agents);
        (void)session().takeActivityFor(claude.clientKey);
        QVERIFY(session().debugger()->invokeRestart(debugger->id, QStringLiteral("USE-VALUE"), {QStringLiteral(":fixed")}, Origin::person()));
        QCOMPARE(m_lisp->waitFor(agents)->result.values, QStringList{":FIXED"});
        activity = session().takeActivityFor(claude.clientKey);
        QStringList ops;
        for (const JobPtr &job : activity)
            ops << EngineProtocol::operationName(job->request.kind);
        QCOMPARE(ops, (QStringList{"invoke-restart", "eval"}));
    }

    void theJournalKeepsTheEpisode()
    {
        QTemporaryDir dir;
        Journal journal;
        QVERIFY(journal.open(dir.filePath(QStringLiteral("j.jsonl"))));
        journal.attach(&session());
        const quint64 id = debugEval(QStringLiteral("(restart-case (error \"bad record ~D\" 5000) (use-value (v) v))"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(session().debugger()->invokeRestart(debugger->id, QStringLiteral("USE-VALUE"), {QStringLiteral("0")}, Origin::person()));
        QVERIFY(m_lisp->waitFor(id));
        const JournalContents contents = Journal::read(journal.path());
        QStringList kinds;
        for (const JournalEntry &entry : contents.entries)
            kinds << (entry.isJob() ? EngineProtocol::operationName(entry.job.request.kind) : entry.event);
        QCOMPARE(kinds, (QStringList{"debugger-parked", "invoke-restart", "debugger-closed", "eval"}));
        QVERIFY(contents.entries.at(0).message.contains(QStringLiteral("bad record 5000")));
        QVERIFY(contents.entries.at(2).message.contains(QStringLiteral("the person chose USE-VALUE (0)")));
    }

private:
    quint64 submitPlain(const QString &code, const Origin &origin)
    {
        JobRequest request;
        request.code = code;
        request.origin = origin;
        return session().submit(request);
    }
};

QTEST_GUILESS_MAIN(TestDebugSession)
#include "tst_debugsession.moc"

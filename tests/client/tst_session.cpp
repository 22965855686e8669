// The Session: one FIFO of evaluations from every origin, cancel and interrupt, streamed
// output, and the per-client "since your last call" activity, on the real engine.

#include "../common/EngineHarness.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

class TestSession : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> m_lisp;

    static JobRequest request(const QString &code, const Origin &origin = Origin::person())
    {
        JobRequest r;
        r.code = code;
        r.origin = origin;
        return r;
    }
    static QStringList codesOf(const QList<JobPtr> &jobs)
    {
        QStringList codes;
        for (const JobPtr &job : jobs)
            codes << job->request.code;
        return codes;
    }
    bool waitStarted(quint64 id)
    {
        return QTest::qWaitFor([this, id] {
            const JobPtr current = m_lisp->session.current();
            return current && current->id == id;
        }, 10000);
    }

private Q_SLOTS:
    void init()
    {
        m_lisp = std::make_unique<EngineHarness>();
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
    }
    void cleanup() { m_lisp.reset(); }

    void evaluationsFromDifferentOriginsRunFirstComeFirstServed()
    {
        QVERIFY(m_lisp->result(QStringLiteral("(defvar *order* nil)")).ok());
        QList<quint64> startedOrder;
        QList<quint64> finishedOrder;
        connect(&m_lisp->session, &Session::started, this, [&](JobPtr e) { startedOrder << e->id; });
        connect(&m_lisp->session, &Session::finished, this, [&](JobPtr e) { finishedOrder << e->id; });

        const quint64 a = m_lisp->session.submit(request(QStringLiteral("(sleep 0.3) (push :person *order*)")));
        const quint64 b = m_lisp->session.submit(request(QStringLiteral("(push :alpha *order*)"), Origin::agent("alpha", "alpha-1")));
        const quint64 c = m_lisp->session.submit(request(QStringLiteral("(push :beta *order*)"), Origin::agent("beta", "beta-1")));
        QCOMPARE(m_lisp->session.queuedCount(), 2); // the first runs, two wait
        QVERIFY(m_lisp->session.current() && m_lisp->session.current()->id == a);
        QVERIFY(m_lisp->waitFor(c));

        QCOMPARE(startedOrder, (QList<quint64>{a, b, c}));
        QCOMPARE(finishedOrder, (QList<quint64>{a, b, c}));
        QCOMPARE(m_lisp->done.value(b)->request.origin.name, QStringLiteral("alpha"));
        QCOMPARE(m_lisp->done.value(c)->request.origin.clientKey, QStringLiteral("beta-1"));
        QVERIFY(m_lisp->done.value(a)->sequence < m_lisp->done.value(b)->sequence);
        QVERIFY(m_lisp->done.value(b)->sequence < m_lisp->done.value(c)->sequence);
        QCOMPARE(m_lisp->result(QStringLiteral("*order*")).values, QStringList{"(:BETA :ALPHA :PERSON)"});
    }

    void aQueuedEvaluationCanBeCancelledBeforeItRuns()
    {
        QVERIFY(m_lisp->result(QStringLiteral("(defvar *ran* nil)")).ok());
        QSignalSpy started(&m_lisp->session, &Session::started);
        const quint64 first = m_lisp->session.submit(request(QStringLiteral("(sleep 0.5) :first")));
        const quint64 second = m_lisp->session.submit(request(QStringLiteral("(setf *ran* t)"), Origin::agent("alpha", "alpha-1")));
        QVERIFY(m_lisp->session.cancel(second, QStringLiteral("not needed any more")));
        // Cancelled at once, without waiting for the running one.
        QVERIFY(m_lisp->done.contains(second));
        const JobPtr cancelled = m_lisp->done.value(second);
        QCOMPARE(cancelled->result.status, JobResult::Status::Cancelled);
        QCOMPARE(cancelled->result.error.message, QStringLiteral("not needed any more"));
        QVERIFY(!m_lisp->session.cancel(second)); // already done
        QVERIFY(!m_lisp->session.cancel(99999));  // unknown

        const JobPtr done = m_lisp->waitFor(first);
        QVERIFY(done && done->result.ok());
        QCOMPARE(done->result.values, QStringList{":FIRST"});
        QCOMPARE(m_lisp->result(QStringLiteral("*ran*")).values, QStringList{"NIL"});
        for (const QList<QVariant> &arguments : started)
            QVERIFY(arguments.first().value<JobPtr>()->id != second);
    }

    void aRunningEvaluationIsInterruptedPromptly()
    {
        QVERIFY(m_lisp->result(QStringLiteral("(defvar *survivor* :here)")).ok());
        const qint64 pid = m_lisp->engine.pid();
        const quint64 id = m_lisp->session.submit(request(QStringLiteral("(loop)")));
        QVERIFY(waitStarted(id));
        QTest::qWait(50);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(m_lisp->session.cancel(id));
        const JobPtr job = m_lisp->waitFor(id, 10000);
        const qint64 latency = clock.elapsed();
        QVERIFY(job);
        QCOMPARE(job->result.status, JobResult::Status::Interrupted);
        QCOMPARE(job->result.error.type, QStringLiteral("INTERRUPTED"));
        QVERIFY2(job->result.error.message.contains(QStringLiteral("The session is intact")), qPrintable(job->result.error.message));
        qInfo("interrupt answered after %lld ms", latency);
        // About 100 ms on an idle machine; the bound leaves room for a busy one, and the grace
        // period (2 s) would have killed the engine otherwise.
        QVERIFY2(latency < 1500, qPrintable(QString::number(latency)));
        QCOMPARE(m_lisp->engine.pid(), pid);
        QCOMPARE(m_lisp->result(QStringLiteral("*survivor*")).values, QStringList{":HERE"});
    }

    void thePersonsInterruptStopsWhateverRuns()
    {
        const quint64 id = m_lisp->session.submit(request(QStringLiteral("(sleep 30)"), Origin::agent("alpha", "alpha-1")));
        QVERIFY(waitStarted(id));
        m_lisp->session.interruptCurrent();
        const JobPtr job = m_lisp->waitFor(id, 10000);
        QVERIFY(job);
        QCOMPARE(job->result.status, JobResult::Status::Interrupted);
        QVERIFY(m_lisp->result(QStringLiteral("(+ 1 2)")).ok());
    }

    void eachClientIsToldWhatOthersDidOnlyOnce()
    {
        const Origin clientA = Origin::agent(QStringLiteral("claude"), QStringLiteral("stdio-1"));
        const Origin clientB = Origin::agent(QStringLiteral("claude"), QStringLiteral("stdio-2"));
        QVERIFY(m_lisp->run(request(QStringLiteral("(defun by-person () 1)"))));
        QVERIFY(m_lisp->run(request(QStringLiteral("(defun by-b () 2)"), clientB)));
        QVERIFY(m_lisp->run(request(QStringLiteral("(defun by-a () 3)"), clientA)));
        // A cancelled evaluation never happened: nobody is told of it.
        const quint64 blocker = m_lisp->session.submit(request(QStringLiteral("(sleep 0.3)")));
        const quint64 dropped = m_lisp->session.submit(request(QStringLiteral("(defun never () 0)")));
        QVERIFY(m_lisp->session.cancel(dropped));
        QVERIFY(m_lisp->waitFor(blocker));

        QCOMPARE(codesOf(m_lisp->session.takeActivityFor(clientA.clientKey)),
                 (QStringList{"(defun by-person () 1)", "(defun by-b () 2)", "(sleep 0.3)"}));
        QCOMPARE(codesOf(m_lisp->session.takeActivityFor(clientA.clientKey)), QStringList());
        QCOMPARE(codesOf(m_lisp->session.takeActivityFor(clientB.clientKey)),
                 (QStringList{"(defun by-person () 1)", "(defun by-a () 3)", "(sleep 0.3)"}));

        QVERIFY(m_lisp->run(request(QStringLiteral("(by-a)"), clientB)));
        QCOMPARE(codesOf(m_lisp->session.takeActivityFor(clientA.clientKey)), QStringList{"(by-a)"});
        QCOMPARE(codesOf(m_lisp->session.takeActivityFor(clientB.clientKey)), QStringList());
        // A client that goes away and comes back with the same key hears everything again.
        m_lisp->session.forgetClient(clientB.clientKey);
        QCOMPARE(codesOf(m_lisp->session.takeActivityFor(clientB.clientKey)),
                 (QStringList{"(defun by-person () 1)", "(defun by-a () 3)", "(sleep 0.3)"}));
    }

    void outputStreamsWhileTheCodeRunsAndBeforeItFinishes()
    {
        struct Event { QString kind; QString text; bool running; };
        QList<Event> events;
        quint64 id = 0;
        connect(&m_lisp->session, &Session::output, this, [&](quint64 outputId, const QString &stream, const QString &text) {
            if (outputId == id) {
                const JobPtr job = m_lisp->session.job(id);
                events.append({stream, text, job && job->state == Job::State::Running});
            }
        });
        connect(&m_lisp->session, &Session::finished, this, [&](JobPtr job) {
            if (job->id == id)
                events.append({QStringLiteral("finished"), QString(), false});
        });
        id = m_lisp->session.submit(request(QStringLiteral(
            "(dotimes (i 4) (format t \"line ~D~%\" i) (format *error-output* \"e~D \" i) (finish-output) (sleep 0.12)) :end")));
        const JobPtr job = m_lisp->waitFor(id);
        QVERIFY(job && job->result.ok());

        QVERIFY2(events.size() >= 3, qPrintable(QString::number(events.size())));
        QCOMPARE(events.last().kind, QStringLiteral("finished"));
        QString out;
        QString err;
        for (int i = 0; i < events.size() - 1; ++i) {
            QVERIFY(events[i].kind != QStringLiteral("finished"));
            QVERIFY2(events[i].running, "output arrived after the evaluation was done");
            (events[i].kind == QStringLiteral("stdout") ? out : err) += events[i].text;
        }
        QCOMPARE(out, QStringLiteral("line 0\nline 1\nline 2\nline 3\n"));
        QCOMPARE(err, QStringLiteral("e0 e1 e2 e3 "));
        QCOMPARE(job->result.stdoutText, out);
        QCOMPARE(job->result.stderrText, err);
        // The first piece came well before the end, not all at once.
        int stdoutChunks = 0;
        for (const Event &event : events)
            stdoutChunks += event.kind == QStringLiteral("stdout");
        QVERIFY2(stdoutChunks >= 2, qPrintable(QString::number(stdoutChunks)));
    }

    void questionsAreAnsweredWhileAnEvaluationRuns()
    {
        const quint64 id = m_lisp->session.submit(request(QStringLiteral("(sleep 1) :slow")));
        QVERIFY(waitStarted(id));
        QJsonObject reply;
        m_lisp->session.query(EngineProtocol::arglist(QStringLiteral("mapcar")),
                              [&reply](const QJsonObject &r) { reply = r; });
        QVERIFY(QTest::qWaitFor([&reply] { return !reply.isEmpty(); }, 5000));
        QCOMPARE(reply.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QVERIFY(!m_lisp->done.contains(id)); // answered before the evaluation ended
        QCOMPARE(m_lisp->waitFor(id)->result.values, QStringList{":SLOW"});
    }

    void theTranscriptKeepsFinishedEvaluationsInOrder()
    {
        m_lisp->session.setTranscriptLimit(3);
        for (int i = 1; i <= 5; ++i)
            QVERIFY(m_lisp->run(request(QStringLiteral("(+ %1 0)").arg(i))));
        QCOMPARE(codesOf(m_lisp->session.transcript()), (QStringList{"(+ 3 0)", "(+ 4 0)", "(+ 5 0)"}));
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"

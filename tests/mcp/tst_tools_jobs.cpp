// Long work as shared jobs (issue 21, item 3), through McpServer against the real engine: a
// call that outlasts its wait_seconds answers "running" with a job id and the output so far;
// the tool `job` waits for the end and answers in the starting tool's own format (evaluate-lisp,
// time-execution, load-system), or with the progress so far; cancel; unknown and expired ids;
// how long results are kept; progress notifications while `job` waits; with the shared debugger
// (issue 20), a call answers at the earliest of its job's end, its parking and wait_seconds.

#include "ToolHarness.h"

#include "tools/JobHandles.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

class TestToolsJobs : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ToolHarness> m_h;
    QTemporaryDir m_systems;

    QJsonObject evalWaiting(const QString &code, double waitSeconds)
    {
        return m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), code}, {QStringLiteral("wait_seconds"), waitSeconds}});
    }
    QJsonObject job(qint64 id, const QJsonObject &more = {})
    {
        QJsonObject arguments = more;
        arguments.insert(QStringLiteral("job_id"), id);
        return m_h->call(QStringLiteral("job"), arguments);
    }
    static qint64 jobIdOf(const QJsonObject &result)
    {
        return qint64(ToolHarness::structured(result).value(QStringLiteral("job_id")).toDouble());
    }
    static QString status(const QJsonObject &result)
    {
        return ToolHarness::structured(result).value(QStringLiteral("status")).toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_systems.isValid());
        QDir().mkpath(m_systems.filePath(QStringLiteral("slowload")));
        QFile asd(m_systems.filePath(QStringLiteral("slowload/slowload.asd")));
        QVERIFY(asd.open(QIODevice::WriteOnly));
        asd.write("(defsystem \"slowload\" :version \"1.2\" :components ((:file \"slowload\")))\n");
        asd.close();
        QFile lisp(m_systems.filePath(QStringLiteral("slowload/slowload.lisp")));
        QVERIFY(lisp.open(QIODevice::WriteOnly));
        lisp.write("(eval-when (:compile-toplevel :load-toplevel :execute) (sleep 1))\n(defun slowload-ready () t)\n");
        lisp.close();
        qputenv("LISP_DUET_SYSTEM_PATHS", m_systems.path().toUtf8());
        m_h = std::make_unique<ToolHarness>();
        QVERIFY(m_h->waitUntilReady());
    }
    void cleanupTestCase() { m_h.reset(); }
    void init()
    {
        // Each test starts on an idle session, whatever the one before left running.
        QVERIFY(QTest::qWaitFor([this] { return !m_h->m_session.current() && m_h->m_session.queuedCount() == 0; }, 60000));
    }

    void aQuickEvaluationAnswersItsResultWithoutAJob()
    {
        const QJsonObject result = evalWaiting(QStringLiteral("(+ 1 2)"), 5);
        QCOMPARE(ToolHarness::text(result), QStringLiteral("=> 3"));
        QCOMPARE(status(result), QStringLiteral("ok"));
        QVERIFY(!ToolHarness::structured(result).contains(QStringLiteral("job_id")));
    }

    void anEvaluationThatOutlastsItsWaitAnswersRunningWithItsOutputSoFarAndJobAnswersTheEnd()
    {
        // The engine sends output in chunks at most every 50 ms, so the second line carries the
        // first out (what is written just before a pause waits for the next write or the end).
        const QJsonObject first = evalWaiting(QStringLiteral("(progn (format t \"started~%\") (sleep 0.2) (format t \"working~%\") (sleep 3) "
                                                             "(format t \"ended~%\") :done)"),
                                              1);
        QVERIFY(!ToolHarness::isError(first));
        QCOMPARE(status(first), QStringLiteral("running"));
        const qint64 id = jobIdOf(first);
        QVERIFY(id > 0);
        const QJsonObject running = ToolHarness::structured(first);
        QVERIFY2(running.value(QStringLiteral("stdout")).toString().startsWith(QStringLiteral("started\nworking")),
                 qPrintable(running.value(QStringLiteral("stdout")).toString()));
        QCOMPARE(running.value(QStringLiteral("tool")).toString(), QStringLiteral("evaluate-lisp"));
        QVERIFY(running.value(QStringLiteral("elapsed_ms")).toDouble() >= 900);
        const QString text = ToolHarness::text(first);
        QVERIFY2(text.startsWith(QStringLiteral("[stdout]\nstarted\nworking\n\n[RUNNING] job %1\nevaluate-lisp has run for ").arg(id)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral(" s and goes on in the session. Its time limit stops it after 300 s of running (")), qPrintable(text));
        QVERIFY2(text.endsWith(QStringLiteral(" s left). Its result is kept for you: call job with job_id %1 to wait "
                                              "for it (wait_seconds), or with cancel: true to interrupt it.").arg(id)),
                 qPrintable(text));

        const QJsonObject done = job(id, {{QStringLiteral("wait_seconds"), 30}});
        QCOMPARE(ToolHarness::text(done), QStringLiteral("[stdout]\nstarted\nworking\nended\n\n=> :DONE"));
        QVERIFY(!ToolHarness::isError(done));
        QCOMPARE(status(done), QStringLiteral("ok"));
        QCOMPARE(jobIdOf(done), id);
        QCOMPARE(ToolHarness::structured(done).value(QStringLiteral("values")).toArray(), QJsonArray{QStringLiteral(":DONE")});

        // A client that lost the answer asks again: the same result.
        QCOMPARE(ToolHarness::text(job(id)), QStringLiteral("[stdout]\nstarted\nworking\nended\n\n=> :DONE"));
    }

    void jobAnswersTheProgressSoFarWhenItsOwnWaitPassesFirst()
    {
        const QJsonObject first = evalWaiting(QStringLiteral("(progn (print :tick) (sleep 0.2) (terpri) (sleep 4) :late)"), 0.5);
        const qint64 id = jobIdOf(first);
        QCOMPARE(status(first), QStringLiteral("running"));
        const QJsonObject still = job(id, {{QStringLiteral("wait_seconds"), 1}});
        QCOMPARE(status(still), QStringLiteral("running"));
        QCOMPARE(jobIdOf(still), id);
        QVERIFY(ToolHarness::structured(still).value(QStringLiteral("elapsed_ms")).toDouble()
                > ToolHarness::structured(first).value(QStringLiteral("elapsed_ms")).toDouble());
        QVERIFY2(ToolHarness::text(still).startsWith(QStringLiteral("[stdout]\n:TICK\n\n[RUNNING] job %1\n").arg(id)), qPrintable(ToolHarness::text(still)));
        QCOMPARE(ToolHarness::text(job(id, {{QStringLiteral("wait_seconds"), 30}})), QStringLiteral("[stdout]\n:TICK\n\n=> :LATE"));
    }

    void cancelInterruptsTheJobAndAnswersWithItsResult()
    {
        const QJsonObject first = evalWaiting(QStringLiteral("(loop (sleep 0.05))"), 0.3);
        const qint64 id = jobIdOf(first);
        QCOMPARE(status(first), QStringLiteral("running"));
        const QJsonObject cancelled = job(id, {{QStringLiteral("cancel"), true}, {QStringLiteral("wait_seconds"), 0}});
        QVERIFY(ToolHarness::isError(cancelled));
        QCOMPARE(status(cancelled), QStringLiteral("interrupted"));
        QVERIFY2(ToolHarness::text(cancelled).startsWith(QStringLiteral("[ERROR] INTERRUPTED\n")), qPrintable(ToolHarness::text(cancelled)));
        // The session goes on.
        QCOMPARE(ToolHarness::text(evalWaiting(QStringLiteral("(* 6 7)"), 5)), QStringLiteral("=> 42"));
    }

    void aJobQueuedBehindAnotherSaysItHasNotStarted()
    {
        const QJsonObject first = evalWaiting(QStringLiteral("(progn (sleep 1.5) :first)"), 0);
        QCOMPARE(status(first), QStringLiteral("running"));
        const QJsonObject second = evalWaiting(QStringLiteral(":second"), 0);
        QCOMPARE(status(second), QStringLiteral("running"));
        QCOMPARE(ToolHarness::structured(second).value(QStringLiteral("elapsed_ms")).toDouble(), 0.0);
        QVERIFY2(ToolHarness::text(second).contains(QStringLiteral("waits in the session's queue behind others' work; it has not started")),
                 qPrintable(ToolHarness::text(second)));
        QCOMPARE(ToolHarness::text(job(jobIdOf(second), {{QStringLiteral("wait_seconds"), 30}})), QStringLiteral("=> :SECOND"));
        QCOMPARE(ToolHarness::text(job(jobIdOf(first), {{QStringLiteral("wait_seconds"), 30}})), QStringLiteral("=> :FIRST"));
    }

    void timeExecutionAnswersThroughJobInItsOwnFormat()
    {
        const QJsonObject first = m_h->call(QStringLiteral("time-execution"), {{QStringLiteral("code"), QStringLiteral("(progn (sleep 1) :timed)")},
                                                                             {QStringLiteral("wait_seconds"), 0.2}});
        QCOMPARE(status(first), QStringLiteral("running"));
        QVERIFY(ToolHarness::text(first).contains(QStringLiteral("time-execution has run for")));
        const QJsonObject done = job(jobIdOf(first), {{QStringLiteral("wait_seconds"), 30}});
        QVERIFY2(ToolHarness::text(done).startsWith(QStringLiteral("=> :TIMED\n\n[timing]\nreal time: ")), qPrintable(ToolHarness::text(done)));
        QVERIFY(ToolHarness::structured(done).value(QStringLiteral("timing")).toObject().value(QStringLiteral("real_ms")).toDouble() >= 1000);
        QCOMPARE(ToolHarness::structured(done).value(QStringLiteral("tool")).toString(), QStringLiteral("time-execution"));
    }

    void loadSystemAnswersThroughJobInItsOwnFormat()
    {
        const QJsonObject first = m_h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("slowload")},
                                                                          {QStringLiteral("wait_seconds"), 0.2}},
                                            120000);
        QCOMPARE(status(first), QStringLiteral("running"));
        const QJsonObject done = job(jobIdOf(first), {{QStringLiteral("wait_seconds"), 100}});
        QVERIFY2(ToolHarness::text(done).startsWith(QStringLiteral("Loading system: slowload\nLoaded: slowload (version 1.2)")), qPrintable(ToolHarness::text(done)));
        QCOMPARE(ToolHarness::structured(done).value(QStringLiteral("system")).toString(), QStringLiteral("slowload"));
        QCOMPARE(status(done), QStringLiteral("ok"));
    }

    void anUnknownJobIdIsSaidToBeUnknown()
    {
        const QJsonObject unknown = job(987654);
        QVERIFY(ToolHarness::isError(unknown));
        QCOMPARE(status(unknown), QStringLiteral("unknown"));
        QVERIFY2(ToolHarness::text(unknown).startsWith(QStringLiteral("[ERROR] UNKNOWN-JOB\nNo job 987654 is waiting for its result in this session")),
                 qPrintable(ToolHarness::text(unknown)));
    }

    void aFetchedResultExpiresTenMinutesLaterAndAnUnfetchedOneStays()
    {
        JobHandles *handles = &m_h->m_jobs;
        QDateTime now = QDateTime::currentDateTimeUtc();
        handles->setClockForTest([&now] { return now; });
        const qint64 fetched = jobIdOf(evalWaiting(QStringLiteral("(progn (sleep 0.5) :fetched)"), 0));
        const qint64 unfetched = jobIdOf(evalWaiting(QStringLiteral("(progn (sleep 0.5) :unfetched)"), 0));
        QCOMPARE(ToolHarness::text(job(fetched, {{QStringLiteral("wait_seconds"), 30}})), QStringLiteral("=> :FETCHED"));
        QVERIFY(QTest::qWaitFor([this] { return !m_h->m_session.current(); }, 30000));

        now = now.addSecs(9 * 60);
        QCOMPARE(ToolHarness::text(job(fetched)), QStringLiteral("=> :FETCHED"));
        now = now.addSecs(2 * 60);
        const QJsonObject expired = job(fetched);
        QVERIFY(ToolHarness::isError(expired));
        QCOMPARE(status(expired), QStringLiteral("expired"));
        QVERIFY2(ToolHarness::text(expired).startsWith(QStringLiteral("[ERROR] EXPIRED-JOB\nThe result of job %1 was fetched and later dropped").arg(fetched)),
                 qPrintable(ToolHarness::text(expired)));

        now = now.addSecs(60 * 60);
        QCOMPARE(ToolHarness::text(job(unfetched)), QStringLiteral("=> :UNFETCHED"));
        handles->setClockForTest([] { return QDateTime::currentDateTimeUtc(); });
    }

    void aDebugJobThatParksBeforeItsWaitAnswersParkedAtOnce()
    {
        QElapsedTimer clock;
        clock.start();
        const QJsonObject parked = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(error \"early failure\")")},
                                                                             {QStringLiteral("debug"), true},
                                                                             {QStringLiteral("wait_seconds"), 30}});
        QVERIFY(clock.elapsed() < 10000);
        QCOMPARE(status(parked), QStringLiteral("parked"));
        // Its job_id lets the agent wait for somebody's choice with the tool job (issue 32).
        QVERIFY(ToolHarness::structured(parked).value(QStringLiteral("job_id")).toInt() > 0);
        const int debuggerId = ToolHarness::structured(parked).value(QStringLiteral("debugger")).toObject().value(QStringLiteral("id")).toInt();
        const QJsonObject aborted = m_h->call(QStringLiteral("invoke-restart"), {{QStringLiteral("debugger_id"), debuggerId}, {QStringLiteral("restart"), QStringLiteral("ABORT")}});
        QVERIFY2(ToolHarness::text(aborted).startsWith(QStringLiteral("[ERROR] SIMPLE-ERROR\nearly failure")), qPrintable(ToolHarness::text(aborted)));
    }

    void aDebugJobThatParksAfterItsCallAnsweredRunningIsAnsweredParkedByJob()
    {
        const QJsonObject first = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(progn (sleep 1.5) (error \"late failure\"))")},
                                                                            {QStringLiteral("debug"), true},
                                                                            {QStringLiteral("wait_seconds"), 0.3}});
        QCOMPARE(status(first), QStringLiteral("running"));
        const QJsonObject parked = job(jobIdOf(first), {{QStringLiteral("wait_seconds"), 30}});
        QCOMPARE(status(parked), QStringLiteral("parked"));
        QVERIFY(ToolHarness::isError(parked));
        QVERIFY2(ToolHarness::text(parked).startsWith(QStringLiteral("[ERROR] SIMPLE-ERROR\nlate failure")), qPrintable(ToolHarness::text(parked)));
        const QJsonArray content = parked.value(QStringLiteral("content")).toArray();
        QVERIFY(content.size() >= 2);
        QVERIFY(content.at(1).toObject().value(QStringLiteral("text")).toString().startsWith(QStringLiteral("[Debugger]\n")));
        const int debuggerId = ToolHarness::structured(parked).value(QStringLiteral("debugger")).toObject().value(QStringLiteral("id")).toInt();
        QVERIFY(debuggerId > 0);
        // The choice goes on as the job's own outcome; job then has its end.
        const QJsonObject used = m_h->call(QStringLiteral("invoke-restart"), {{QStringLiteral("debugger_id"), debuggerId}, {QStringLiteral("restart"), QStringLiteral("ABORT")}});
        QVERIFY(ToolHarness::isError(used));
        const QJsonObject ended = job(jobIdOf(first), {{QStringLiteral("wait_seconds"), 30}});
        QVERIFY2(ToolHarness::text(ended).startsWith(QStringLiteral("[ERROR] ")), qPrintable(ToolHarness::text(ended)));
        QVERIFY(status(ended) != QStringLiteral("running") && status(ended) != QStringLiteral("parked"));
    }

    void progressNotificationsFlowWhileJobWaits()
    {
        const qint64 id = jobIdOf(evalWaiting(QStringLiteral("(loop for i from 1 to 30 do (format t \"step ~D~%\" i) (finish-output) (sleep 0.1))"), 0.2));
        const qsizetype before = m_h->m_messages.size();
        const QJsonObject response = m_h->request(QStringLiteral("tools/call"),
                                                  {{QStringLiteral("name"), QStringLiteral("job")},
                                                   {QStringLiteral("arguments"), QJsonObject{{QStringLiteral("job_id"), id}, {QStringLiteral("wait_seconds"), 30}}},
                                                   {QStringLiteral("_meta"), QJsonObject{{QStringLiteral("progressToken"), QStringLiteral("job-wait")}}}});
        QVERIFY2(ToolHarness::text(response.value(QStringLiteral("result")).toObject()).endsWith(QStringLiteral("step 30\n\n=> NIL")),
                 qPrintable(ToolHarness::text(response.value(QStringLiteral("result")).toObject())));
        QStringList progress;
        for (qsizetype i = before; i < m_h->m_messages.size(); ++i) {
            const QJsonObject &m = m_h->m_messages.at(i);
            if (m.value(QStringLiteral("method")) == QStringLiteral("notifications/progress")
                && m.value(QStringLiteral("params")).toObject().value(QStringLiteral("progressToken")) == QStringLiteral("job-wait"))
                progress << m.value(QStringLiteral("params")).toObject().value(QStringLiteral("message")).toString();
        }
        QVERIFY2(!progress.isEmpty(), "no progress while job waited");
        QVERIFY2(progress.last().startsWith(QStringLiteral("step")), qPrintable(progress.join(QLatin1Char('|'))));
    }
};

QTEST_GUILESS_MAIN(TestToolsJobs)
#include "tst_tools_jobs.moc"

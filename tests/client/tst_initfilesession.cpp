// The person's init files as the Session loads them (issue 31): before any job of every
// engine (start, reset, restart), as a job of their own that the transcript keeps; one that
// signals, loops or quits leaves the session serving, and says why (InitFile::problem, for
// the window and project-info); one that stops the engine costs one restart, not every one.

#include "../common/EngineHarness.h"
#include "../common/TestFiles.h"

#include "initfile/InitFile.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

class TestInitFileSession : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarnessWithRooms> m_lisp;
    QTemporaryDir m_folder;
    QString m_file;

    InitFile *initFile() const { return &m_lisp->rooms.initFile; }

    // Resets the session and, once the old engine is gone, asks for `code` while the new one
    // starts: it runs after the init files.
    JobPtr resetThenRun(const QString &code)
    {
        QSignalSpy status(&m_lisp->session, &Session::engineStatus);
        m_lisp->session.reset(Origin::person());
        (void)QTest::qWaitFor([&] {
            for (const QList<QVariant> &args : std::as_const(status))
                if (args.value(0).value<Session::EngineStatus>() == Session::EngineStatus::Restarting)
                    return true;
            return false;
        }, 30000);
        return m_lisp->waitFor(m_lisp->session.submit(EngineProtocol::evaluation(code)), 60000);
    }

    // A harness whose init file is set before its engine is ready.
    void start(const QByteArray &text, int timeLimitMs = InitFile::DefaultTimeLimitMs)
    {
        QVERIFY(TestFiles::write(m_file, text));
        m_lisp = std::make_unique<EngineHarnessWithRooms>();
        initFile()->setFiles({m_file});
        initFile()->setTimeLimitMs(timeLimitMs);
    }

    InitFile::Status::State waitEnded(int ms = 30000)
    {
        (void)QTest::qWaitFor([this] {
            const auto state = initFile()->statuses().value(0).state;
            return state != InitFile::Status::State::Queued && m_lisp->engine.isReady();
        }, ms);
        return initFile()->statuses().value(0).state;
    }

    QList<JobPtr> initJobs() const
    {
        QList<JobPtr> jobs;
        for (const JobPtr &job : m_lisp->session.transcript())
            if (job->request.kind == EngineJob::Kind::LoadInit)
                jobs << job;
        return jobs;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_folder.isValid());
        m_file = m_folder.filePath(QStringLiteral("init.lisp"));
    }

    void cleanup() { m_lisp.reset(); }

    void itLoadsBeforeAnyJobOfEveryEngine()
    {
        start("(defvar *from-init* 42)\n(defun init-helper () :helped)\n(format t \"hello from init~%\")\n");
        // Asked while the engine starts: runs after the init file.
        const quint64 early = m_lisp->session.submit(EngineProtocol::evaluation(QStringLiteral("(list *from-init* (init-helper))")));
        const JobPtr job = m_lisp->waitFor(early);
        QVERIFY(job);
        QCOMPARE(job->result.values, QStringList{QStringLiteral("(42 :HELPED)")});
        QCOMPARE(waitEnded(), InitFile::Status::State::Loaded);
        QVERIFY(initFile()->problem().isEmpty());
        const QList<JobPtr> loads = initJobs();
        QCOMPARE(loads.size(), 1);
        QCOMPARE(loads.first()->request.origin.name, QStringLiteral("init file"));
        QVERIFY(loads.first()->result.stdoutText.contains(QLatin1String("hello from init")));
        QVERIFY(loads.first()->sequence < job->sequence);

        // A reset: the new engine loads it again, before anything else.
        QCOMPARE(resetThenRun(QStringLiteral("*from-init*"))->result.values, QStringList{QStringLiteral("42")});
        QCOMPARE(initJobs().size(), 2);
    }

    void noFileIsNoJob()
    {
        start("");
        QVERIFY(QFile::remove(m_file));
        QVERIFY(m_lisp->waitReady());
        QVERIFY(m_lisp->result(QStringLiteral("(+ 1 2)")).ok());
        QCOMPARE(initFile()->statuses().value(0).state, InitFile::Status::State::Missing);
        QVERIFY(initJobs().isEmpty());
        QVERIFY(initFile()->problem().isEmpty());
    }

    void anInitFileThatSignalsIsToldAndTheSessionServesWithoutTheRest()
    {
        start("(defvar *before-the-error* t)\n(error \"broken init\")\n(defvar *after-the-error* t)\n");
        QCOMPARE(waitEnded(), InitFile::Status::State::Failed);
        QVERIFY2(initFile()->problem().contains(QLatin1String("broken init")), qPrintable(initFile()->problem()));
        QVERIFY(initFile()->problem().contains(QLatin1String("runs without the rest of it")));
        QCOMPARE(m_lisp->result(QStringLiteral("(list (boundp '*before-the-error*) (boundp '*after-the-error*))")).values,
                 QStringList{QStringLiteral("(T NIL)")});
    }

    void oneOthersCanChangeIsSkippedWithTheReasonForEachReader()
    {
        // Issue 41: written by others, it would run their code as the person; not loaded.
        QVERIFY(TestFiles::write(m_file, "(defvar *writable-init-ran* t)\n"));
        QVERIFY(QFile::setPermissions(m_file, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther | QFile::WriteOther));
        m_lisp = std::make_unique<EngineHarnessWithRooms>();
        initFile()->setFiles({m_file});
        QCOMPARE(waitEnded(), InitFile::Status::State::Skipped);
        const QString short_ = InitFile::shortPath(m_file);
        QVERIFY2(initFile()->problem().startsWith(QStringLiteral("Your init file %1 was not loaded: other users can change %2 (mode 606)")
                                                       .arg(short_, m_file)),
                 qPrintable(initFile()->problem()));
        // An agent reads whose it is (to an agent, "your" would be its own).
        QVERIFY2(initFile()->problem(InitFile::Reader::Agent).startsWith(QStringLiteral("The person's init file %1 was not loaded: ").arg(short_)),
                 qPrintable(initFile()->problem(InitFile::Reader::Agent)));
        QCOMPARE(m_lisp->result(QStringLiteral("(boundp '*writable-init-ran*)")).values, QStringList{QStringLiteral("NIL")});
        QVERIFY(QFile::setPermissions(m_file, QFile::ReadOwner | QFile::WriteOwner));
    }

    void anInitFileThatLoopsIsStoppedAtItsTimeLimit()
    {
        start("(loop)\n", 1000);
        QCOMPARE(waitEnded(), InitFile::Status::State::TimedOut);
        QVERIFY2(initFile()->problem().contains(QLatin1String("did not finish within 1 s")), qPrintable(initFile()->problem()));
        QCOMPARE(m_lisp->result(QStringLiteral("(+ 1 2)")).values, QStringList{QStringLiteral("3")});
    }

    void quitInAnInitFileIsRefused()
    {
        start("(ext:quit 3)\n");
        QCOMPARE(waitEnded(), InitFile::Status::State::Failed);
        QVERIFY2(initFile()->problem().contains(QLatin1String("QUIT-REFUSED")), qPrintable(initFile()->problem()));
        const qint64 pid = m_lisp->engine.pid();
        QCOMPARE(m_lisp->result(QStringLiteral("(+ 1 2)")).values, QStringList{QStringLiteral("3")});
        QCOMPARE(m_lisp->engine.pid(), pid);
    }

    void oneThatStopsTheEngineCostsOneRestartAndIsSkippedUntilItChanges()
    {
        // Ignores the interrupt at its time limit: the host kills the engine after its own
        // margin and the grace period; the next engine starts without it.
        start("(mp:without-interrupts (loop))\n", 500);
        m_lisp->session.setInterruptGraceMs(500);
        QList<InitFile::Status::State> states;
        QObject listening; // gone before `states` is
        connect(initFile(), &InitFile::changed, &listening, [this, &states] { states << initFile()->statuses().value(0).state; });
        QVERIFY(QTest::qWaitFor([this] { return initFile()->statuses().value(0).state == InitFile::Status::State::Skipped; }, 30000));
        QVERIFY(states.contains(InitFile::Status::State::Stopped));
        QVERIFY2(initFile()->problem().contains(QLatin1String("stopped the Lisp engine")), qPrintable(initFile()->problem()));
        QCOMPARE(m_lisp->result(QStringLiteral("(+ 1 2)"), {}, 30000).values, QStringList{QStringLiteral("3")});
        QCOMPARE(initJobs().size(), 1);

        // Changed, it is loaded by the next engine.
        QTest::qWait(1100); // a new modification time
        QVERIFY(TestFiles::write(m_file, "(defvar *fixed* :yes)\n"));
        QCOMPARE(resetThenRun(QStringLiteral("*fixed*"))->result.values, QStringList{QStringLiteral(":YES")});
        QCOMPARE(initFile()->statuses().value(0).state, InitFile::Status::State::Loaded);
    }
};

QTEST_MAIN(TestInitFileSession)
#include "tst_initfilesession.moc"

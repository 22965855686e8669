#pragma once

// The real engine process behind a Session, in the test's own event loop, with a helper that
// submits a request and waits until the Session reports that very evaluation finished.

#include "client/EngineClient.h"
#include "session/Session.h"

#include <QHash>
#include <QTest>
#include <memory>

struct EngineHarness
{
    EngineClient engine;
    Session session{&engine};
    QHash<quint64, JobPtr> done; // every finished evaluation, by id
    QHash<quint64, QList<DebuggerPtr>> parkings; // every time a job parked, by job id

    EngineHarness()
    {
        // Run straight from the build tree as well as under CTest (which sets the variable).
        if (qEnvironmentVariableIsEmpty("LISP_DUET_ENGINE"))
            engine.setEnginePath(QStringLiteral(DUET_BIN_DIR "/lisp-duet-engine"));
        QObject::connect(&session, &Session::finished, &session,
                         [this](JobPtr job) { done.insert(job->id, job); });
        QObject::connect(session.debugger(), &SessionDebugger::parked, &session,
                         [this](JobPtr job) { parkings[job->id].append(job->debugger); });
        engine.start();
    }
    ~EngineHarness() { engine.stop(); }

    bool waitReady(int ms = 30000)
    {
        return QTest::qWaitFor([this] { return engine.isReady(); }, ms);
    }

    // Waits for the evaluation `id`; null if it did not finish in time.
    JobPtr waitFor(quint64 id, int ms = 30000)
    {
        (void)QTest::qWaitFor([this, id] { return done.contains(id); }, ms);
        return done.value(id);
    }

    JobPtr run(const JobRequest &request, int ms = 30000) { return waitFor(session.submit(request), ms); }

    // Waits until job `id` parked for the `count`th time; its debugger then, or null.
    DebuggerPtr waitParked(quint64 id, int count = 1, int ms = 30000)
    {
        (void)QTest::qWaitFor([this, id, count] { return parkings.value(id).size() >= count; }, ms);
        return parkings.value(id).value(count - 1);
    }

    // Submits code with debugging on (as the person, unless `origin` says otherwise).
    quint64 debugEval(const QString &code, const Origin &origin = Origin::person())
    {
        JobRequest request;
        request.code = code;
        request.origin = origin;
        request.debug = true;
        return session.submit(request);
    }

    JobPtr eval(const QString &code, const QString &package = QString(), int ms = 30000)
    {
        JobRequest request;
        request.code = code;
        request.package = package;
        return run(request, ms);
    }

    // The result of `code`, or a Failed result saying it never finished.
    JobResult result(const QString &code, const QString &package = QString(), int ms = 30000)
    {
        const JobPtr job = eval(code, package, ms);
        if (job)
            return job->result;
        JobResult missing;
        missing.status = JobResult::Status::Failed;
        missing.error.message = QStringLiteral("the evaluation did not finish within %1 ms").arg(ms);
        return missing;
    }
};

// Readable failure output for QCOMPARE on statuses.
inline char *toString(JobResult::Status status)
{
    return qstrdup(JobResult::statusName(status).toUtf8().constData());
}

#include "SessionRooms.h"

// The same with the rooms AppServices makes beside the Session (native compilation, the
// person's init files and editor), made before the engine is ready.
struct EngineHarnessWithRooms : EngineHarness
{
    SessionRooms rooms{&engine, &session};
};

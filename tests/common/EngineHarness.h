#pragma once

// The real engine process behind a Session, in the test's own event loop, with a helper that
// submits a request and waits until the Session reports that very evaluation finished.

#include "EngineClient.h"
#include "Session.h"

#include <QHash>
#include <QTest>
#include <memory>

struct EngineHarness
{
    EngineClient engine;
    Session session{&engine};
    QHash<quint64, EvaluationPtr> done; // every finished evaluation, by id

    EngineHarness()
    {
        // Run straight from the build tree as well as under CTest (which sets the variable).
        if (qEnvironmentVariableIsEmpty("LISP_DUET_ENGINE"))
            engine.setEnginePath(QStringLiteral(DUET_BIN_DIR "/lisp-duet-engine"));
        QObject::connect(&session, &Session::finished, &session,
                         [this](EvaluationPtr evaluation) { done.insert(evaluation->id, evaluation); });
        engine.start();
    }
    ~EngineHarness() { engine.stop(); }

    bool waitReady(int ms = 30000)
    {
        return QTest::qWaitFor([this] { return engine.isReady(); }, ms);
    }

    // Waits for the evaluation `id`; null if it did not finish in time.
    EvaluationPtr waitFor(quint64 id, int ms = 30000)
    {
        (void)QTest::qWaitFor([this, id] { return done.contains(id); }, ms);
        return done.value(id);
    }

    EvaluationPtr run(const EvalRequest &request, int ms = 30000) { return waitFor(session.submit(request), ms); }

    EvaluationPtr eval(const QString &code, const QString &package = QString(), int ms = 30000)
    {
        EvalRequest request;
        request.code = code;
        request.package = package;
        return run(request, ms);
    }

    // The result of `code`, or a Failed result saying it never finished.
    EvalResult result(const QString &code, const QString &package = QString(), int ms = 30000)
    {
        const EvaluationPtr evaluation = eval(code, package, ms);
        if (evaluation)
            return evaluation->result;
        EvalResult missing;
        missing.status = EvalResult::Status::Failed;
        missing.error.message = QStringLiteral("the evaluation did not finish within %1 ms").arg(ms);
        return missing;
    }
};

// Readable failure output for QCOMPARE on statuses.
inline char *toString(EvalResult::Status status)
{
    return qstrdup(EvalResult::statusName(status).toUtf8().constData());
}

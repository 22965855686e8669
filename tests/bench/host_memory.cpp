// Benchmark (not a test): the host's memory over many evaluations through a real Session and
// engine. Samples this process's RSS and the engine's every --every evaluations; run with a small
// --transcript-limit to see the transcript cap bound it.
//
//   bench_host_memory [--evaluations N] [--every K] [--transcript-limit L] [--journal]
//   bench_host_memory --journal-appends N     (cost of one journal record: write vs fdatasync)
//
// Each evaluation prints a little output and returns a value, as a REPL session does.

#include "../common/ResidentMemory.h"
#include "client/EngineClient.h"
#include "history/Journal.h"
#include "session/Session.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

namespace {

int argument(const QStringList &args, const QString &name, int fallback)
{
    const qsizetype i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args.at(i + 1).toInt() : fallback;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int total = argument(args, QStringLiteral("--evaluations"), 10000);
    const int every = argument(args, QStringLiteral("--every"), 1000);
    const int limit = argument(args, QStringLiteral("--transcript-limit"), 5000);
    if (const int appends = argument(args, QStringLiteral("--journal-appends"), 0); appends > 0) {
        Job e;
        e.request.code = QStringLiteral("(defun f (x) (* x 2))");
        e.result.values = {QStringLiteral("F")};
        e.result.stdoutText = QString(200, QLatin1Char('x'));
        e.queuedAt = e.startedAt = e.finishedAt = QDateTime::currentDateTime();
        const JournalEntry entry = JournalEntry::fromJob(e, QStringLiteral("COMMON-LISP-USER"));
        QTemporaryDir here(QStringLiteral("./journal-bench-XXXXXX")); // on the disk under test, not /tmp
        for (bool sync : {false, true}) {
            Journal j;
            j.open(here.filePath(sync ? QStringLiteral("sync.jsonl") : QStringLiteral("write.jsonl")));
            j.setSyncEachRecord(sync);
            QElapsedTimer t;
            t.start();
            for (int i = 0; i < appends; ++i)
                j.append(entry);
            std::printf("journal record (%d appends, %s): %.1f us each\n", appends, sync ? "write + fdatasync" : "write only",
                        t.nsecsElapsed() / 1000.0 / appends);
        }
        return 0;
    }

    EngineClient engine;
    Session session(&engine);
    session.setTranscriptLimit(limit);
    QTemporaryDir dir;
    Journal journal;
    if (args.contains(QStringLiteral("--journal"))) {
        journal.open(dir.filePath(QStringLiteral("bench.jsonl")));
        journal.attach(&session);
    }

    int done = 0;
    int failed = 0;
    QElapsedTimer clock;
    const qint64 startRss = residentKiB();
    std::printf("evaluations through Session: %d, transcript limit %d, journal %s\n", total, limit,
                journal.isOpen() ? "on" : "off");
    std::printf("%12s %12s %12s %12s %10s\n", "evaluations", "RSS KiB", "engine KiB", "transcript", "ms");
    auto submitNext = [&] {
        JobRequest request;
        request.code = QStringLiteral("(progn (format t \"line ~D~%\" %1) (list %1 (make-string 200 :initial-element #\\x)))").arg(done);
        request.origin = done % 3 ? Origin::agent(QStringLiteral("bench"), QStringLiteral("bench#1")) : Origin::person();
        session.submit(request);
    };
    QObject::connect(&session, &Session::finished, &app, [&](JobPtr job) {
        if (!job->result.ok())
            ++failed;
        ++done;
        if (done % every == 0) {
            std::printf("%12d %12lld %12lld %12lld %10lld\n", done, residentKiB(), residentKiB(engine.pid()),
                        qint64(session.transcript().size()), clock.elapsed());
            std::fflush(stdout);
        }
        // The digest is taken as agents do, so the per-client bookkeeping runs as in the app.
        if (done % 10 == 0)
            session.takeActivityFor(QStringLiteral("bench#1"));
        if (done >= total) {
            std::printf("start RSS %lld KiB, end RSS %lld KiB (engine %lld KiB), %d failed, %.0f evaluations/s\n", startRss,
                        residentKiB(), residentKiB(engine.pid()), failed, done * 1000.0 / qMax<qint64>(1, clock.elapsed()));
            app.quit();
            return;
        }
        submitNext();
    });
    QObject::connect(&engine, &EngineClient::ready, &app, [&] {
        if (clock.isValid())
            return;
        clock.start();
        std::printf("%12d %12lld %12lld %12d %10d\n", 0, residentKiB(), residentKiB(engine.pid()), 0, 0);
        submitNext();
    });
    engine.start();
    return app.exec();
}

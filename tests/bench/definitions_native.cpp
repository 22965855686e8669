// bench_definitions_native: what one definition costs on the pipe to the engine until the
// Definitions panel says it runs native. The person evaluates `(defun f ...)`; the panel's
// model (ui/definitions/DefinitionsModel) follows it as the window's does; every reply the
// engine sends (one per request: the evaluation, each re-query of the definitions list) and
// every event (the background compiler's "native" news) is counted from the evaluation's
// submission until the row's Runs column says "native" and the pipe has been quiet for 500 ms.
// Not a test: it prints figures and never fails on them. See README.md.
//
//   LISP_DUET_ENGINE=build/bin/lisp-duet-engine build/bin/bench_definitions_native [definitions]

#include "client/EngineClient.h"
#include "definitions/DefinitionsModel.h"
#include "history/DefinitionLedger.h"
#include "native/NativeCompilation.h"
#include "session/Session.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

void spin(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

bool waitFor(const std::function<bool()> &done, int ms)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > ms)
            return false;
        spin(5);
    }
    return true;
}

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll()).section(u' ', 0, 2) : QStringLiteral("?");
}

struct Count
{
    int replies = 0; // one per request the host sent
    int events = 0;  // the engine's own news (native, progress...)
    qint64 ms = 0;   // from the submission until the panel said native
};

int median(std::vector<int> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int definitions = argc > 1 ? std::max(1, atoi(argv[1])) : 10;

    EngineClient engine;
    Session session(&engine);
    NativeCompilation native(&engine, &session);
    session.setEngineStart({&native});
    DefinitionLedger ledger(&session);
    DefinitionsModel model; // as the window has it
    model.attach(&session);
    model.setNativeCompilation(&native);
    model.setLedger(&ledger);
    int replies = 0, events = 0;
    QElapsedTimer quiet;
    quiet.start();
    QObject::connect(&engine, &EngineClient::reply, [&] { ++replies; quiet.restart(); });
    QObject::connect(&engine, &EngineClient::otherEvent, [&] { ++events; quiet.restart(); });
    engine.start();
    if (!waitFor([&] { return engine.isReady(); }, 30000)) {
        std::fprintf(stderr, "the engine did not start\n");
        return 1;
    }
    waitFor([&] { return quiet.elapsed() > 1000; }, 10000); // the start's own requests are done

    std::vector<Count> counts;
    for (int i = 0; i < definitions; ++i) {
        const QString name = QStringLiteral("BENCH-NATIVE-%1").arg(i);
        const auto runs = [&] {
            return model.data(model.find(QStringLiteral("COMMON-LISP-USER"), name).siblingAtColumn(DefinitionsModel::RunsColumn)).toString();
        };
        replies = events = 0;
        QElapsedTimer clock;
        clock.start();
        JobRequest request;
        request.code = QStringLiteral("(defun %1 (n) (if (< n 2) n (+ (%1 (- n 1)) (%1 (- n 2)))))").arg(name.toLower());
        session.submit(request);
        if (!waitFor([&] { return runs() == QStringLiteral("native"); }, 60000)) {
            std::fprintf(stderr, "%s never ran native (Runs: %s)\n", qPrintable(name), qPrintable(runs()));
            return 1;
        }
        const qint64 nativeAfter = clock.elapsed();
        waitFor([&] { return quiet.elapsed() > 500; }, 10000); // what the news still set off
        counts.push_back({replies, events, nativeAfter});
        std::printf("%-16s requests %2d  events %2d  native after %4lld ms\n", qPrintable(name), replies, events,
                    static_cast<long long>(nativeAfter));
    }
    std::vector<int> requestCounts, eventCounts;
    for (const Count &c : counts) {
        requestCounts.push_back(c.replies);
        eventCounts.push_back(c.events);
    }
    std::printf("one (defun f ...) until the panel says native: median %d requests to the engine, %d events from it "
                "(%d definitions; load average %s)\n",
                median(requestCounts), median(eventCounts), definitions, qPrintable(loadAverage()));
    engine.stop();
    return 0;
}

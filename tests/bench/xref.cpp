// Benchmark (not a test): cross-references on ECL (issue 40, target under 200 ms). The session
// loads alexandria (Debian's source, through ASDF) and the shapes project (tests/data), then
// asks "xref calls" of names from both: the first question reads every loaded source file
// (cold), the next ones use the index (warm); a definition typed meanwhile, and a file touched
// since, are picked up. Figures: the engine's own time (the reply's "us") and the round trip
// from the host (a Session query), with the load average beside them.
//
//   bench_xref [--rounds N]

#include "../common/EngineHarness.h"
#include "../common/TestFiles.h"
#include "raw_mcp_client.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

namespace {
using bench::Clock;
using bench::microsSince;
using bench::stats;

struct Answer
{
    double engineUs = 0;
    double roundTripUs = 0;
    int references = 0;
    int files = 0;
};

Answer ask(EngineHarness &lisp, const QString &kind, const QString &name)
{
    Answer answer;
    QEventLoop loop; // not QTest::qWaitFor, which looks every 10 ms
    const Clock::time_point start = Clock::now();
    lisp.session.query({QStringLiteral("xref"), {{QStringLiteral("kind"), kind}, {QStringLiteral("name"), name},
                                                 {QStringLiteral("package"), QStringLiteral("CL-USER")}}},
                       [&](const QJsonObject &reply) {
                           answer.roundTripUs = microsSince(start);
                           answer.engineUs = reply.value(QStringLiteral("us")).toDouble();
                           answer.references = int(reply.value(QStringLiteral("references")).toArray().size());
                           answer.files = reply.value(QStringLiteral("files")).toInt();
                           loop.quit();
                       });
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    loop.exec();
    return answer;
}

QString loadAverage()
{
    double load[3] = {0, 0, 0};
    return getloadavg(load, 3) == 3 ? QStringLiteral("%1 %2 %3").arg(load[0]).arg(load[1]).arg(load[2]) : QStringLiteral("?");
}

void line(const char *what, const Answer &a)
{
    std::printf("%-52s engine %8.1f ms  round trip %8.1f ms  %3d references, %d files  (load %s)\n", what, a.engineUs / 1000,
                a.roundTripUs / 1000, a.references, a.files, qPrintable(loadAverage()));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int rounds = 20;
    for (int i = 1; i + 1 < argc; ++i)
        if (QByteArray(argv[i]) == "--rounds")
            rounds = std::atoi(argv[i + 1]);
    QTemporaryDir root;
    if (!TestFiles::copyTree(QStringLiteral(DUET_SOURCE_DIR "/tests/data/shapes"), root.filePath(QStringLiteral("shapes")))) {
        std::fprintf(stderr, "cannot copy the shapes project\n");
        return 1;
    }
    EngineHarness lisp;
    if (!lisp.waitReady())
        return 1;
    lisp.session.setProjectRoot(root.path());
    for (const char *system : {"alexandria", "shapes"}) {
        const JobPtr loaded = lisp.run(EngineProtocol::systemLoad(QString::fromLatin1(system), false, false), 300000);
        if (!loaded || !loaded->result.ok()) {
            std::fprintf(stderr, "load-system %s failed\n", system);
            return 1;
        }
    }
    lisp.eval(QStringLiteral("(defun busy-shapes (list) (mapcar #'shapes::area (alexandria:flatten list)))"));

    line("who-calls alexandria:flatten (cold: reads files)", ask(lisp, QStringLiteral("calls"), QStringLiteral("alexandria:flatten")));
    std::vector<double> engine, roundTrip;
    Answer last;
    for (int i = 0; i < rounds; ++i) {
        for (const char *name : {"alexandria:flatten", "shapes::area", "alexandria:ensure-list", "alexandria:with-gensyms"}) {
            last = ask(lisp, QStringLiteral("calls"), QString::fromLatin1(name));
            engine.push_back(last.engineUs);
            roundTrip.push_back(last.roundTripUs);
        }
    }
    const bench::Stats e = stats(engine), r = stats(roundTrip);
    std::printf("%-52s engine median %6.2f ms p99 %6.2f ms; round trip median %6.2f ms p99 %6.2f ms (%d questions, load %s)\n",
                "who-calls, warm (4 names)", e.median / 1000, e.p99 / 1000, r.median / 1000, r.p99 / 1000,
                int(engine.size()), qPrintable(loadAverage()));
    line("calls-who busy-shapes (warm)", ask(lisp, QStringLiteral("calls-who"), QStringLiteral("busy-shapes")));
    // A file changed since: read again on the next question.
    QFile touched(root.filePath(QStringLiteral("shapes/src/shapes.lisp")));
    if (touched.open(QIODevice::ReadWrite))
        touched.setFileTime(QDateTime::currentDateTime().addSecs(5), QFileDevice::FileModificationTime);
    touched.close();
    line("who-calls shapes::area (one file read again)", ask(lisp, QStringLiteral("calls"), QStringLiteral("shapes::area")));
    return 0;
}

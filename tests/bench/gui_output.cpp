// bench_gui_output: how the window copes with a flood of output. An evaluation prints 10 MB
// of text (the output cap raised for it) while a 10 ms timer measures how late the GUI event
// loop runs it; the process's resident memory is sampled before, during and after.
// Not a test: it prints figures and never fails on them. See README.md.
//
//   QT_QPA_PLATFORM=offscreen LISP_DUET_ENGINE=build/bin/lisp-duet-engine build/bin/bench_gui_output [MB] [scrollback]

#include "../common/ResidentMemory.h"
#include "access/AccessGate.h"
#include "client/EngineClient.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "server/McpServer.h"
#include "session/Session.h"
#include "toolapi/ToolRegistry.h"
#include "tools/JobHandles.h"
#include "tools/Tools.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <memory>
#include <vector>

namespace {

void spin(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

// CPU time of this (the GUI) thread: a late tick during which the thread itself ran little was
// late because the machine was busy elsewhere, not because the window blocked.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const int megabytes = argc > 1 ? std::max(1, atoi(argv[1])) : 10;
    const int scrollback = argc > 2 ? std::max(100, atoi(argv[2])) : 20000;

    EngineClient engine;
    Session session(&engine);
    session.setDefaultTimeoutMs(300000);
    ToolRegistry tools;
    JobHandles jobs(&session);
    tools.add(evaluateLispTool(&session, &jobs));
    McpServer server(&session, &tools);
    AccessGate access;
    access.install(&server);
    MainWindow window(&session, &server, &access);
    window.console()->transcript()->setScrollback(scrollback);
    window.show();
    engine.start();
    QElapsedTimer wait;
    wait.start();
    while (!engine.isReady() && wait.elapsed() < 20000)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    if (!engine.isReady()) {
        std::fprintf(stderr, "bench_gui_output: the engine did not start\n");
        return 1;
    }
    spin(500);
    const double rssBefore = (residentKiB() / 1024.0);

    // 80 characters a line (79 + newline).
    const int lines = megabytes * 1000 * 1000 / 80;
    EvalOptions options;
    options.maxOutputChars = lines * 80 + 1000;
    const JobRequest request = EngineProtocol::evaluation(
        QStringLiteral("(let ((line (make-string 79 :initial-element #\\x))) (dotimes (i %1) (write-line line)) :printed)").arg(lines), {}, options);

    std::vector<double> lateness;
    std::vector<double> busy; // CPU ms of the GUI thread between two ticks
    double lastCpu = threadCpuMs();
    double peakRss = rssBefore;
    QElapsedTimer clock;
    QElapsedTimer sinceTick;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(10);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        lateness.push_back(std::max<double>(0, sinceTick.nsecsElapsed() / 1e6 - 10.0));
        sinceTick.restart();
        const double cpu = threadCpuMs();
        busy.push_back(cpu - lastCpu);
        lastCpu = cpu;
        if (lateness.size() % 10 == 0)
            peakRss = std::max(peakRss, (residentKiB() / 1024.0));
    });

    bool done = false;
    qint64 outputChars = 0;
    qint64 evalMs = 0;
    QObject::connect(&session, &Session::output, [&](quint64, const QString &, const QString &text) { outputChars += text.size(); });
    QObject::connect(&session, &Session::finished, [&](const JobPtr &job) {
        done = true;
        evalMs = clock.elapsed();
        std::fprintf(stderr, "evaluation: %s, %lld characters of output, %lld dropped by the engine\n",
                     qPrintable(JobResult::statusName(job->result.status)), outputChars,
                     job->result.outputDropped);
    });

    clock.start();
    sinceTick.start();
    ticker.start();
    session.submit(request);
    TranscriptView *transcript = window.console()->transcript();
    QEventLoop loop;
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, [&] {
        if ((done && transcript->pendingPieces() == 0) || clock.elapsed() > 300000)
            loop.quit();
    });
    check.start(20);
    loop.exec();
    const qint64 drainedMs = clock.elapsed();
    spin(300);
    ticker.stop();
    const double rssAfter = (residentKiB() / 1024.0);

    std::vector<double> sorted = lateness;
    std::sort(sorted.begin(), sorted.end());
    auto percentile = [&](double p) { return sorted.empty() ? 0.0 : sorted[std::min(sorted.size() - 1, size_t(p * sorted.size()))]; };
    const auto over50 = std::count_if(sorted.begin(), sorted.end(), [](double v) { return v > 50; });
    std::printf("output: %d MB (%d lines of 80 characters), scrollback %d blocks\n", megabytes, lines, scrollback);
    std::printf("evaluation finished after %lld ms; transcript drained after %lld ms\n", evalMs, drainedMs);
    std::printf("10 ms timer: %zu ticks, lateness median %.1f ms, p99 %.1f ms, max %.1f ms, ticks later than 50 ms: %lld\n",
                lateness.size(), percentile(0.5), percentile(0.99), sorted.empty() ? 0.0 : sorted.back(), qint64(over50));
    std::sort(busy.begin(), busy.end());
    const auto busyOver50 = std::count_if(busy.begin(), busy.end(), [](double v) { return v > 50; });
    std::printf("GUI thread CPU between two ticks: max %.1f ms, intervals with more than 50 ms of work: %lld; longest transcript batch %.1f ms\n",
                busy.empty() ? 0.0 : busy.back(), qint64(busyOver50), transcript->longestFlushMs());
    std::printf("transcript: %d blocks kept, %lld characters skipped in the window (arrived faster than shown)\n",
                transcript->document()->blockCount(), transcript->droppedChars());
    std::printf("RSS: before %.1f MiB, peak %.1f MiB, after %.1f MiB\n", rssBefore, peakRss, rssAfter);
    engine.stop();
    return 0;
}

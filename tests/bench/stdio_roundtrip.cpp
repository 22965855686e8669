// Benchmark (not a test): round trips of `lisp-duet --headless --stdio`, measured from a plain
// POSIX client (fork/exec, pipes, poll) so that the figures are the server's, not a client
// library's.
//
//   bench_stdio_roundtrip [PATH-TO-lisp-duet] [--calls N] [--starts N]
//
// Reports median, p99 and mean of N sequential evaluate-lisp "(+ 1 2)" calls and N pings on
// one connection, and the median time from process start to the initialize response (and to
// the first evaluation result, which includes the engine's boot); the floor under them (a line
// echoed by `cat`); the engine alone, and where its time goes.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "raw_mcp_client.h"

namespace {
using bench::Clock;
using bench::microsSince;
using bench::stats;
using bench::Stats;

// `lisp-duet --headless --stdio`, or the engine alone (engineOnly). With a stage log, the engine
// writes where each request's time went to that file (LISP_DUET_STAGE_LOG, see
// engine/kernel/StageClock.h).
class Server : public bench::PipeServer
{
public:
    explicit Server(const std::string &path, bool engineOnly = false, const std::string &stageLog = {})
        : PipeServer(engineOnly ? std::vector<std::string>{path} : std::vector<std::string>{path, "--headless", "--stdio", "--no-journal"},
                     stageLog.empty() ? Environment{} : Environment{{"LISP_DUET_STAGE_LOG", "1"}}, stageLog)
    {
    }
    void waitExit() { stop(); }
};

void report(const char *what, const Stats &s, const char *unit = "us")
{
    std::printf("%-34s median %8.1f %s   p99 %8.1f %s   mean %8.1f %s   min %8.1f %s\n", what, s.median, unit, s.p99, unit, s.mean,
                unit, s.min, unit);
}
// The engine's own account of each evaluation (StageClock): one line per request, "lisp-duet-engine
// stages: ID" and nanoseconds per stage. Prints the median of each stage over the ids from
// FIRST to LAST, so that a regression names its stage.
void reportEngineStages(const std::string &logPath, int firstId, int lastId)
{
    static const char *const names[] = {"route (parse, queue)", "hand-off to the worker", "request (plist, job set up)",
                                        "evaluate (read, eval)", "print", "reply (job closed, JSON)", "write (pipe)"};
    constexpr size_t stageCount = sizeof names / sizeof *names;
    std::vector<std::vector<double>> stages(stageCount);
    FILE *log = std::fopen(logPath.c_str(), "r");
    if (!log) {
        std::printf("  (no stage log: %s)\n", logPath.c_str());
        return;
    }
    char line[512];
    while (std::fgets(line, sizeof line, log)) {
        long long id = 0, ns[stageCount] = {};
        if (std::sscanf(line, "lisp-duet-engine stages: %lld %lld %lld %lld %lld %lld %lld %lld", &id, &ns[0], &ns[1], &ns[2], &ns[3],
                        &ns[4], &ns[5], &ns[6]) != 8
            || id < firstId || id > lastId)
            continue;
        for (size_t i = 0; i < stageCount; ++i)
            stages[i].push_back(double(ns[i]) / 1000.0);
    }
    std::fclose(log);
    if (stages[0].empty()) {
        std::printf("  (the engine wrote no stage times: an engine before StageClock?)\n");
        return;
    }
    double sum = 0;
    std::printf("  where one evaluation goes inside the engine (medians of %zu):\n", stages[0].size());
    for (size_t i = 0; i < stageCount; ++i) {
        const double median = stats(stages[i]).median;
        sum += median;
        std::printf("    %-30s %8.2f us\n", names[i], median);
    }
    std::printf("    %-30s %8.2f us\n", "sum of the medians", sum);
}

// The floor under every round trip here: a line through two pipes and two process wake-ups,
// with `cat` as the server, measured by the same client code. Ping pays it once (client and
// app), an evaluation twice (client and app, app and engine), the engine alone once.
Stats pipeFloor(int calls)
{
    bench::PipeServer cat({"cat"});
    const std::string line = R"({"jsonrpc":"2.0","id":1,"result":{}})";
    std::vector<double> samples;
    for (int i = 0; i < calls + 100; ++i) {
        const auto start = Clock::now();
        cat.send(line);
        cat.readLine();
        if (i >= 100)
            samples.push_back(microsSince(start));
    }
    cat.closeInput();
    return stats(samples);
}

// Where one evaluation's time goes, end to end: the app and its engine write their stage marks
// into one file (LISP_DUET_STAGE_LOG=FILE; engine/client/StageLog.h, engine/kernel/StageClock.h)
// on CLOCK_MONOTONIC, the clock of std::chrono::steady_clock here, so the hops between the
// three processes (the pipes and the wake-ups) can be told apart from each process's own work.
void reportEndToEnd(const std::string &path, int calls)
{
    char stageLog[] = "/tmp/bench-e2e-XXXXXX";
    close(mkstemp(stageLog));
    const auto nowNs = [] { return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count(); };
    std::vector<long long> clientSent, clientGot;
    {
        bench::PipeServer server({path, "--headless", "--stdio", "--no-journal"}, {{"LISP_DUET_STAGE_LOG", stageLog}});
        long id = 1;
        server.send(bench::initializeRequest(id));
        server.response(id++);
        server.send(bench::initializedNotification());
        for (int i = 0; i < 100; ++i) {
            server.send(bench::toolCall(id, "evaluate-lisp", "(+ 1 2)"));
            server.response(id++);
        }
        for (int i = 0; i < calls; ++i) {
            clientSent.push_back(nowNs());
            server.send(bench::toolCall(id, "evaluate-lisp", "(+ 1 2)"));
            server.response(id++);
            clientGot.push_back(nowNs());
        }
        server.stop();
    }
    // The marks of the measured calls are the last `calls` of each kind (one client, one call
    // at a time, nothing after them).
    std::vector<long long> received, sent, engineRead, engineWrote, replied, answered;
    FILE *log = std::fopen(stageLog, "r");
    char line[512];
    while (log && std::fgets(line, sizeof line, log)) {
        char what[32];
        long long id = 0, at = 0, read = 0, wrote = 0;
        if (std::sscanf(line, "lisp-duet stage: %31s %lld %lld", what, &id, &at) == 3) {
            const std::string kind = what;
            (kind == "received" ? received : kind == "sent" ? sent : kind == "replied" ? replied : answered).push_back(at);
        } else if (const char *marks = std::strstr(line, " @ "); marks && std::sscanf(marks, " @ %lld %lld", &read, &wrote) == 2) {
            engineRead.push_back(read);
            engineWrote.push_back(wrote);
        }
    }
    if (log)
        std::fclose(log);
    unlink(stageLog);
    const size_t n = size_t(calls);
    for (std::vector<long long> *marks : {&received, &sent, &engineRead, &engineWrote, &replied, &answered}) {
        if (marks->size() < n) {
            std::printf("end to end: the stage log has too few marks (an app or engine without stage marks?)\n\n");
            return;
        }
        marks->erase(marks->begin(), marks->end() - long(n));
    }
    struct Segment
    {
        const char *name;
        const std::vector<long long> &from, &to;
    };
    const Segment segments[] = {
        {"client -> app (pipe, wake-up)", clientSent, received},
        {"app: request -> engine line", received, sent},
        {"app -> engine (pipe, wake-up)", sent, engineRead},
        {"engine: line -> reply written", engineRead, engineWrote},
        {"engine -> app (pipe, wake-up)", engineWrote, replied},
        {"app: reply -> answer written", replied, answered},
        {"app -> client (pipe, wake-up)", answered, clientGot},
    };
    std::printf("end to end, where one evaluate-lisp \"(+ 1 2)\" goes (medians of %d; each segment's own median):\n", calls);
    double sum = 0;
    for (const Segment &segment : segments) {
        std::vector<double> us;
        for (size_t i = 0; i < n; ++i)
            us.push_back(double(segment.to[i] - segment.from[i]) / 1000.0);
        const double median = stats(us).median;
        sum += median;
        std::printf("    %-34s %8.2f us\n", segment.name, median);
    }
    std::vector<double> total;
    for (size_t i = 0; i < n; ++i)
        total.push_back(double(clientGot[i] - clientSent[i]) / 1000.0);
    std::printf("    %-34s %8.2f us (the round trip's own median: %.2f us)\n\n", "sum of the medians", sum, stats(total).median);
}
} // namespace

int main(int argc, char **argv)
try {
    std::string path = DUET_BIN_DIR "/lisp-duet";
    int calls = 1000;
    int starts = 20;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--calls") && i + 1 < argc)
            calls = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--starts") && i + 1 < argc)
            starts = std::atoi(argv[++i]);
        else
            path = argv[i];
    }
    if (access(path.c_str(), X_OK) != 0) {
        std::fprintf(stderr, "%s is not an executable: build lisp-duet or pass its path\n", path.c_str());
        return 2;
    }
    if (!getenv("LISP_DUET_ENGINE"))
        setenv("LISP_DUET_ENGINE", (path.substr(0, path.rfind('/')) + "/lisp-duet-engine").c_str(), 1);
    signal(SIGPIPE, SIG_IGN);

    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) < 0)
        load[0] = -1;
    std::printf("lisp-duet stdio benchmark: %s\n%d sequential calls, %d starts; load average %.2f on %ld CPUs\n\n", path.c_str(), calls,
                starts, load[0], sysconf(_SC_NPROCESSORS_ONLN));

    const Stats floor = pipeFloor(calls);

    // Round trips on one connection.
    {
        Server server(path);
        int id = 1;
        server.send(bench::initializeRequest(id));
        server.response(id++);
        server.send(bench::initializedNotification());
        for (int i = 0; i < 100; ++i) { // warm up: the engine boots, caches fill
            server.send(bench::toolCall(id, "evaluate-lisp", "(+ 1 2)"));
            const std::string line = server.response(id++);
            if (i == 0 && line.find("=> 3") == std::string::npos) {
                std::fprintf(stderr, "unexpected answer: %s\n", line.c_str());
                return 1;
            }
        }
        std::vector<double> evals, pings;
        evals.reserve(size_t(calls));
        pings.reserve(size_t(calls));
        for (int i = 0; i < calls; ++i) {
            const auto start = Clock::now();
            server.send(bench::toolCall(id, "evaluate-lisp", "(+ 1 2)"));
            server.response(id++);
            evals.push_back(microsSince(start));
        }
        for (int i = 0; i < calls; ++i) {
            const auto start = Clock::now();
            server.send(bench::pingRequest(id));
            server.response(id++);
            pings.push_back(microsSince(start));
        }
        server.closeInput();
        const Stats e = stats(evals), p = stats(pings);
        report("evaluate-lisp \"(+ 1 2)\"", e);
        report("ping", p);
        report("floor: a line echoed by cat", floor);
        std::printf("%-34s %.2fx (issue 22's target: within 3x)\n", "evaluate / ping (medians)", e.median / p.median);
        std::printf("%-34s %.1f us (evaluate-lisp minus two floors), %.1f us (ping minus one)\n\n", "work beyond the pipes",
                    e.median - 2 * floor.median, p.median - floor.median);
    }

    reportEndToEnd(path, calls);

    // The same round trips on the engine's own protocol, without the app. The engine that is
    // timed keeps no stage log (its file write per request would be timed too); a second one
    // logs, for where the time goes.
    {
        const std::string engine = getenv("LISP_DUET_ENGINE");
        char stageLog[] = "/tmp/bench-stages-XXXXXX";
        close(mkstemp(stageLog));
        const auto engineEval = [](int id) { return R"({"op":"eval","id":)" + std::to_string(id) + R"j(,"code":"(+ 1 2)"})j"; };
        int firstLogged = 0;
        {
            Server logging(engine, true, stageLog);
            logging.readLine(); // the ready event
            int id = 1;
            for (; id <= 100; ++id) {
                logging.send(engineEval(id));
                logging.response(id);
            }
            firstLogged = id;
            for (int i = 0; i < calls; ++i, ++id) {
                logging.send(engineEval(id));
                logging.response(id);
            }
            logging.waitExit();
        }
        Server server(engine, true);
        server.readLine(); // the ready event
        int id = 1;
        for (int i = 0; i < 100; ++i) {
            server.send(engineEval(id));
            server.response(id++);
        }
        std::vector<double> evals, pings, inside;
        for (int i = 0; i < calls; ++i) {
            const auto start = Clock::now();
            server.send(engineEval(id));
            const std::string line = server.response(id++);
            evals.push_back(microsSince(start));
            const size_t at = line.find("\"real_us\":");
            if (at != std::string::npos)
                inside.push_back(std::atof(line.c_str() + at + 10));
        }
        for (int i = 0; i < calls; ++i) {
            const auto start = Clock::now();
            server.send(R"({"op":"ping","id":)" + std::to_string(id) + "}");
            server.response(id++);
            pings.push_back(microsSince(start));
        }
        // 1.1 MB of output (issue 13): from request to result, with the default output cap
        // (100,000 characters; the rest is counted as dropped) and with the cap raised to 2 MB.
        const char *const outputLoop = R"j((dotimes (i 100000) (write-line \"0123456789\")))j";
        std::vector<double> outputDefault, outputAll;
        for (std::vector<double> *samples : {&outputDefault, &outputAll}) {
            if (samples == &outputAll) {
                server.send(R"({"op":"limits","id":)" + std::to_string(id) + R"(,"limits":{"max_output_chars":2000000}})");
                server.response(id++);
            }
            for (int i = 0; i < 21; ++i) {
                const auto start = Clock::now();
                server.send(R"({"op":"eval","id":)" + std::to_string(id) + R"(,"code":")" + outputLoop + "\"}");
                server.response(id++);
                if (i > 0) // the first run warms up
                    samples->push_back(microsSince(start) / 1000.0);
            }
        }
        server.waitExit();
        std::printf("engine alone (%s):\n", engine.c_str());
        report("  eval \"(+ 1 2)\" round trip", stats(evals));
        report("  ...of which EVALUATE itself", stats(inside));
        std::printf("  %-32s %.2fx (issue 22's target: within 2x)\n", "round trip / EVALUATE (medians)",
                    stats(evals).median / stats(inside).median);
        std::printf("  %-32s %.1f us (the round trip minus the floor, %.1f us, and EVALUATE)\n", "engine work beyond EVALUATE",
                    stats(evals).median - floor.median - stats(inside).median, floor.median);
        report("  ping (no job: the idle worker answers)", stats(pings));
        reportEngineStages(stageLog, firstLogged, firstLogged + calls - 1);
        report("  1.1 MB output, default cap", stats(outputDefault), "ms");
        report("  1.1 MB output, cap 2 MB", stats(outputAll), "ms");
        std::printf("\n");
        unlink(stageLog);
    }

    // From process start to the initialize response, and to the first evaluation's result.
    std::vector<double> toInitialize, toFirstEval;
    for (int i = 0; i < starts; ++i) {
        const auto start = Clock::now();
        Server server(path);
        server.send(bench::initializeRequest(1));
        server.send(bench::initializedNotification());
        server.send(bench::toolCall(2, "evaluate-lisp", "(+ 1 2)"));
        server.response(1);
        toInitialize.push_back(microsSince(start) / 1000.0);
        server.response(2);
        toFirstEval.push_back(microsSince(start) / 1000.0);
        server.closeInput();
    }
    std::vector<double> engineReady;
    for (int i = 0; i < starts; ++i) {
        const auto start = Clock::now();
        Server server(getenv("LISP_DUET_ENGINE"), true);
        server.readLine();
        engineReady.push_back(microsSince(start) / 1000.0);
        server.closeInput();
    }
    report("start -> initialize response", stats(toInitialize), "ms");
    report("start -> first evaluation result", stats(toFirstEval), "ms");
    report("engine alone: start -> ready", stats(engineReady), "ms");
    return 0;
} catch (const bench::ServerFailure &failure) {
    std::fprintf(stderr, "%s\n", failure.what());
    return 1;
}

// Round trips over the HTTP and local-socket transports of `lisp-duet --headless`, with a
// plain POSIX client (sockets, threads; no Qt, no Node) so the figures are the server's:
//  - evaluate-lisp "(+ 1 2)" and ping: median, p99, mean of sequential round trips on one
//    keep-alive connection (HTTP) or one socket connection (local);
//  - 8 clients x 1,000 evaluate calls at once, each on its own connection and MCP session:
//    every call answered with its own id, none lost, and the total time.
//
//   bench_transport_roundtrip [PATH/lisp-duet] [--calls 1000] [--clients 8] [--per-client 1000] [--journal]
//
// The app runs with --no-journal unless --journal is given (the journal writes every
// evaluation to disk, which measures the disk rather than the transports).

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "raw_mcp_client.h"

namespace {
using bench::Clock;
using bench::microseconds;
using bench::stats;
using bench::Stats;

bench::Connection openConnection(bool http, int port, const std::string &socketPath)
{
    return http ? bench::Connection::http(port) : bench::Connection::localSocket(socketPath);
}

std::string evaluateRequest(long id)
{
    return bench::toolCall(id, "evaluate-lisp", "(+ 1 2)");
}

void sequential(const char *label, bool http, int port, const std::string &path, int calls)
{
    bench::Connection c = openConnection(http, port, path);
    if (!c.ok() || !c.initialize("bench")) {
        std::printf("%s: could not connect\n", label);
        return;
    }
    for (int i = 0; i < 100; ++i)
        c.exchange(evaluateRequest(i + 1));
    std::vector<double> eval, ping;
    for (int i = 0; i < calls; ++i) {
        const auto t0 = Clock::now();
        const std::string r = c.exchange(evaluateRequest(1000 + i));
        eval.push_back(microseconds(Clock::now() - t0));
        if (r.find("=> 3") == std::string::npos) {
            std::printf("%s: unexpected answer %s\n", label, r.c_str());
            return;
        }
    }
    for (int i = 0; i < calls; ++i) {
        const auto t0 = Clock::now();
        c.exchange(bench::pingRequest(5000 + i));
        ping.push_back(microseconds(Clock::now() - t0));
    }
    const Stats e = stats(eval), p = stats(ping);
    std::printf("%-6s evaluate-lisp \"(+ 1 2)\": median %.0f us, p99 %.0f us, mean %.0f us (%d calls)\n", label, e.median, e.p99, e.mean, calls);
    std::printf("%-6s ping:                   median %.0f us, p99 %.0f us, mean %.0f us\n", label, p.median, p.p99, p.mean);
}

void concurrent(const char *label, bool http, int port, const std::string &path, int clients, int perClient)
{
    std::atomic<long> answered{0}, wrong{0}, failedClients{0};
    const auto t0 = Clock::now();
    std::vector<std::thread> threads;
    for (int k = 0; k < clients; ++k) {
        threads.emplace_back([&, k] {
            bench::Connection c = openConnection(http, port, path);
            if (!c.ok() || !c.initialize("bench-" + std::to_string(k))) {
                ++failedClients;
                return;
            }
            for (int i = 0; i < perClient; ++i) {
                const long id = 10000 + i;
                const std::string r = c.exchange(evaluateRequest(id));
                if (r.find("\"id\":" + std::to_string(id)) != std::string::npos && r.find("=> 3") != std::string::npos)
                    ++answered;
                else
                    ++wrong;
            }
        });
    }
    for (auto &t : threads)
        t.join();
    const double total = microseconds(Clock::now() - t0) / 1e6;
    std::printf("%-6s %d clients x %d calls at once: %ld answered, %ld wrong or lost, %ld clients failed, %.2f s total (%.0f calls/s)\n",
                label, clients, perClient, answered.load(), wrong.load(), failedClients.load(), total, double(answered) / total);
}
} // namespace

int main(int argc, char **argv)
{
    std::string app = std::string(DUET_BIN_DIR) + "/lisp-duet";
    int calls = 1000, clients = 8, perClient = 1000;
    bool journal = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--calls" && i + 1 < argc)
            calls = std::atoi(argv[++i]);
        else if (a == "--clients" && i + 1 < argc)
            clients = std::atoi(argv[++i]);
        else if (a == "--per-client" && i + 1 < argc)
            perClient = std::atoi(argv[++i]);
        else if (a == "--journal")
            journal = true;
        else
            app = a;
    }
    char runtime[] = "/tmp/lisp-duet-bench-XXXXXX";
    if (!mkdtemp(runtime))
        return 1;
    const int port = 20000 + int(getpid() % 20000);
    const std::string socketPath = std::string(runtime) + "/bench";
    const pid_t child = fork();
    if (child == 0) {
        setenv("XDG_RUNTIME_DIR", runtime, 1);
        setenv("XDG_CONFIG_HOME", runtime, 1);
        setenv("XDG_DATA_HOME", runtime, 1);
        const std::string portText = std::to_string(port);
        std::vector<const char *> args{app.c_str(), "--headless", "--no-auth", "--port", portText.c_str(), "--socket", socketPath.c_str()};
        if (!journal)
            args.push_back("--no-journal");
        args.push_back(nullptr);
        execv(app.c_str(), const_cast<char *const *>(args.data()));
        _exit(127);
    }
    // Wait until both endpoints answer.
    for (int i = 0; i < 100; ++i) {
        const bench::Connection h = bench::Connection::http(port), l = bench::Connection::localSocket(socketPath);
        if (h.ok() && l.ok())
            break;
        usleep(100000);
    }
    std::printf("lisp-duet --headless --no-auth --port %d --socket %s%s\n", port, socketPath.c_str(), journal ? "" : " --no-journal");
    sequential("HTTP", true, port, socketPath, calls);
    sequential("local", false, port, socketPath, calls);
    concurrent("HTTP", true, port, socketPath, clients, perClient);
    concurrent("local", false, port, socketPath, clients, perClient);
    kill(child, SIGTERM);
    int status = 0;
    waitpid(child, &status, 0);
    std::printf("lisp-duet exited %s\n", WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "cleanly" : "with an error");
    std::string cleanup = std::string("rm -rf ") + runtime;
    return std::system(cleanup.c_str()) == 0 ? 0 : 0;
}

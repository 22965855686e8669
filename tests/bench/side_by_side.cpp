// Benchmark (not a test): Lisp Duet and another MCP server measured side by side by the same
// plain POSIX client (raw_mcp_client.h), alternated A B A B, so that a slow hour of a shared
// machine weighs on both and the ratios mean something. tests/bench/side-by-side.sh runs it
// with Lisp Duet and cl-mcp; see README.md.
//
//   bench_side_by_side --server LABEL --tool NAME --expect TEXT --stdio "COMMAND" [--http "COMMAND"]
//                     [--server LABEL ...]   (the first server is A in the ratios A / B)
//                     [--rounds 2] [--calls 1000] [--warmup 100] [--starts 5] [--clients 8]
//                     [--per-client 500] [--loops 3] [--outputs 5] [--limit-calls 20]
//
// Per server: --tool is its evaluation tool (it takes `code` and `timeout_seconds`), --expect a
// piece of its answer to (+ 1 2) (every answer is checked, so a broken server cannot look
// fast), --stdio its stdio command, --http the command that serves Streamable HTTP at
// http://127.0.0.1:{port}/mcp until SIGTERM. Commands are words separated by spaces (no
// quoting: wrap anything more in a script); {port} and {dir} (a fresh folder for the process)
// are replaced. Every process gets fresh XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME,
// XDG_RUNTIME_DIR and LISP_DUET_RUNTIME_ROOT (not XDG_CACHE_HOME: a peer may keep its
// compiled files there).
//
// Measured per server and round, as a client sees it:
//  - start: fork -> initialize response, and -> first (+ 1 2) result (median of --starts);
//  - raw JSON lines over stdio on one connection: evaluate (+ 1 2) and ping, p50 / p99;
//  - an evaluation carrying timeout_seconds (10 s; the answer is immediate);
//  - (loop) with timeout_seconds 1: the time to the answer that stopped it;
//  - (dotimes (i 100000) (write-line "0123456789")): 1.1 MB of output, each server's own cap;
//  - memory: RSS of the whole process tree (the server and its children) after the calls;
//  - HTTP: one keep-alive client's evaluate p50, then --clients clients x --per-client calls at
//    once, each on its own connection and MCP session: calls/s, every answer checked.

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <dirent.h>

#include "raw_mcp_client.h"

namespace {
using bench::Clock;
using bench::microsSince;
using bench::PipeServer;
using bench::ServerFailure;
using bench::stats;

struct ServerDescription
{
    std::string label;
    std::string tool;
    std::string expect; // a piece of the answer to (+ 1 2)
    std::string stdioCommand;
    std::string httpCommand; // empty: no HTTP figures
};

struct Settings
{
    int rounds = 2;
    int calls = 1000;
    int warmup = 100;
    int starts = 5;
    int clients = 8;
    int perClient = 500;
    int loops = 3;
    int outputs = 5;
    int limitCalls = 20;
};

// What one round of one server measured: measure key -> value (absent when it failed).
using Figures = std::map<std::string, double>;

struct Measure
{
    const char *key;
    const char *label;
    const char *unit;
    bool hasRatio = true;
};
// The rows of the summary, in order.
const Measure Measures[] = {
    {"load", "load average (1 min) when it started", "", false},
    {"start_init", "start -> initialize response", "ms"},
    {"start_first", "start -> first (+ 1 2) result", "ms"},
    {"stdio_eval_p50", "stdio raw: evaluate (+ 1 2) p50", "us"},
    {"stdio_eval_p99", "stdio raw: evaluate (+ 1 2) p99", "us"},
    {"stdio_ping_p50", "stdio raw: ping p50", "us"},
    {"limit_call_p50", "evaluate with timeout_seconds, p50", "ms"},
    {"loop_stop", "(loop), 1 s limit: answered after", "ms"},
    {"output_p50", "1.1 MB of output, p50", "ms"},
    {"rss_calls", "RSS (process tree) after the calls", "MB"},
    {"rss_output", "RSS (process tree) after the output", "MB"},
    {"http_eval_p50", "HTTP, 1 client: evaluate p50", "us"},
    {"http_calls_per_s", "HTTP, N clients at once", "calls/s"},
    {"rss_http", "RSS (process tree) after HTTP", "MB"},
};

std::vector<std::string> words(const std::string &command)
{
    std::vector<std::string> result;
    std::istringstream in(command);
    for (std::string word; in >> word;)
        result.push_back(word);
    return result;
}

std::string replaceAll(std::string text, const std::string &from, const std::string &to)
{
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// Fresh folders for one server process, removed with it.
class IsolatedFolders
{
public:
    IsolatedFolders()
    {
        char pattern[] = "/tmp/bench-side-by-side-XXXXXX";
        if (!mkdtemp(pattern))
            throw ServerFailure("mkdtemp failed");
        m_root = pattern;
        const std::string uid = std::to_string(getuid());
        for (const char *sub : {"config", "data", "state", "run", "machine/tmp"})
            std::filesystem::create_directories(m_root + "/" + sub);
        std::filesystem::create_directories(m_root + "/machine/run/user/" + uid);
        std::filesystem::permissions(m_root + "/run", std::filesystem::perms::owner_all);
        std::filesystem::permissions(m_root + "/machine/run/user/" + uid, std::filesystem::perms::owner_all);
    }
    IsolatedFolders(const IsolatedFolders &) = delete;
    IsolatedFolders &operator=(const IsolatedFolders &) = delete;
    ~IsolatedFolders()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_root, ignored);
    }
    const std::string &root() const { return m_root; }
    PipeServer::Environment environment() const
    {
        return {{"XDG_CONFIG_HOME", m_root + "/config"},
                {"XDG_DATA_HOME", m_root + "/data"},
                {"XDG_STATE_HOME", m_root + "/state"},
                {"XDG_RUNTIME_DIR", m_root + "/run"},
                {"LISP_DUET_RUNTIME_ROOT", m_root + "/machine"}};
    }

private:
    std::string m_root;
};

// A server process with its own folders; the folders outlive the process.
struct RunningServer
{
    IsolatedFolders folders;
    PipeServer process;

    explicit RunningServer(const std::string &command, const std::string &port = {})
        : process(argv(command, port, folders.root()), folders.environment())
    {
    }
    static std::vector<std::string> argv(const std::string &command, const std::string &port, const std::string &dir)
    {
        std::vector<std::string> result = words(command);
        for (std::string &word : result)
            word = replaceAll(replaceAll(word, "{port}", port), "{dir}", dir);
        return result;
    }
};

// The resident memory of `root` and all its descendants, in MB (Lisp Duet is the app and its
// engine child; a peer may have workers).
double processTreeRssMb(pid_t root)
{
    std::map<pid_t, pid_t> parentOf;
    if (DIR *proc = opendir("/proc")) {
        while (const dirent *entry = readdir(proc)) {
            const pid_t pid = std::atoi(entry->d_name);
            if (pid <= 0)
                continue;
            FILE *stat = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
            if (!stat)
                continue;
            char line[1024] = {};
            const size_t n = std::fread(line, 1, sizeof line - 1, stat);
            std::fclose(stat);
            line[n] = 0;
            // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
            const char *close = std::strrchr(line, ')');
            char state = 0;
            int parent = 0;
            if (close && std::sscanf(close + 1, " %c %d", &state, &parent) == 2)
                parentOf[pid] = parent;
        }
        closedir(proc);
    }
    std::vector<pid_t> tree{root};
    for (size_t i = 0; i < tree.size(); ++i)
        for (const auto &[pid, parent] : parentOf)
            if (parent == tree[i])
                tree.push_back(pid);
    double kb = 0;
    for (pid_t pid : tree) {
        FILE *status = std::fopen(("/proc/" + std::to_string(pid) + "/status").c_str(), "r");
        if (!status)
            continue;
        char line[256];
        while (std::fgets(line, sizeof line, status))
            if (std::strncmp(line, "VmRSS:", 6) == 0)
                kb += std::atof(line + 6);
        std::fclose(status);
    }
    return kb / 1024.0;
}

int freePort()
{
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0
        || getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
        close(fd);
        throw ServerFailure("no free port");
    }
    close(fd);
    return ntohs(address.sin_port);
}

std::string loadAverage()
{
    double load[3] = {-1, -1, -1};
    getloadavg(load, 3);
    char text[64];
    std::snprintf(text, sizeof text, "%.2f %.2f %.2f", load[0], load[1], load[2]);
    return text;
}

std::string shorten(const std::string &text, size_t length = 200)
{
    return text.size() <= length ? text : text.substr(0, length) + "...";
}

// Measures one server for one round; prints as it goes and returns what it measured.
class ServerRun
{
public:
    ServerRun(const ServerDescription &server, const Settings &settings) : m_server(server), m_settings(settings) {}

    Figures run()
    {
        std::printf("-- %s (load average %s)\n", m_server.label.c_str(), loadAverage().c_str());
        double load = 0;
        if (getloadavg(&load, 1) == 1)
            m_figures["load"] = load;
        stage("starts", [this] { measureStarts(); });
        stage("stdio", [this] { measureStdio(); });
        if (!m_server.httpCommand.empty())
            stage("HTTP", [this] { measureHttp(); });
        std::fflush(stdout);
        return m_figures;
    }

private:
    template<typename Body>
    void stage(const char *name, Body body)
    {
        try {
            body();
        } catch (const ServerFailure &failure) {
            std::printf("   %s: FAILED, %s (the figures of this stage are left out)\n", name, failure.what());
        }
        std::fflush(stdout);
    }
    std::string evaluate(long id, const std::string &code, const std::string &extraArguments = {}) const
    {
        return bench::toolCall(id, m_server.tool, code, extraArguments);
    }
    // Throws unless `answer` (to request `id`) is a successful (+ 1 2).
    void checkSum(const std::string &answer) const
    {
        if (answer.find(m_server.expect) == std::string::npos || answer.find("\"isError\":true") != std::string::npos)
            throw ServerFailure("unexpected answer to (+ 1 2): " + shorten(answer));
    }

    void measureStarts()
    {
        std::vector<double> toInitialize, toFirstResult;
        for (int i = 0; i < m_settings.starts; ++i) {
            IsolatedFolders folders;
            const auto start = Clock::now();
            PipeServer server(RunningServer::argv(m_server.stdioCommand, {}, folders.root()), folders.environment());
            server.send(bench::initializeRequest(1));
            server.send(bench::initializedNotification());
            server.send(evaluate(2, "(+ 1 2)"));
            server.response(1, 60000);
            toInitialize.push_back(microsSince(start) / 1000.0);
            const std::string answer = server.response(2, 60000);
            toFirstResult.push_back(microsSince(start) / 1000.0);
            checkSum(answer);
            server.stop();
        }
        m_figures["start_init"] = stats(toInitialize).median;
        m_figures["start_first"] = stats(toFirstResult).median;
        std::printf("   start -> initialize %.1f ms, -> first result %.1f ms (medians of %d)\n", m_figures["start_init"],
                    m_figures["start_first"], m_settings.starts);
    }

    void measureStdio()
    {
        RunningServer server(m_server.stdioCommand);
        PipeServer &pipe = server.process;
        long id = 1;
        pipe.exchange(bench::initializeRequest(int(id)), id);
        ++id;
        pipe.send(bench::initializedNotification());
        for (int i = 0; i < m_settings.warmup; ++i, ++id)
            checkSum(pipe.exchange(evaluate(id, "(+ 1 2)"), id));

        // The everyday call, and a ping for scale (no Lisp work).
        std::vector<double> evaluations, pings;
        std::vector<std::string> answers(size_t(m_settings.calls));
        for (int i = 0; i < m_settings.calls; ++i, ++id) {
            const auto start = Clock::now();
            pipe.send(evaluate(id, "(+ 1 2)"));
            answers[size_t(i)] = pipe.response(id);
            evaluations.push_back(microsSince(start));
        }
        for (const std::string &answer : answers) // checked after the clock, so the check is not timed
            checkSum(answer);
        for (int i = 0; i < m_settings.calls; ++i, ++id) {
            const auto start = Clock::now();
            const std::string answer = pipe.exchange(bench::pingRequest(id), id);
            pings.push_back(microsSince(start));
            if (answer.find("\"result\"") == std::string::npos)
                throw ServerFailure("unexpected answer to ping: " + shorten(answer));
        }
        const bench::Stats evaluationStats = stats(evaluations), pingStats = stats(pings);
        m_figures["stdio_eval_p50"] = evaluationStats.median;
        m_figures["stdio_eval_p99"] = evaluationStats.p99;
        m_figures["stdio_ping_p50"] = pingStats.median;
        std::printf("   stdio evaluate p50 %.0f us, p99 %.0f us, mean %.0f us; ping p50 %.1f us (%d calls each)\n", evaluationStats.median,
                    evaluationStats.p99, evaluationStats.mean, pingStats.median, m_settings.calls);
        m_figures["rss_calls"] = processTreeRssMb(pipe.pid());

        // A call that carries a time limit it does not reach: what the limit itself costs.
        std::vector<double> limited;
        for (int i = -2; i < m_settings.limitCalls; ++i, ++id) {
            const auto start = Clock::now();
            const std::string answer = pipe.exchange(evaluate(id, "(+ 1 2)", R"(,"timeout_seconds":10)"), id);
            if (i >= 0)
                limited.push_back(microsSince(start) / 1000.0);
            checkSum(answer);
        }
        m_figures["limit_call_p50"] = stats(limited).median;
        std::printf("   evaluate with timeout_seconds 10: p50 %.2f ms (%d calls)\n", m_figures["limit_call_p50"], m_settings.limitCalls);

        // (loop) under a 1 s limit: when does the answer come, and does the server still work.
        std::vector<double> stops;
        std::string stopAnswer;
        for (int i = 0; i < m_settings.loops; ++i) {
            const auto start = Clock::now();
            stopAnswer = pipe.exchange(evaluate(id, "(loop)", R"(,"timeout_seconds":1)"), id, 60000);
            stops.push_back(microsSince(start) / 1000.0);
            ++id;
            checkSum(pipe.exchange(evaluate(id, "(+ 1 2)"), id));
            ++id;
        }
        m_figures["loop_stop"] = stats(stops).median;
        std::printf("   (loop) with timeout_seconds 1: answered after %.0f ms (median of %d): %s\n", m_figures["loop_stop"],
                    m_settings.loops, shorten(stopAnswer, 160).c_str());

        // 1.1 MB of output, each server with its own default cap on what it sends back.
        const std::string outputLoop = R"((dotimes (i 100000) (write-line \"0123456789\")))";
        std::vector<double> outputs;
        size_t answerBytes = 0;
        for (int i = -1; i < m_settings.outputs; ++i, ++id) {
            const auto start = Clock::now();
            const std::string answer = pipe.exchange(evaluate(id, outputLoop), id, 60000);
            if (i >= 0)
                outputs.push_back(microsSince(start) / 1000.0);
            if (answer.find("0123456789") == std::string::npos || answer.find("\"isError\":true") != std::string::npos)
                throw ServerFailure("unexpected answer to the output loop: " + shorten(answer));
            answerBytes = answer.size();
        }
        m_figures["output_p50"] = stats(outputs).median;
        m_figures["rss_output"] = processTreeRssMb(pipe.pid());
        std::printf("   1.1 MB of output: p50 %.1f ms (%d runs; the answer is %zu bytes)\n", m_figures["output_p50"], m_settings.outputs,
                    answerBytes);
        std::printf("   RSS of the process tree: %.1f MB after the calls, %.1f MB after the output\n", m_figures["rss_calls"],
                    m_figures["rss_output"]);
        pipe.stop();
    }

    void measureHttp()
    {
        const int port = freePort();
        RunningServer server(m_server.httpCommand, std::to_string(port));
        // Wait until it accepts connections (a peer that loads its code first may take seconds).
        const auto start = Clock::now();
        while (!bench::Connection::http(port).ok()) {
            if (server.process.exited())
                throw ServerFailure("the HTTP server exited before it listened");
            if (microsSince(start) > 60e6)
                throw ServerFailure("the HTTP server did not listen within 60 s");
            usleep(20000);
        }

        {
            bench::Connection client = bench::Connection::http(port);
            if (!client.initialize("bench"))
                throw ServerFailure("HTTP initialize failed");
            long id = 1;
            for (int i = 0; i < m_settings.warmup; ++i, ++id)
                checkSum(client.exchange(evaluate(id, "(+ 1 2)")));
            std::vector<double> evaluations;
            for (int i = 0; i < m_settings.perClient; ++i, ++id) {
                const auto callStart = Clock::now();
                const std::string answer = client.exchange(evaluate(id, "(+ 1 2)"));
                evaluations.push_back(microsSince(callStart));
                checkSum(answer);
            }
            m_figures["http_eval_p50"] = stats(evaluations).median;
            std::printf("   HTTP, 1 keep-alive client: evaluate p50 %.0f us, p99 %.0f us (%d calls)\n", m_figures["http_eval_p50"],
                        stats(evaluations).p99, m_settings.perClient);
        }

        std::atomic<long> answered{0}, wrong{0}, failedClients{0};
        std::string firstWrong;
        std::atomic_flag firstWrongTaken;
        const auto concurrentStart = Clock::now();
        std::vector<std::thread> threads;
        for (int k = 0; k < m_settings.clients; ++k) {
            threads.emplace_back([&, k] {
                bench::Connection client = bench::Connection::http(port);
                if (!client.ok() || !client.initialize("bench-" + std::to_string(k))) {
                    ++failedClients;
                    return;
                }
                for (int i = 0; i < m_settings.perClient; ++i) {
                    const long id = 10000 + i;
                    const std::string answer = client.exchange(evaluate(id, "(+ 1 2)"));
                    if (answer.find("\"id\":" + std::to_string(id)) != std::string::npos && answer.find(m_server.expect) != std::string::npos)
                        ++answered;
                    else {
                        ++wrong;
                        if (!firstWrongTaken.test_and_set())
                            firstWrong = answer;
                    }
                }
            });
        }
        for (std::thread &thread : threads)
            thread.join();
        const double seconds = microsSince(concurrentStart) / 1e6;
        std::printf("   HTTP, %d clients x %d calls at once: %ld answered, %ld wrong or lost, %ld clients failed, %.2f s (%.0f calls/s)\n",
                    m_settings.clients, m_settings.perClient, answered.load(), wrong.load(), failedClients.load(), seconds,
                    double(answered) / seconds);
        if (wrong > 0)
            std::printf("   first wrong answer: %s\n", shorten(firstWrong).c_str());
        if (wrong == 0 && failedClients == 0)
            m_figures["http_calls_per_s"] = double(answered) / seconds;
        else
            std::printf("   (calls/s left out of the summary: not every call was answered right)\n");
        m_figures["rss_http"] = processTreeRssMb(server.process.pid());
        std::printf("   RSS of the HTTP server's process tree after the clients: %.1f MB\n", m_figures["rss_http"]);
        server.process.stop(0);
    }

    const ServerDescription &m_server;
    const Settings &m_settings;
    Figures m_figures;
};

std::string formatValue(const Figures &figures, const char *key)
{
    const auto found = figures.find(key);
    if (found == figures.end())
        return "-";
    char text[32];
    const double value = found->second;
    std::snprintf(text, sizeof text, value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value);
    return text;
}

std::string formatRatio(const Figures &a, const Figures &b, const char *key)
{
    const auto x = a.find(key), y = b.find(key);
    if (x == a.end() || y == b.end() || y->second <= 0)
        return "-";
    char text[32];
    const double ratio = x->second / y->second;
    std::snprintf(text, sizeof text, ratio < 0.1 ? "%.3f" : "%.2f", ratio);
    return text;
}

void printSummary(const std::vector<ServerDescription> &servers, const std::vector<std::vector<Figures>> &rounds, const Settings &settings)
{
    const bool ratios = servers.size() == 2;
    std::printf("\nSummary (%d round%s%s", settings.rounds, settings.rounds == 1 ? "" : "s", ratios ? ", servers alternated" : "");
    if (ratios)
        std::printf("; ratio = %s / %s: below 1 is %s ahead, except calls/s where above 1 is", servers[0].label.c_str(),
                    servers[1].label.c_str(), servers[0].label.c_str());
    std::printf(")\n\n%-40s %-8s", "measure", "unit");
    for (size_t r = 0; r < rounds.size(); ++r) {
        for (const ServerDescription &server : servers)
            std::printf(" %14s", (server.label.substr(0, 10) + " r" + std::to_string(r + 1)).c_str());
        if (ratios)
            std::printf(" %9s", ("ratio r" + std::to_string(r + 1)).c_str());
    }
    std::printf("\n");
    for (const Measure &measure : Measures) {
        std::string label = measure.label;
        if (std::strcmp(measure.key, "http_calls_per_s") == 0)
            label = "HTTP, " + std::to_string(settings.clients) + " clients x " + std::to_string(settings.perClient) + " calls";
        std::printf("%-40s %-8s", label.c_str(), measure.unit);
        for (const std::vector<Figures> &round : rounds) {
            for (const Figures &figures : round)
                std::printf(" %14s", formatValue(figures, measure.key).c_str());
            if (ratios)
                std::printf(" %9s", measure.hasRatio ? formatRatio(round[0], round[1], measure.key).c_str() : "");
        }
        std::printf("\n");
    }
}

[[noreturn]] void usage(const char *message)
{
    std::fprintf(stderr,
                 "%s\nusage: bench_side_by_side --server LABEL --tool NAME --expect TEXT --stdio COMMAND [--http COMMAND]\n"
                 "                          [--server ...] [--rounds 2] [--calls 1000] [--warmup 100] [--starts 5]\n"
                 "                          [--clients 8] [--per-client 500] [--loops 3] [--outputs 5] [--limit-calls 20]\n",
                 message);
    std::exit(2);
}
} // namespace

int main(int argc, char **argv)
{
    std::vector<ServerDescription> servers;
    Settings settings;
    const std::map<std::string, int *> counts{{"--rounds", &settings.rounds},         {"--calls", &settings.calls},
                                              {"--warmup", &settings.warmup},         {"--starts", &settings.starts},
                                              {"--clients", &settings.clients},       {"--per-client", &settings.perClient},
                                              {"--loops", &settings.loops},           {"--outputs", &settings.outputs},
                                              {"--limit-calls", &settings.limitCalls}};
    for (int i = 1; i < argc; ++i) {
        const std::string option = argv[i];
        if (i + 1 >= argc)
            usage(("missing a value after " + option).c_str());
        const std::string value = argv[++i];
        if (option == "--server")
            servers.emplace_back().label = value;
        else if (const auto count = counts.find(option); count != counts.end())
            *count->second = std::max(1, std::atoi(value.c_str()));
        else if (servers.empty())
            usage((option + " before any --server").c_str());
        else if (option == "--tool")
            servers.back().tool = value;
        else if (option == "--expect")
            servers.back().expect = value;
        else if (option == "--stdio")
            servers.back().stdioCommand = value;
        else if (option == "--http")
            servers.back().httpCommand = value;
        else
            usage(("unknown option " + option).c_str());
    }
    if (servers.empty() || servers.size() > 2)
        usage("one or two servers, please");
    for (const ServerDescription &server : servers)
        if (server.tool.empty() || server.expect.empty() || server.stdioCommand.empty())
            usage(("--tool, --expect and --stdio are needed for " + server.label).c_str());
    signal(SIGPIPE, SIG_IGN);

    std::printf("side-by-side benchmark: %d rounds, %ld CPUs, load average %s at the start\n", settings.rounds,
                sysconf(_SC_NPROCESSORS_ONLN), loadAverage().c_str());
    for (const ServerDescription &server : servers)
        std::printf("  %s: %s%s%s\n", server.label.c_str(), server.stdioCommand.c_str(), server.httpCommand.empty() ? "" : " | HTTP: ",
                    server.httpCommand.c_str());
    std::vector<std::vector<Figures>> rounds;
    for (int round = 1; round <= settings.rounds; ++round) {
        std::printf("\nround %d\n", round);
        std::vector<Figures> figures;
        for (const ServerDescription &server : servers)
            figures.push_back(ServerRun(server, settings).run());
        rounds.push_back(std::move(figures));
    }
    printSummary(servers, rounds, settings);
    std::printf("\nload average %s at the end\n", loadAverage().c_str());
    return 0;
}

// Benchmark (not a test): the figures of issue 41's resource points, engine alone, each beside
// a second engine (--engine-b, e.g. the main checkout's) in alternation, A B A B, with the load
// average beside every figure:
//   - list-definitions with 10,000 definitions loaded from one file (request to reply);
//   - 10,000 definitions evaluated (the cost of the definition hooks on the worker);
//   - a deftype while 2,000 native definitions exist (the cost of finding those that took the
//     type in);
//   - engine RSS at start, after a 16 MiB form, after one (si:gc t).
//
//   bench_kernel_limits [--engine PATH] [--engine-b PATH] [--runs 3]

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "raw_mcp_client.h"

namespace {
using bench::Clock;
using bench::microsSince;
using bench::PipeServer;
using bench::ServerFailure;
using bench::jsonEscape;
using bench::loadAverage;


long residentKiB(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

class Engine
{
public:
    explicit Engine(const std::string &path) : m_process({path})
    {
        for (;;)
            if (m_process.readLine(60000).find("\"event\":\"ready\"") != std::string::npos)
                break;
    }
    std::string request(const std::string &fields, int timeoutMs = 120000)
    {
        ++m_id;
        m_process.send("{\"id\":" + std::to_string(m_id) + "," + fields + "}");
        return m_process.response(m_id, timeoutMs);
    }
    std::string eval(const std::string &code, int timeoutMs = 120000)
    {
        return request("\"op\":\"eval\",\"code\":\"" + jsonEscape(code) + "\"", timeoutMs);
    }
    void settle() { request("\"op\":\"native-settle\",\"timeout_ms\":300000", 400000); }
    pid_t pid() const { return m_process.pid(); }

private:
    PipeServer m_process;
    long m_id = 0;
};

std::string writeDefinitions(int count)
{
    const std::string file = "/tmp/bench-kernel-limits-" + std::to_string(getpid()) + ".lisp";
    std::ofstream out(file);
    for (int i = 0; i < count; ++i)
        out << ";; number " << i << "\n(defun many-" << i << " (x)\n  \"Adds " << i << ".\"\n  (+ x " << i << "))\n\n";
    return file;
}

struct Figures
{
    std::vector<double> listMs, defineMs, deftypeMs;
    std::vector<long> rssStart, rssForm, rssGc;
};

void measure(const std::string &path, const std::string &file, Figures &f)
{
    {
        Engine engine(path);
        engine.eval("(load \"" + file + "\")");
        const auto start = Clock::now();
        const std::string listed = engine.request("\"op\":\"definitions\"", 120000);
        f.listMs.push_back(microsSince(start) / 1000);
        if (listed.find("\"status\":\"ok\"") == std::string::npos)
            std::printf("    (the listing failed: %.200s)\n", listed.c_str());
    }
    {
        Engine engine(path);
        const auto start = Clock::now();
        engine.eval("(dotimes (i 10000) (eval `(defun ,(intern (format nil \"EV-~D\" i)) (x) (+ x ,i))))");
        f.defineMs.push_back(microsSince(start) / 1000);
    }
    {
        Engine engine(path);
        engine.eval("(deftype bench-type () 'integer) (defun typed-0 (x) (typep x 'bench-type))"
                    "(dotimes (i 2000) (eval `(defun ,(intern (format nil \"PLAIN-~D\" i)) (x) (list x ,i))))");
        engine.settle();
        const auto start = Clock::now();
        engine.eval("(deftype bench-type () 'string)");
        f.deftypeMs.push_back(microsSince(start) / 1000);
    }
    {
        Engine engine(path);
        engine.eval("(si:gc t)");
        f.rssStart.push_back(residentKiB(engine.pid()));
        std::string form = "(length '(";
        for (int i = 0; i < 2400000; ++i)
            form += std::to_string(i) + ' ';
        form += "))";
        engine.eval(form);
        f.rssForm.push_back(residentKiB(engine.pid()));
        engine.eval("(si:gc t)");
        f.rssGc.push_back(residentKiB(engine.pid()));
    }
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}
long median(std::vector<long> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    std::string a = DUET_BIN_DIR "/lisp-duet-engine";
    std::string b;
    int runs = 3;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--engine" && i + 1 < argc)
            a = argv[++i];
        else if (arg == "--engine-b" && i + 1 < argc)
            b = argv[++i];
        else if (arg == "--runs" && i + 1 < argc)
            runs = std::atoi(argv[++i]);
    }
    const std::string file = writeDefinitions(10000);
    std::vector<std::pair<std::string, std::string>> engines{{"A", a}};
    if (!b.empty())
        engines.push_back({"B", b});
    std::map<std::string, Figures> figures;
    std::printf("Issue 41's resource points, engine alone; A %s%s%s\n", a.c_str(), b.empty() ? "" : ", B ", b.c_str());
    try {
        for (int run = 0; run < runs; ++run)
            for (const auto &[name, path] : engines) {
                measure(path, file, figures[name]);
                std::printf("  run %d %s done (load average %s)\n", run + 1, name.c_str(), loadAverage().c_str());
            }
    } catch (const ServerFailure &failure) {
        std::printf("failed: %s\n", failure.what());
    }
    std::remove(file.c_str());
    std::printf("\nMedians of %d runs (load average %s)\n", runs, loadAverage().c_str());
    std::printf("%-4s %22s %22s %26s %12s %14s %16s\n", "", "list 10,000 (ms)", "define 10,000 (ms)",
                "deftype, 2,000 native (ms)", "RSS start", "RSS 16 MiB", "RSS (si:gc t)");
    for (const auto &[name, f] : figures)
        std::printf("%-4s %22.0f %22.0f %26.1f %9ld KiB %11ld KiB %13ld KiB\n", name.c_str(), median(f.listMs), median(f.defineMs),
                    median(f.deftypeMs), median(f.rssStart), median(f.rssForm), median(f.rssGc));
    return 0;
}

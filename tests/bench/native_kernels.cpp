// Benchmark (not a test): the session's definitions at native speed (issue 30). Seven small
// kernels are defined in Lisp Duet through MCP (evaluate-lisp over stdio) and called once the
// background compiler has settled, beside the same Lisp Duet with native compilation off (as
// typed: ECL's bytecodes), cl-mcp on SBCL through MCP when it is set up as side-by-side.sh
// sets it up (CL_MCP_HOME, default /work/peer), plain ECL with the definitions compiled by
// COMPILE-FILE, and plain SBCL. Then, against the engine alone: the kernels at the debugger's
// (debug 3) against (debug 0), the time from a definition to its native version, the (+ 1 2)
// round trip and the idle CPU with native compilation on and off. It prints the load average
// beside every section; see README.md.
//
//   bench_native_kernels [--app PATH/lisp-duet] [--engine PATH/lisp-duet-engine] [--runs 3]
//                        [--calls 2000] [--idle-seconds 10] [--probes 10] [--no-plain]
//                        [--no-peer]

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
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

// The kernels of issue 30's table, as forms any Common Lisp runs.
const char *const Definitions = R"LISP(
(defun fib (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
(defun tak (x y z) (if (not (< y x)) z (tak (tak (1- x) y z) (tak (1- y) z x) (tak (1- z) x y))))
(defun tak-10 () (let ((r 0)) (dotimes (i 10 r) (setf r (tak 18 12 6)))))
(defun count-loop (n) (let ((s 0)) (dotimes (i n s) (setf s (logand (+ s i) #xffff)))))
(defun format-keys (n)
  (let ((table (make-hash-table :test 'equal)))
    (dotimes (i n (hash-table-count table)) (setf (gethash (format nil "k~D" i) table) i))))
(defun sort-fixnums (n)
  (let ((v (make-array n)))
    (dotimes (i n) (setf (aref v i) (random 1000000)))
    (length (sort v #'<))))
(defclass square () ((side :initarg :side :reader side)))
(defclass circle () ((radius :initarg :radius :reader radius)))
(defclass triangle () ((base :initarg :base :reader base) (height :initarg :height :reader height)))
(defgeneric area (shape))
(defmethod area ((s square)) (* (side s) (side s)))
(defmethod area ((c circle)) (* 3 (radius c) (radius c)))
(defmethod area ((tr triangle)) (floor (* (base tr) (height tr)) 2))
(defun total-area (n)
  (let ((shapes (vector (make-instance 'square :side 2) (make-instance 'circle :radius 1)
                        (make-instance 'triangle :base 2 :height 3)))
        (sum 0))
    (dotimes (i n sum) (incf sum (area (svref shapes (mod i 3)))))))
(defun cons-list (n) (let ((l '())) (dotimes (i n (length l)) (push i l))))
)LISP";

struct Kernel
{
    const char *label;
    const char *call;
    const char *expect; // the printed value
};
const std::vector<Kernel> Kernels = {
    {"(fib 27)", "(fib 27)", "196418"},
    {"(tak 18 12 6) x10", "(tak-10)", "7"},
    {"3,000,000-step dotimes", "(count-loop 3000000)", "58528"},
    {"200,000 format keys, equal hash", "(format-keys 200000)", "200000"},
    {"sort 300,000 random fixnums", "(sort-fixnums 300000)", "300000"},
    {"generic function, 1,000,000 calls", "(total-area 1000000)", "3333334"},
    {"1,000,000 conses", "(cons-list 1000000)", "1000000"},
};

struct Settings
{
    std::string app = DUET_BIN_DIR "/lisp-duet";
    std::string engine = DUET_BIN_DIR "/lisp-duet-engine";
    int runs = 3;
    int calls = 2000;
    int idleSeconds = 10;
    int probes = 10;
    bool plain = true;
    bool peer = true;
};

std::string peerCommand()
{
    const char *home = std::getenv("CL_MCP_HOME");
    const std::string command = std::string(home && *home ? home : "/work/peer") + "/bin/cl-mcp-stdio";
    return access(command.c_str(), X_OK) == 0 ? command : std::string();
}


double median(std::vector<double> samples)
{
    return bench::stats(std::move(samples)).median;
}

// An MCP server over stdio: kernel label -> median ms per call; "settle" -> ms to settle.
struct McpServer
{
    std::vector<std::string> argv;
    PipeServer::Environment environment;
    std::string tool;         // its evaluation tool
    std::string answerPrefix; // what comes before a printed value in its answer
    std::string settleCode;   // evaluated after the definitions, before the calls (or empty)
};

// One MCP server with the kernels defined (and, for Lisp Duet, compiled).
class McpSession
{
public:
    explicit McpSession(const McpServer &server) : m_server(server), m_app(server.argv, server.environment)
    {
        m_app.exchange(bench::initializeRequest(int(m_id)), m_id, 900000); // a first start may compile
        m_app.send(bench::initializedNotification());
        const std::string defined = evaluate(Definitions);
        if (defined.find("CONS-LIST") == std::string::npos)
            throw ServerFailure("the definitions failed: " + defined.substr(0, 400));
        const auto settleStart = Clock::now();
        if (!server.settleCode.empty())
            evaluate(server.settleCode);
        settleMs = microsSince(settleStart) / 1000.0;
    }
    // Wall ms of one call of the kernel, its answer checked.
    double call(const Kernel &kernel)
    {
        const auto start = Clock::now();
        const std::string answer = evaluate(kernel.call);
        const double ms = microsSince(start) / 1000.0;
        if (answer.find(m_server.answerPrefix + kernel.expect) == std::string::npos)
            throw ServerFailure(std::string(kernel.label) + " answered " + answer.substr(0, 300));
        return ms;
    }
    double settleMs = 0;

private:
    std::string evaluate(const std::string &code)
    {
        ++m_id;
        // No timeout_seconds: cl-mcp then polls its evaluation thread every 50 ms (its
        // %REPL-EVAL-WITH-TIMEOUT), which would be all that its figures measure.
        return m_app.exchange(bench::toolCall(m_id, m_server.tool, jsonEscape(code)), m_id, 600000);
    }
    McpServer m_server;
    PipeServer m_app;
    long m_id = 1;
};

// A plain Lisp with the kernels defined (ECL: compiled with COMPILE-FILE and loaded; SBCL:
// loaded, which compiles), answering on its stdin: a kernel's index in, the wall ms of one
// call out, timed with a clock finer than either's GET-INTERNAL-REAL-TIME (ECL counts
// milliseconds, SBCL 2.2.9 steps by 4 ms).
class PlainLisp
{
public:
    PlainLisp(const std::string &lisp, const std::string &directory)
        : m_process(lisp == "ecl" ? std::vector<std::string>{"ecl", "--norc", "--shell", write(lisp, directory)}
                                  : std::vector<std::string>{"sbcl", "--script", write(lisp, directory)})
    {
        if (m_process.readLine(600000) != "READY")
            throw ServerFailure(lisp + " did not load the kernels");
    }
    double call(size_t index)
    {
        m_process.send(std::to_string(index));
        return std::atof(m_process.readLine(600000).c_str());
    }

private:
    static std::string write(const std::string &lisp, const std::string &dir)
    {
        std::ofstream(dir + "/kernels.lisp") << Definitions;
        std::ofstream(dir + "/clock.lisp")
            << "(defun now-ms () #+ecl (ffi:c-inline () () :double \"({struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);"
               " t.tv_sec * 1e3 + t.tv_nsec / 1e6;})\" :one-liner t)\n"
               " #+sbcl (multiple-value-bind (s ns) (sb-unix::clock-gettime 1) (+ (* s 1000d0) (/ ns 1d6))))\n";
        std::ostringstream harness;
        if (lisp == "ecl")
            harness << "(let ((*load-verbose* nil) (*compile-verbose* nil)) (require :cmp)"
                    << " (load (compile-file \"" << dir << "/kernels.lisp\" :output-file \"" << dir << "/kernels.fas\"))"
                    << " (load (compile-file \"" << dir << "/clock.lisp\" :output-file \"" << dir << "/clock.fas\")))\n";
        else
            harness << "(load \"" << dir << "/kernels.lisp\") (load \"" << dir << "/clock.lisp\")\n";
        harness << "(defparameter *kernels* (vector";
        for (const Kernel &kernel : Kernels)
            harness << " (lambda () " << kernel.call << ")";
        harness << "))\n(format t \"READY~%\") (finish-output)\n"
                << "(loop for line = (read-line *standard-input* nil) while line\n"
                << "      do (let ((start (now-ms))) (funcall (svref *kernels* (parse-integer line)))\n"
                << "           (format t \"~,3F~%\" (- (now-ms) start)) (finish-output)))\n";
        const std::string file = dir + "/harness-" + lisp + ".lisp";
        std::ofstream(file) << harness.str();
        return file;
    }
    PipeServer m_process;
};

// Everything side by side: for each kernel and run, one call to each in turn, so that a busy
// moment of a shared machine weighs on all of them. Label -> kernel label -> median ms.
std::map<std::string, std::map<std::string, double>> measureAll(const Settings &settings,
                                                               const std::vector<std::pair<std::string, McpServer>> &servers,
                                                               const std::vector<std::string> &plainLisps)
{
    char directory[] = "/tmp/lisp-duet-bench-XXXXXX";
    if (!mkdtemp(directory))
        throw ServerFailure("mkdtemp failed");
    std::vector<std::string> labels;
    std::vector<std::function<double(size_t)>> callers;
    std::vector<std::unique_ptr<McpSession>> sessions;
    std::vector<std::unique_ptr<PlainLisp>> plains;
    std::map<std::string, std::map<std::string, double>> figures;
    for (const auto &[label, server] : servers) {
        sessions.push_back(std::make_unique<McpSession>(server));
        figures[label]["settle"] = sessions.back()->settleMs;
        labels.push_back(label);
        callers.push_back([session = sessions.back().get()](size_t i) { return session->call(Kernels[i]); });
    }
    for (const std::string &lisp : plainLisps) {
        plains.push_back(std::make_unique<PlainLisp>(lisp, directory));
        labels.push_back(lisp);
        callers.push_back([plain = plains.back().get()](size_t i) { return plain->call(i); });
    }
    for (size_t k = 0; k < Kernels.size(); ++k) {
        std::vector<std::vector<double>> samples(callers.size());
        for (int run = 0; run < settings.runs; ++run)
            for (size_t i = 0; i < callers.size(); ++i)
                samples[i].push_back(callers[i](k));
        for (size_t i = 0; i < callers.size(); ++i)
            figures[labels[i]][Kernels[k].label] = median(samples[i]);
    }
    std::system((std::string("rm -rf ") + directory).c_str());
    return figures;
}

// A plain Lisp running a file that defines the kernels (ECL: compiled with COMPILE-FILE and
// loaded; SBCL: loaded, which compiles) and prints "KERNEL <index> <median ms>" per kernel.

// The engine alone, speaking its JSON lines.
class Engine
{
public:
    Engine(const Settings &settings, bool native)
        : m_process({settings.engine}, native ? PipeServer::Environment{} : PipeServer::Environment{{"LISP_DUET_NATIVE", "0"}})
    {
        const std::string ready = m_process.readLine();
        if (ready.find("\"ready\"") == std::string::npos)
            throw ServerFailure("the engine did not start: " + ready);
    }
    std::string eval(const std::string &code, int timeoutMs = 120000)
    {
        ++m_id;
        return m_process.exchange(R"({"id":)" + std::to_string(m_id) + R"(,"op":"eval","code":")" + jsonEscape(code) + "\"}", m_id, timeoutMs);
    }
    std::string settle()
    {
        ++m_id;
        return m_process.exchange(R"({"id":)" + std::to_string(m_id) + R"(,"op":"native-settle"})", m_id, 180000);
    }
    // Sends a definition and waits for the "native" event naming it native: (wall ms, after_ms).
    std::pair<double, double> defineAndWaitNative(const std::string &code, const std::string &name)
    {
        ++m_id;
        const auto start = Clock::now();
        m_process.send(R"({"id":)" + std::to_string(m_id) + R"(,"op":"eval","code":")" + jsonEscape(code) + "\"}");
        const std::string wanted = "\"name\":\"" + name + "\"";
        for (;;) {
            const std::string line = m_process.readLine(120000);
            if (line.rfind("{\"event\":\"native\"", 0) != 0)
                continue;
            const size_t at = line.find(wanted);
            if (at == std::string::npos)
                continue;
            const size_t state = line.find("\"state\":\"", at);
            if (state == std::string::npos)
                continue;
            const std::string value = line.substr(state + 9, line.find('"', state + 9) - state - 9);
            if (value == "compiling")
                continue;
            if (value != "native")
                throw ServerFailure(name + " ended " + value + ": " + line.substr(0, 400));
            const size_t after = line.find("\"after_ms\":", at);
            return {microsSince(start) / 1000.0, after == std::string::npos ? -1 : std::atof(line.c_str() + after + 11)};
        }
    }
    // CPU seconds the process used so far (utime + stime).
    double cpuSeconds() const
    {
        std::ifstream in("/proc/" + std::to_string(m_process.pid()) + "/stat");
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::istringstream fields(text.substr(text.rfind(')') + 2));
        std::string field;
        double utime = 0, stime = 0;
        for (int i = 3; i <= 15 && fields >> field; ++i) {
            if (i == 14) utime = std::atof(field.c_str());
            if (i == 15) stime = std::atof(field.c_str());
        }
        return (utime + stime) / double(sysconf(_SC_CLK_TCK));
    }

private:
    PipeServer m_process;
    long m_id = 0;
};

// The debugger's price: the kernels with the definitions compiled at (debug 3) (the default:
// frames keep their locals) and, in a second engine, after (declaim (optimize (debug 0))),
// calls alternated between the two, wall time of the engine's eval round trip.
void measureDebugPolicy(const Settings &settings)
{
    std::printf("\nThe debugger's price, engine alone (load average %s)\n", loadAverage().c_str());
    Engine debug3(settings, true), debug0(settings, true);
    debug0.eval("(declaim (optimize (debug 0)))");
    debug3.eval(Definitions);
    debug0.eval(Definitions);
    debug3.settle();
    debug0.settle();
    std::printf("| kernel | (debug 3), default | (debug 0) | ratio |\n|---|---|---|---|\n");
    std::vector<double> ratios;
    for (const Kernel &kernel : Kernels) {
        std::vector<double> three, zero;
        for (int run = 0; run < std::max(3, settings.runs); ++run)
            for (Engine *engine : {&debug3, &debug0}) {
                const auto start = Clock::now();
                engine->eval(kernel.call);
                (engine == &debug3 ? three : zero).push_back(microsSince(start) / 1000.0);
            }
        const double a = median(three), b = median(zero);
        ratios.push_back(a / b);
        std::printf("| %s | %.1f | %.1f | %.2fx |\n", kernel.label, a, b, a / b);
    }
    double sum = 0;
    for (double r : ratios)
        sum += std::log(r);
    std::printf("| geometric mean | | | %.2fx |\n", std::exp(sum / double(ratios.size())));
}

void measureEngine(const Settings &settings)
{
    std::printf("\nThe engine alone (load average %s)\n", loadAverage().c_str());
    {
        Engine engine(settings, true);
        engine.eval("(+ 1 2)");
        std::vector<double> wall, after;
        for (int i = 0; i < settings.probes; ++i) {
            const std::string name = "PROBE-" + std::to_string(i);
            const auto [ms, engineMs] = engine.defineAndWaitNative("(defun probe-" + std::to_string(i) + " (n) (let ((s 0)) (dotimes (k n s) (incf s (* k " + std::to_string(i) + ")))))", name);
            wall.push_back(ms);
            after.push_back(engineMs);
        }
        const auto w = bench::stats(wall), a = bench::stats(after);
        std::printf("  definition -> native version, one defun at a time (%d): median %.0f ms (engine's after_ms %.0f), max %.0f ms; the first loads ECL's compiler: %.0f ms\n",
                    settings.probes, w.median, a.median, *std::max_element(wall.begin(), wall.end()), wall.front());
    }
    // (+ 1 2) round trips, native on and off, alternated.
    Engine on(settings, true), off(settings, false);
    on.eval(Definitions);
    off.eval(Definitions);
    on.settle();
    std::vector<double> onSamples, offSamples;
    for (int round = 0; round < 4; ++round)
        for (Engine *engine : {&on, &off})
            for (int i = 0; i < settings.calls / 4; ++i) {
                const auto start = Clock::now();
                const std::string answer = engine->eval("(+ 1 2)");
                (engine == &on ? onSamples : offSamples).push_back(microsSince(start));
                if (answer.find("[\"3\"]") == std::string::npos)
                    throw ServerFailure("(+ 1 2) answered " + answer);
            }
    const auto a = bench::stats(onSamples), b = bench::stats(offSamples);
    std::printf("  (+ 1 2) round trip, %d calls each, alternated: native on %.1f us (p99 %.1f), off %.1f us (p99 %.1f)\n",
                settings.calls, a.median, a.p99, b.median, b.p99);
    const double onBefore = on.cpuSeconds(), offBefore = off.cpuSeconds();
    usleep(useconds_t(settings.idleSeconds) * 1000000u);
    std::printf("  idle CPU over %d s after the definitions settled: native on %.2f %%, off %.2f %% (load average %s)\n",
                settings.idleSeconds, 100.0 * (on.cpuSeconds() - onBefore) / settings.idleSeconds,
                100.0 * (off.cpuSeconds() - offBefore) / settings.idleSeconds, loadAverage().c_str());
}

std::string cell(const std::map<std::string, double> &figures, const std::string &key)
{
    const auto it = figures.find(key);
    if (it == figures.end())
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, it->second < 10 ? "%.1f" : "%.0f", it->second);
    return text;
}

std::string ratio(const std::map<std::string, double> &a, const std::map<std::string, double> &b, const std::string &key)
{
    if (!a.count(key) || !b.count(key) || b.at(key) <= 0)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.2fx", a.at(key) / b.at(key));
    return text;
}

std::string geometricMean(const std::map<std::string, double> &a, const std::map<std::string, double> &b)
{
    double sum = 0;
    int n = 0;
    for (const Kernel &kernel : Kernels)
        if (a.count(kernel.label) && b.count(kernel.label) && b.at(kernel.label) > 0) {
            sum += std::log(a.at(kernel.label) / b.at(kernel.label));
            ++n;
        }
    if (!n)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.2fx", std::exp(sum / n));
    return text;
}

} // namespace

int main(int argc, char **argv)
{
    Settings settings;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (arg == "--app") settings.app = next();
        else if (arg == "--engine") settings.engine = next();
        else if (arg == "--runs") settings.runs = std::atoi(next().c_str());
        else if (arg == "--calls") settings.calls = std::atoi(next().c_str());
        else if (arg == "--idle-seconds") settings.idleSeconds = std::atoi(next().c_str());
        else if (arg == "--probes") settings.probes = std::atoi(next().c_str());
        else if (arg == "--no-plain") settings.plain = false;
        else if (arg == "--no-peer") settings.peer = false;
        else {
            std::fprintf(stderr, "unknown option %s\n", arg.c_str());
            return 2;
        }
    }
    try {
        std::printf("Kernels, wall ms per call (median of %d)\n", settings.runs);
        const McpServer duet{{settings.app, "--headless", "--stdio", "--no-journal"}, {{"LISP_DUET_ENGINE", settings.engine}},
                             "evaluate-lisp", "=> ", "(lisp-duet.kernel::wait-until-native-settled 120)"};
        McpServer duetTyped = duet;
        duetTyped.environment.push_back({"LISP_DUET_NATIVE", "0"});
        duetTyped.settleCode.clear();
        std::vector<std::pair<std::string, McpServer>> servers = {{"native", duet}, {"typed", duetTyped}};
        const std::string peerStdio = settings.peer ? peerCommand() : std::string();
        if (!peerStdio.empty())
            servers.push_back({"cl-mcp", {{peerStdio}, {}, "repl-eval", "\"text\":\"", {}}});
        else if (settings.peer)
            std::printf("  cl-mcp is not set up (see side-by-side.sh): no column for it\n");
        std::vector<std::string> plainLisps;
        if (settings.plain)
            plainLisps = {"ecl", "sbcl"};
        std::printf("  Lisp Duet native, Lisp Duet as typed%s%s, calls alternated (load average %s)\n",
                    peerStdio.empty() ? "" : ", cl-mcp (SBCL)", settings.plain ? ", plain ECL (COMPILE-FILE), plain SBCL" : "",
                    loadAverage().c_str());
        auto all = measureAll(settings, servers, plainLisps);
        std::printf("  done (load average %s)\n", loadAverage().c_str());
        const auto &native = all["native"];
        const auto &typed = all["typed"];
        const auto &peer = all["cl-mcp"];
        const auto &ecl = all["ecl"];
        const auto &sbcl = all["sbcl"];
        std::printf("\n| kernel | Lisp Duet native | as typed | cl-mcp | plain ECL compiled | SBCL | native / ECL | native / cl-mcp | typed / cl-mcp | native / SBCL |\n");
        std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
        for (const Kernel &kernel : Kernels)
            std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", kernel.label, cell(native, kernel.label).c_str(),
                        cell(typed, kernel.label).c_str(), cell(peer, kernel.label).c_str(), cell(ecl, kernel.label).c_str(),
                        cell(sbcl, kernel.label).c_str(), ratio(native, ecl, kernel.label).c_str(),
                        ratio(native, peer, kernel.label).c_str(), ratio(typed, peer, kernel.label).c_str(),
                        ratio(native, sbcl, kernel.label).c_str());
        std::printf("| geometric mean | | | | | | %s | %s | %s | %s |\n", geometricMean(native, ecl).c_str(),
                    geometricMean(native, peer).c_str(), geometricMean(typed, peer).c_str(), geometricMean(native, sbcl).c_str());
        std::printf("(the definitions' compile settled %.0f ms after they were evaluated)\n", native.at("settle"));
        measureDebugPolicy(settings);
        measureEngine(settings);
    } catch (const ServerFailure &failure) {
        std::fprintf(stderr, "bench_native_kernels: %s\n", failure.what());
        return 1;
    }
    return 0;
}

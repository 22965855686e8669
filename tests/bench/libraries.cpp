// Benchmark (not a test): libraries at once (issue 39). For each library, with empty caches,
// one after the other in one run (a busy moment of the shared machine weighs on all): plain
// SBCL's first load-system, plain ECL's (native, ECL's own gcc flags; its CPU with gcc's
// included), plain ECL's with the flags Lisp Duet compiles libraries with (precompiled
// headers, no -g, -O1), and Lisp Duet's engine: the first load-system to its answer (usable:
// bytecode), the time until its background compile is done and swapped in, the (+ 1 2) round
// trip meanwhile and after, and a cached load in a new engine. Then a library-heavy workload
// (cl-ppcre scans, alexandria utilities) as bytecode, once native in a new engine, in plain
// ECL and in SBCL, its results compared. The load average is printed beside every line; see
// README.md.
//
//   bench_libraries [--engine PATH/lisp-duet-engine] [--baseline PATH/older-engine]
//                   [--libraries a,b,c] [--probes 2000] [--workload-runs 3]

#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/time.h>

#include "raw_mcp_client.h"

namespace {
using bench::Clock;
using bench::microsSince;
using bench::PipeServer;
using bench::ServerFailure;

std::string loadAverage()
{
    std::ifstream in("/proc/loadavg");
    std::string one, five;
    in >> one >> five;
    return "load " + one + "/" + five;
}

std::string jsonEscape(const std::string &text)
{
    std::string out;
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

// A field of a JSON line, as text (a number or a string's contents), or "" (good enough for
// the engine's own flat replies).
std::string field(const std::string &line, const std::string &name, size_t from = 0)
{
    const std::string key = "\"" + name + "\":";
    const size_t at = line.find(key, from);
    if (at == std::string::npos)
        return {};
    size_t start = at + key.size();
    if (line[start] == '"') {
        const size_t end = line.find('"', start + 1);
        return line.substr(start + 1, end - start - 1);
    }
    size_t end = start;
    while (end < line.size() && line[end] != ',' && line[end] != '}' && line[end] != ']')
        ++end;
    return line.substr(start, end - start);
}

struct Run
{
    double wallS = 0, cpuS = 0;
    int status = -1;
    std::string output;
};

// Runs ARGV to its end with ENV added; wall and CPU seconds (children included: gcc).
Run runTimed(const std::vector<std::string> &argv, const PipeServer::Environment &environment, const std::string &outputFile)
{
    const auto start = Clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        const int log = open(outputFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(log, 1);
        dup2(log, 2);
        const int none = open("/dev/null", O_RDONLY);
        dup2(none, 0);
        bench::execWith(argv, environment);
    }
    Run run;
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    run.wallS = microsSince(start) / 1e6;
    run.cpuS = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::ifstream in(outputFile);
    std::stringstream text;
    text << in.rdbuf();
    run.output = text.str();
    return run;
}

std::vector<std::string> scratchFolders; // removed at the end

std::string scratch(const std::string &name)
{
    char pattern[] = "/tmp/bench-libraries-XXXXXX";
    const char *dir = mkdtemp(pattern);
    if (!dir)
        throw ServerFailure("mkdtemp failed");
    scratchFolders.push_back(dir);
    return std::string(dir) + "/" + name;
}

const char *const CheapFlags =
    "(progn (require :cmp) (setf c::*use-precompiled-headers* t c::*cc-optimize* \"-O1\""
    " c::*cc-flags* (format nil \"~{~A~^ ~}\" (remove-if (lambda (w) (member w '(\"-g\" \"-O2\") :test #'string=))"
    " (uiop:split-string c::*cc-flags* :separator \" \")))))";

Run plainEcl(const std::string &library, const std::string &cache, bool cheap, const std::string &log)
{
    std::vector<std::string> argv{"ecl", "--norc", "--eval", "(require :asdf)"};
    if (cheap)
        argv.insert(argv.end(), {"--eval", CheapFlags});
    argv.insert(argv.end(), {"--eval", "(asdf:load-system \"" + library + "\")", "--eval", "(ext:quit 0)"});
    return runTimed(argv, {{"XDG_CACHE_HOME", cache}}, log);
}

Run plainSbcl(const std::string &library, const std::string &cache, const std::string &log)
{
    return runTimed({"sbcl", "--non-interactive", "--eval", "(require :asdf)", "--eval", "(asdf:load-system \"" + library + "\")"},
                    {{"XDG_CACHE_HOME", cache}}, log);
}

// The engine alone, on its line protocol.
class Engine
{
public:
    Engine(const std::string &path, const std::string &cache, bool libraryNative)
        : m_process({path}, {{"XDG_CACHE_HOME", cache}, {"LISP_DUET_LIBRARY_NATIVE", libraryNative ? "1" : "0"}})
    {
        while (m_process.readLine(60000).find("\"event\":\"ready\"") == std::string::npos) {
        }
    }
    std::string request(const std::string &op, const std::string &fields, int timeoutMs = 900000)
    {
        ++m_id;
        return m_process.exchange("{\"id\":" + std::to_string(m_id) + ",\"op\":\"" + op + "\"" + fields + "}", m_id, timeoutMs);
    }
    std::string eval(const std::string &code) { return request("eval", ",\"code\":\"" + jsonEscape(code) + "\""); }
    std::string state(const std::string &system)
    {
        const std::string reply = request("libraries", "", 30000);
        const size_t at = reply.find("\"system\":\"" + system + "\"");
        return at == std::string::npos ? std::string() : field(reply, "state", at);
    }

private:
    PipeServer m_process;
    long m_id = 0;
};

struct Figures
{
    std::string library;
    Run sbcl, ecl, eclCheap;
    double duetFirstS = 0, duetFirstCpuS = 0, duetNativeS = 0, duetCachedS = 0;
    std::string duetState;
    bench::Stats before{}, busy{}, after{};
};

// Seconds from an engine's start to its answer to load-system of LIBRARY from CACHE.
double cachedLoad(const std::string &enginePath, const std::string &cache, const std::string &library)
{
    Engine engine(enginePath, cache, true);
    const auto start = Clock::now();
    engine.request("load-system", ",\"system\":\"" + library + "\"");
    return microsSince(start) / 1e6;
}

std::string baselineEngine; // --baseline: an engine from before issue 39, for the cached loads
double baselineCachedS = 0;

Figures measureLibrary(const std::string &enginePath, const std::string &library, int probes)
{
    Figures f;
    f.library = library;
    f.sbcl = plainSbcl(library, scratch("sbcl-cache"), scratch("sbcl.log"));
    f.ecl = plainEcl(library, scratch("ecl-cache"), false, scratch("ecl.log"));
    f.eclCheap = plainEcl(library, scratch("ecl-cheap-cache"), true, scratch("ecl-cheap.log"));
    const std::string cache = scratch("duet-cache");
    {
        Engine engine(enginePath, cache, true);
        const auto roundTrips = [&engine](int count) {
            std::vector<double> samples;
            for (int i = 0; i < count; ++i) {
                const auto at = Clock::now();
                engine.eval("(+ 1 2)");
                samples.push_back(microsSince(at));
            }
            return samples;
        };
        f.before = bench::stats(roundTrips(probes));
        const auto start = Clock::now();
        const std::string reply = engine.request("load-system", ",\"system\":\"" + library + "\"");
        f.duetFirstS = microsSince(start) / 1e6;
        f.duetFirstCpuS = std::atof(field(reply, "run_us").c_str()) / 1e6;
        if (field(reply, "status") != "ok")
            throw ServerFailure(library + ": " + reply.substr(0, 400));
        // The (+ 1 2) round trip while it compiles, until it is done; then after.
        std::vector<double> busy;
        for (;;) {
            const std::vector<double> some = roundTrips(50);
            busy.insert(busy.end(), some.begin(), some.end());
            f.duetState = engine.state(library);
            if (f.duetState == "native" || f.duetState == "partial" || f.duetState == "bytecode")
                break;
        }
        f.duetNativeS = microsSince(start) / 1e6;
        f.busy = bench::stats(busy);
        f.after = bench::stats(roundTrips(probes));
    }
    // Cached loads in new engines, alternated with the baseline engine's when there is one.
    std::vector<double> ours, theirs;
    for (int i = 0; i < 3; ++i) {
        ours.push_back(cachedLoad(enginePath, cache, library));
        if (!baselineEngine.empty())
            theirs.push_back(cachedLoad(baselineEngine, cache, library));
    }
    f.duetCachedS = bench::stats(ours).median;
    baselineCachedS = theirs.empty() ? 0 : bench::stats(theirs).median;
    return f;
}

// cl-ppcre's scanner built from a variable (no compiler macro caches it anywhere) and
// alexandria's utilities, in a loop the evaluator runs: the time is the libraries'.
const char *const Workload =
    "(let ((n 0) (re \"([a-z]+)@([a-z]+)\\\\.com\") (sep \"\\\\s*,\\\\s*\"))"
    " (dotimes (i 3000 n)"
    "  (incf n (length (cl-ppcre:all-matches re \"mail bob@example.com or ann@test.com now\")))"
    "  (incf n (length (cl-ppcre:split sep \"a, b ,c,d , e\")))"
    "  (incf n (length (alexandria:flatten (list i (list i (list i i))))))"
    "  (incf n (alexandria:clamp i 0 100))"
    "  (incf n (length (alexandria:hash-table-keys (alexandria:alist-hash-table (list (cons i 1) (cons 2 3))))))))";

double duetWorkload(Engine &engine, std::string &result)
{
    const std::string reply = engine.eval(Workload);
    const size_t at = reply.find("\"values\":[\"");
    result = at == std::string::npos ? reply.substr(0, 200) : reply.substr(at + 11, reply.find('"', at + 11) - at - 11);
    return std::atof(field(reply, "real_us").c_str()) / 1000.0;
}

double plainWorkload(const std::string &lisp, const std::string &cache, std::string &result)
{
    const std::string code = std::string("(let ((start (get-internal-real-time)) (value ") + Workload
                             + ")) (format t \"~&RESULT ~A ~,1F~%\" value (/ (* 1000.0 (- (get-internal-real-time) start)) internal-time-units-per-second)))";
    std::vector<std::string> argv = lisp == "ecl"
        ? std::vector<std::string>{"ecl", "--norc", "--eval", "(require :asdf)", "--eval", "(asdf:load-system \"cl-ppcre\")", "--eval",
                                   "(asdf:load-system \"alexandria\")", "--eval", code, "--eval", "(ext:quit 0)"}
        : std::vector<std::string>{"sbcl", "--non-interactive", "--eval", "(require :asdf)", "--eval", "(asdf:load-system \"cl-ppcre\")",
                                   "--eval", "(asdf:load-system \"alexandria\")", "--eval", code};
    const Run run = runTimed(argv, {{"XDG_CACHE_HOME", cache}}, scratch(lisp + "-workload.log"));
    const size_t at = run.output.find("RESULT ");
    if (at == std::string::npos)
        return -1;
    std::istringstream words(run.output.substr(at + 7));
    double ms = 0;
    words >> result >> ms;
    return ms;
}

void measureWorkload(const std::string &enginePath, int runs)
{
    std::printf("\n## library-heavy workload (cl-ppcre scans, alexandria utilities), ms; %s\n", loadAverage().c_str());
    const std::string cache = scratch("workload-cache");
    const std::string eclCache = scratch("workload-ecl");
    const std::string sbclCache = scratch("workload-sbcl");
    std::string bytecodeResult, nativeResult, eclResult, sbclResult;
    std::vector<double> bytecode, native, ecl, sbcl;
    {
        // Bytecode: the background compile off, so that it costs this engine nothing.
        Engine typed(enginePath, cache, false);
        typed.request("load-system", ",\"system\":\"cl-ppcre\"");
        typed.request("load-system", ",\"system\":\"alexandria\"");
        for (int i = 0; i < runs; ++i)
            bytecode.push_back(duetWorkload(typed, bytecodeResult));
    }
    {
        // Native: compiled in the background, then a new engine loads it from the cache.
        Engine compiling(enginePath, cache, true);
        compiling.request("load-system", ",\"system\":\"cl-ppcre\"");
        compiling.request("load-system", ",\"system\":\"alexandria\"");
        while (compiling.state("cl-ppcre") == "compiling" || compiling.state("cl-ppcre") == "queued"
               || compiling.state("alexandria") == "compiling" || compiling.state("alexandria") == "queued")
            usleep(200000);
    }
    Engine nativeEngine(enginePath, cache, true);
    nativeEngine.request("load-system", ",\"system\":\"cl-ppcre\"");
    nativeEngine.request("load-system", ",\"system\":\"alexandria\"");
    // The same engine on plain ECL's cache (ECL's own flags, -O2): the library flags' price.
    plainWorkload("ecl", eclCache, eclResult);
    Engine eclFlagsEngine(enginePath, eclCache, false);
    eclFlagsEngine.request("load-system", ",\"system\":\"cl-ppcre\"");
    eclFlagsEngine.request("load-system", ",\"system\":\"alexandria\"");
    std::vector<double> eclFlags;
    std::string eclFlagsResult;
    for (int i = 0; i < runs; ++i) {
        native.push_back(duetWorkload(nativeEngine, nativeResult));
        eclFlags.push_back(duetWorkload(eclFlagsEngine, eclFlagsResult));
        ecl.push_back(plainWorkload("ecl", eclCache, eclResult));
        sbcl.push_back(plainWorkload("sbcl", sbclCache, sbclResult));
    }
    const double b = bench::stats(bytecode).median, n = bench::stats(native).median, e = bench::stats(ecl).median,
                 s = bench::stats(sbcl).median, f = bench::stats(eclFlags).median;
    std::printf("| Lisp Duet bytecode | Lisp Duet native (library flags, -O1) | the same engine on plain ECL's files (-O2) | plain ECL | SBCL | bytecode/native | -O1/-O2 | native/ECL | native/SBCL |\n"
                "|---|---|---|---|---|---|---|---|---|\n");
    std::printf("| %.0f | %.0f | %.0f | %.0f | %.0f | %.2fx | %.2fx | %.2fx | %.2fx |\n", b, n, f, e, s, b / n, n / f, n / e, n / s);
    std::printf("results: bytecode %s, native %s, plain ECL %s, SBCL %s (%s); %s\n", bytecodeResult.c_str(), nativeResult.c_str(),
                eclResult.c_str(), sbclResult.c_str(),
                bytecodeResult == eclResult && nativeResult == eclResult && sbclResult == eclResult ? "the same" : "DIFFERENT",
                loadAverage().c_str());
}

} // namespace

int main(int argc, char **argv)
{
    std::string enginePath = DUET_BIN_DIR "/lisp-duet-engine";
    std::string libraries = "alexandria,cl-ppcre,local-time,babel,hunchentoot";
    int probes = 2000, workloadRuns = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string option = argv[i];
        if (option == "--engine")
            enginePath = argv[i + 1];
        else if (option == "--libraries")
            libraries = argv[i + 1];
        else if (option == "--probes")
            probes = std::atoi(argv[i + 1]);
        else if (option == "--baseline")
            baselineEngine = argv[i + 1];
        else if (option == "--workload-runs")
            workloadRuns = std::atoi(argv[i + 1]);
    }
    std::printf("# bench_libraries: first loads with empty caches (%s)\n\n", loadAverage().c_str());
    std::printf("| library | SBCL first load | plain ECL first load (CPU) | ECL, library flags (CPU) | Lisp Duet first load, usable (CPU) | / SBCL | "
                "until native | state | cached, new engine (baseline engine) | (+ 1 2) p50/p99 before | while compiling | after | load |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    std::stringstream list(libraries);
    for (std::string library; std::getline(list, library, ',');) {
        try {
            const Figures f = measureLibrary(enginePath, library, probes);
            std::printf("| %s | %.2f s | %.1f s (%.1f s) | %.1f s (%.1f s) | %.2f s (%.2f s) | %.2fx | %.1f s | %s | %.2f s (%.2f s) | %.0f/%.0f us | %.0f/%.0f us | %.0f/%.0f us | %s |\n",
                        library.c_str(), f.sbcl.wallS, f.ecl.wallS, f.ecl.cpuS, f.eclCheap.wallS, f.eclCheap.cpuS, f.duetFirstS,
                        f.duetFirstCpuS, f.duetFirstS / f.sbcl.wallS, f.duetNativeS, f.duetState.c_str(), f.duetCachedS, baselineCachedS,
                        f.before.median, f.before.p99, f.busy.median, f.busy.p99, f.after.median, f.after.p99, loadAverage().c_str());
            std::fflush(stdout);
        } catch (const ServerFailure &failure) {
            std::printf("| %s | failed: %s |\n", library.c_str(), failure.what());
        }
    }
    try {
        measureWorkload(enginePath, workloadRuns);
    } catch (const ServerFailure &failure) {
        std::printf("workload failed: %s\n", failure.what());
    }
    for (const std::string &folder : scratchFolders)
        std::filesystem::remove_all(folder);
    return 0;
}

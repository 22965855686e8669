// Benchmark (not a test): the person's editor (issue 31). An editor's C-x C-e of "(+ 1 2)"
// ((swank:interactive-eval "(+ 1 2)") over Swank's wire protocol, from a plain blocking socket
// client) against:
//   plain      Swank in plain ECL (`ecl`, Swank loaded from source as the engine loads it);
//   engine     Swank inside lisp-duet-engine, the host a bare loop on the engine's pipes that
//              sends each editor-request back as its job (what routing costs in the engine);
//   session    the same with the host's Session (EngineClient, the FIFO queue, origins,
//              transcript) as tests/common/EditorHost.h has it;
//   bridge     the app's own: the Session's EditorBridge (engine/session), which listens at
//              the engine's start and queues each request with the editor's origin;
// and the start-up: the engine's start to "ready", editor-listen (loading Swank and listening),
// plain ECL's start to Swank listening.
//
//   bench_editor [--calls N] [--starts N]

#include "../common/EditorHost.h"
#include "raw_mcp_client.h"

#include "editor/EditorBridge.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTemporaryDir>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <atomic>
#include <thread>

namespace {
using bench::Clock;
using bench::microsSince;
using bench::stats;
using bench::Stats;

constexpr char kSecret[] = "bench-secret";

void report(const char *what, const Stats &s, const char *unit = "us")
{
    std::printf("%-44s median %9.1f %s   p99 %9.1f %s   mean %9.1f %s\n", what, s.median, unit, s.p99, unit, s.mean, unit);
}

// Swank's framing over a blocking socket: six hex digits of length, then the message.
class BlockingSwank
{
public:
    explicit BlockingSwank(int port, const char *secret)
    {
        m_fd = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(uint16_t(port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0)
            throw bench::ServerFailure("cannot connect to Swank");
        const int one = 1;
        setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (secret)
            send(secret);
    }
    ~BlockingSwank() { close(m_fd); }

    void send(const std::string &message)
    {
        char header[8];
        std::snprintf(header, sizeof header, "%06zx", message.size());
        bench::writeAll(m_fd, header + message);
    }
    std::string receive()
    {
        const std::string header = readExactly(6);
        return readExactly(std::stoul(header, nullptr, 16));
    }
    // (:emacs-rex FORM ...), its (:return ...).
    std::string call(const std::string &form)
    {
        const int id = ++m_id;
        send("(:emacs-rex " + form + " \"COMMON-LISP-USER\" t " + std::to_string(id) + ")");
        const std::string tail = " " + std::to_string(id) + ")";
        for (;;) {
            std::string message = receive();
            if (message.rfind("(:return", 0) == 0 && message.size() >= tail.size()
                && message.compare(message.size() - tail.size(), tail.size(), tail) == 0)
                return message;
        }
    }

private:
    std::string readExactly(size_t count)
    {
        std::string data(count, '\0');
        size_t got = 0;
        while (got < count) {
            const ssize_t n = read(m_fd, data.data() + got, count - got);
            if (n <= 0)
                throw bench::ServerFailure("Swank closed the connection");
            got += size_t(n);
        }
        return data;
    }
    int m_fd = -1;
    int m_id = 0;
};

Stats roundTrips(int port, const char *secret, int calls)
{
    BlockingSwank editor(port, secret);
    editor.call("(swank:connection-info)");
    for (int i = 0; i < 50; ++i)
        editor.call("(swank:interactive-eval \"(+ 1 2)\")");
    std::vector<double> samples;
    for (int i = 0; i < calls; ++i) {
        const auto start = Clock::now();
        const std::string reply = editor.call("(swank:interactive-eval \"(+ 1 2)\")");
        samples.push_back(microsSince(start));
        if (reply.find("=> 3 ") == std::string::npos)
            throw bench::ServerFailure("unexpected reply: " + reply);
    }
    return stats(samples);
}

// Plain ECL with Swank from Debian's source (bytecodes, as editor-listen loads it); each form
// is read after the one before ran (the package SWANK-LOADER must exist first).
std::vector<std::string> plainSwank()
{
    std::string dir = LISP_DUET_SWANK_DIR;
    if (dir.back() != '/')
        dir += '/';
    std::vector<std::string> argv{"ecl", "--norc"};
    for (const std::string &form : {
             std::string("(require :cmp)"),
             std::string("(defpackage :swank-loader (:use :cl) (:export :*source-directory* :*fasl-directory* :*started-from-emacs*))"),
             "(progn (defparameter swank-loader:*source-directory* #p\"" + dir + "\") (defparameter swank-loader:*fasl-directory* nil)"
             " (defparameter swank-loader:*started-from-emacs* nil))",
             "(let ((*load-verbose* nil)) (dolist (f '(\"packages\" \"swank/backend\" \"swank/ecl\" \"swank/gray\" \"swank/match\""
             " \"swank/rpc\" \"swank\")) (load (concatenate 'string \"" + dir + "\" f \".lisp\"))))",
             "(funcall (intern \"BEFORE-INIT\" \"SWANK\") \"2.27\" (list \"" + dir + "contrib/\"))",
             std::string("(funcall (intern \"SWANK-REQUIRE\" \"SWANK\") '(:swank-util :swank-repl :swank-c-p-c :swank-arglists"
                         " :swank-fuzzy :swank-fancy-inspector :swank-presentations :swank-package-fu :swank-trace-dialog"
                         " :swank-indentation :swank-macrostep))"),
             std::string("(setf (symbol-value (intern \"*LOG-OUTPUT*\" \"SWANK\")) (make-broadcast-stream))"),
             std::string("(progn (format t \"PORT ~D~%\" (funcall (intern \"CREATE-SERVER\" \"SWANK\") :port 0 :dont-close t"
                         " :style :spawn :interface \"127.0.0.1\")) (finish-output))")}) {
        argv.push_back("--eval");
        argv.push_back(form);
    }
    return argv;
}

int startPlainSwank(bench::PipeServer &ecl)
{
    for (;;) {
        const std::string line = ecl.readLine(120000);
        if (line.rfind("PORT ", 0) == 0)
            return std::stoi(line.substr(5));
    }
}

// The request object of an editor-request event, as text (its strings hold no braces here).
std::string requestOf(const std::string &event)
{
    const size_t start = event.find("\"request\":{") + 10;
    return event.substr(start, event.find('}', start) - start + 1);
}

// lisp-duet-engine with a bare host on its pipes; returns the round trips.
Stats engineRoundTrips(const std::string &engine, const std::string &secretFile, int calls)
{
    bench::PipeServer server({engine});
    server.readLine(); // ready
    server.send(R"({"id":1,"op":"editor-listen","port":0,"secret_file":")" + secretFile + "\"}");
    const std::string listening = server.response(1, 60000);
    const int port = std::stoi(listening.substr(listening.find("\"port\":") + 7));
    std::atomic<bool> done{false};
    std::thread host([&] {
        long id = 100;
        while (!done) {
            std::string line;
            try {
                line = server.readLine(200);
            } catch (const bench::ServerFailure &) {
                continue;
            }
            if (line.rfind("{\"event\":\"editor-request\"", 0) == 0) {
                std::string request = requestOf(line);
                request.insert(1, "\"id\":" + std::to_string(++id) + ",\"debug\":true,");
                server.send(request);
            }
        }
    });
    Stats result{};
    try {
        result = roundTrips(port, kSecret, calls);
    } catch (...) {
        done = true;
        host.join();
        throw;
    }
    done = true;
    host.join();
    return result;
}

// The editor's round trips on a thread of their own while this thread's event loop serves the
// host (the Session and its engine), which sleeps until one of them has something.
Stats roundTripsBesideEventLoop(quint16 port, int calls)
{
    Stats result{};
    std::string failure;
    QEventLoop loop;
    std::thread editor([&] {
        try {
            result = roundTrips(port, kSecret, calls);
        } catch (const std::exception &e) {
            failure = e.what();
        }
        QMetaObject::invokeMethod(&loop, "quit", Qt::QueuedConnection);
    });
    loop.exec();
    editor.join();
    if (!failure.empty())
        throw bench::ServerFailure(failure);
    return result;
}

// The same with the Session as the host, its event loop on this thread, the editor on another.
Stats sessionRoundTrips(int calls)
{
    EditorHost host;
    if (!host.lisp.waitReady() || !host.writeSecret() || !host.listen())
        throw bench::ServerFailure("the engine did not listen");
    host.secret = QString::fromLatin1(kSecret);
    host.writeSecret();
    return roundTripsBesideEventLoop(host.port, calls);
}

// The app's own routing: the Session's EditorBridge, as lisp-duet --swank 0 has it.
Stats bridgeRoundTrips(const std::string &secretFile, int calls)
{
    EngineHarnessWithRooms lisp;
    lisp.rooms.editors.setSecretFile(QString::fromStdString(secretFile));
    lisp.rooms.editors.setListening(0);
    if (!QTest::qWaitFor([&] { return lisp.rooms.editors.state() == EditorBridge::State::Listening; }, 60000))
        throw bench::ServerFailure("the bridge did not listen: " + lisp.rooms.editors.message().toStdString());
    const auto port = quint16(lisp.rooms.editors.port());
    return roundTripsBesideEventLoop(port, calls);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int calls = 500, starts = 10;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--calls") == 0)
            calls = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--starts") == 0)
            starts = std::atoi(argv[++i]);
    }
    const std::string engine = DUET_BIN_DIR "/lisp-duet-engine";
    QTemporaryDir home;
    const std::string secretFile = home.filePath(QStringLiteral(".slime-secret")).toStdString();
    bench::writeAll(open(secretFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600), std::string(kSecret) + "\n");
    // Plain Swank's HOME has no secret: it reads none and asks for none.
    const std::string plainHome = home.path().toStdString() + "/plain";
    mkdir(plainHome.c_str(), 0700);
    try {
        std::printf("An editor's (swank:interactive-eval \"(+ 1 2)\"), %d sequential round trips:\n", calls);
        {
            bench::PipeServer ecl(plainSwank(), {{"HOME", plainHome}});
            report("  plain Swank in plain ECL", roundTrips(startPlainSwank(ecl), nullptr, calls));
        }
        report("  Swank in the engine, a bare host", engineRoundTrips(engine, secretFile, calls));
        report("  Swank in the engine, the Session as host", sessionRoundTrips(calls));
        report("  Swank in the engine, the app's EditorBridge", bridgeRoundTrips(secretFile, calls));

        std::printf("Start-up, %d fresh processes:\n", starts);
        std::vector<double> ready, listen, loadMs, plain;
        for (int i = 0; i < starts; ++i) {
            const auto start = Clock::now();
            bench::PipeServer server({engine});
            server.readLine();
            ready.push_back(microsSince(start) / 1000.0);
            const auto asked = Clock::now();
            server.send(R"({"id":1,"op":"editor-listen","port":0,"secret_file":")" + secretFile + "\"}");
            const std::string reply = server.response(1, 60000);
            listen.push_back(microsSince(asked) / 1000.0);
            loadMs.push_back(std::stod(reply.substr(reply.find("\"load_ms\":") + 10)));
        }
        for (int i = 0; i < starts; ++i) {
            const auto start = Clock::now();
            bench::PipeServer ecl(plainSwank(), {{"HOME", plainHome}});
            startPlainSwank(ecl);
            plain.push_back(microsSince(start) / 1000.0);
        }
        report("  engine: start to ready", stats(ready), "ms");
        report("  engine: editor-listen (Swank loaded, listening)", stats(listen), "ms");
        report("    of which the engine's own load_ms", stats(loadMs), "ms");
        report("  plain ECL: start to Swank listening", stats(plain), "ms");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "bench_editor: %s\n", e.what());
        return 1;
    }
    return 0;
}

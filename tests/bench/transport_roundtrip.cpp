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

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {
using Clock = std::chrono::steady_clock;

double microseconds(Clock::duration d)
{
    return std::chrono::duration<double, std::micro>(d).count();
}

struct Stats
{
    double median, p99, mean;
};

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (double x : v)
        sum += x;
    return {v[v.size() / 2], v[std::min(v.size() - 1, size_t(v.size() * 0.99))], sum / double(v.size())};
}

bool writeAll(int fd, const std::string &s)
{
    size_t off = 0;
    while (off < s.size()) {
        const ssize_t n = ::write(fd, s.data() + off, s.size() - off);
        if (n <= 0)
            return false;
        off += size_t(n);
    }
    return true;
}

// One connection speaking either HTTP (one POST per message) or lines (local socket).
class Connection
{
public:
    Connection(bool http, int port, const std::string &socketPath) : m_http(http), m_port(port)
    {
        if (http) {
            m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in a{};
            a.sin_family = AF_INET;
            a.sin_port = htons(uint16_t(port));
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            if (::connect(m_fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0)
                m_fd = -1;
            int one = 1;
            if (m_fd >= 0)
                setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        } else {
            m_fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
            sockaddr_un a{};
            a.sun_family = AF_UNIX;
            std::strncpy(a.sun_path, socketPath.c_str(), sizeof a.sun_path - 1);
            if (::connect(m_fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0)
                m_fd = -1;
        }
    }
    ~Connection()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    bool ok() const { return m_fd >= 0; }

    // Sends one message and returns the body of the answer (empty on failure).
    std::string exchange(const std::string &json)
    {
        if (m_http) {
            std::string request = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(m_port)
                + "\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n";
            if (!m_session.empty())
                request += "Mcp-Session-Id: " + m_session + "\r\nMCP-Protocol-Version: 2025-11-25\r\n";
            request += "Content-Length: " + std::to_string(json.size()) + "\r\n\r\n" + json;
            if (!writeAll(m_fd, request))
                return {};
            return readHttp();
        }
        if (!writeAll(m_fd, json + "\n"))
            return {};
        return readLine(json.find("\"id\"") != std::string::npos);
    }
    bool initialize(const std::string &name)
    {
        const std::string reply = exchange(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":")"
                                           + name + R"(","version":"1"}}})");
        if (reply.find("protocolVersion") == std::string::npos)
            return false;
        exchange(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
        return true;
    }

private:
    bool fill()
    {
        char chunk[65536];
        const ssize_t n = ::read(m_fd, chunk, sizeof chunk);
        if (n <= 0)
            return false;
        m_buffer.append(chunk, size_t(n));
        return true;
    }
    std::string readHttp()
    {
        size_t headEnd;
        while ((headEnd = m_buffer.find("\r\n\r\n")) == std::string::npos)
            if (!fill())
                return {};
        const std::string head = m_buffer.substr(0, headEnd);
        size_t length = 0;
        for (const char *name : {"Content-Length: ", "content-length: "}) {
            const size_t at = head.find(name);
            if (at != std::string::npos)
                length = std::strtoul(head.c_str() + at + std::strlen(name), nullptr, 10);
        }
        const size_t sid = head.find("Mcp-Session-Id: ");
        if (sid != std::string::npos)
            m_session = head.substr(sid + 16, head.find("\r\n", sid) - sid - 16);
        while (m_buffer.size() < headEnd + 4 + length)
            if (!fill())
                return {};
        std::string body = m_buffer.substr(headEnd + 4, length);
        m_buffer.erase(0, headEnd + 4 + length);
        return body.empty() ? std::string("{}") : body; // 202 for notifications
    }
    std::string readLine(bool expectReply)
    {
        if (!expectReply)
            return "{}";
        size_t newline;
        while ((newline = m_buffer.find('\n')) == std::string::npos)
            if (!fill())
                return {};
        std::string line = m_buffer.substr(0, newline);
        m_buffer.erase(0, newline + 1);
        return line;
    }

    bool m_http;
    int m_port;
    int m_fd = -1;
    std::string m_buffer;
    std::string m_session;
};

std::string evaluateRequest(long id)
{
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id)
        + R"x(,"method":"tools/call","params":{"name":"evaluate-lisp","arguments":{"code":"(+ 1 2)"}}})x";
}

void sequential(const char *label, bool http, int port, const std::string &path, int calls)
{
    Connection c(http, port, path);
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
        c.exchange(R"({"jsonrpc":"2.0","id":)" + std::to_string(5000 + i) + R"(,"method":"ping"})");
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
            Connection c(http, port, path);
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
        Connection h(true, port, socketPath), l(false, port, socketPath);
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

// The plain POSIX MCP client the benchmarks share (no Qt, no Node): a server process on pipes
// that speaks JSON lines (stdio), and one connection that speaks HTTP (one POST per message)
// or JSON lines over a local socket. Header-only; every bench is one .cpp file.
//
// Failures (no answer in time, the server closed its output, a write that fails) throw
// ServerFailure, so that one broken server ends its own measurement and not a whole run.

#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace bench {

using Clock = std::chrono::steady_clock;

inline double microseconds(Clock::duration d)
{
    return std::chrono::duration<double, std::micro>(d).count();
}
inline double microsSince(Clock::time_point start)
{
    return microseconds(Clock::now() - start);
}

struct Stats
{
    double median, p99, mean, min;
};
inline Stats stats(std::vector<double> samples)
{
    if (samples.empty())
        return {0, 0, 0, 0};
    std::sort(samples.begin(), samples.end());
    double sum = 0;
    for (double s : samples)
        sum += s;
    const auto at = [&](double q) { return samples[std::min(samples.size() - 1, size_t(q * double(samples.size())))]; };
    return {at(0.5), at(0.99), sum / double(samples.size()), samples.front()};
}

struct ServerFailure : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

inline bool writeAll(int fd, const std::string &data)
{
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n <= 0)
            return false;
        done += size_t(n);
    }
    return true;
}

// JSON-RPC messages, built by hand so that the client costs nothing measurable.
inline std::string initializeRequest(int id, const std::string &clientName = "bench")
{
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id)
        + R"(,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":")" + clientName
        + R"(","version":"1"}}})";
}
inline const char *initializedNotification()
{
    return R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
}
inline std::string pingRequest(long id)
{
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"ping"})";
}
// TEXT escaped for a JSON string (quotes, backslashes, newlines: what Lisp code holds).
inline std::string jsonEscape(const std::string &text)
{
    std::string out;
    for (char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        default: out += c;
        }
    }
    return out;
}

// The 1, 5 and 15 minute load averages, printed beside every figure.
inline std::string loadAverage()
{
    char text[128] = {0};
    FILE *file = std::fopen("/proc/loadavg", "r");
    if (!file)
        return "?";
    const size_t n = std::fread(text, 1, sizeof text - 1, file);
    std::fclose(file);
    std::string line(text, n);
    size_t spaces = 0, end = 0;
    for (; end < line.size() && spaces < 3; ++end)
        spaces += line[end] == ' ';
    return line.substr(0, spaces == 3 ? end - 1 : line.size());
}

// A tools/call; `code` must already be escaped for a JSON string, `extraArguments` is either
// empty or starts with a comma (`,"timeout_seconds":1`).
inline std::string toolCall(long id, const std::string &tool, const std::string &code, const std::string &extraArguments = {})
{
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":")" + tool
        + R"(","arguments":{"code":")" + code + "\"" + extraArguments + "}}}";
}

using Environment = std::vector<std::pair<std::string, std::string>>;

// In a forked child: runs `argv` (looked up on PATH) with `environment` added; never returns.
[[noreturn]] inline void execWith(const std::vector<std::string> &argv, const Environment &environment)
{
    for (const auto &[name, value] : environment)
        setenv(name.c_str(), value.c_str(), 1);
    std::vector<char *> args;
    for (const std::string &arg : argv)
        args.push_back(const_cast<char *>(arg.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
}

// A server started with fork/exec whose stdin and stdout are pipes to this process.
class PipeServer
{
public:
    using Environment = bench::Environment;

    // `argv[0]` is the executable (looked up on PATH when it has no slash); `environment` is
    // added to this process's; the server's stderr goes to `stderrPath` (default: /dev/null,
    // since its log lines would only add noise).
    explicit PipeServer(const std::vector<std::string> &argv, const Environment &environment = {}, const std::string &stderrPath = {})
    {
        int in[2], out[2];
        if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
            throw ServerFailure(std::string("pipe: ") + std::strerror(errno));
        m_pid = fork();
        if (m_pid == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            const int log = stderrPath.empty() ? open("/dev/null", O_WRONLY) : open(stderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            dup2(log, 2);
            execWith(argv, environment);
        }
        close(in[0]);
        close(out[1]);
        m_in = in[1];
        m_out = out[0];
    }
    PipeServer(const PipeServer &) = delete;
    PipeServer &operator=(const PipeServer &) = delete;
    ~PipeServer()
    {
        stop();
        close(m_out);
    }

    pid_t pid() const { return m_pid; }
    // Whether the process has exited (and was reaped here).
    bool exited()
    {
        int status = 0;
        if (m_pid > 0 && waitpid(m_pid, &status, WNOHANG) == m_pid)
            m_pid = -1;
        return m_pid <= 0;
    }

    void send(const std::string &line)
    {
        if (m_in < 0 || !writeAll(m_in, line + "\n"))
            throw ServerFailure("the server's input is closed");
    }
    void closeInput()
    {
        if (m_in >= 0)
            close(m_in);
        m_in = -1;
    }
    // Closes the server's input and waits for it to exit; one that has not exited after
    // `graceMs` is sent SIGTERM, then SIGKILL.
    void stop(int graceMs = 10000)
    {
        closeInput();
        if (m_pid <= 0)
            return;
        int status = 0;
        for (int waited = 0; waited < graceMs; waited += 10) {
            if (waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_pid = -1;
                return;
            }
            usleep(10000);
        }
        kill(m_pid, SIGTERM);
        for (int waited = 0; waited < 2000; waited += 10) {
            if (waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_pid = -1;
                return;
            }
            usleep(10000);
        }
        kill(m_pid, SIGKILL);
        waitpid(m_pid, &status, 0);
        m_pid = -1;
    }

    // The next line the server writes (without the newline).
    std::string readLine(int timeoutMs = 30000)
    {
        const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
        for (;;) {
            const size_t newline = m_buffer.find('\n', m_scanned);
            if (newline != std::string::npos) {
                std::string line = m_buffer.substr(0, newline);
                m_buffer.erase(0, newline + 1);
                m_scanned = 0;
                return line;
            }
            m_scanned = m_buffer.size(); // a long line is scanned once, not once per chunk
            const int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
            pollfd fd{m_out, POLLIN, 0};
            if (left <= 0 || poll(&fd, 1, left) <= 0)
                throw ServerFailure("no answer from the server within " + std::to_string(timeoutMs) + " ms");
            char chunk[65536];
            const ssize_t n = read(m_out, chunk, sizeof chunk);
            if (n <= 0)
                throw ServerFailure("the server closed its output");
            m_buffer.append(chunk, size_t(n));
        }
    }
    // Reads lines until the response to `id`, skipping notifications and the Lisp Duet
    // engine's events (whose "id" names the job they belong to).
    std::string response(long id, int timeoutMs = 30000)
    {
        const std::string key = "\"id\":" + std::to_string(id);
        for (;;) {
            std::string line = readLine(timeoutMs);
            if (line.rfind("{\"event\":", 0) == 0)
                continue;
            for (size_t at = line.find(key); at != std::string::npos; at = line.find(key, at + 1)) {
                const char after = line.c_str()[at + key.size()];
                if (after == ',' || after == '}')
                    return line;
            }
        }
    }
    // One request, its answer.
    std::string exchange(const std::string &request, long id, int timeoutMs = 30000)
    {
        send(request);
        return response(id, timeoutMs);
    }

private:
    pid_t m_pid = -1;
    int m_in = -1;
    int m_out = -1;
    std::string m_buffer;
    size_t m_scanned = 0;
};

// One connection speaking either HTTP to 127.0.0.1:port/mcp (one POST per message, keep-alive,
// the Mcp-Session-Id the server handed out) or JSON lines over a local socket.
class Connection
{
public:
    enum class Kind { Http, LocalSocket };

    static Connection http(int port) { return Connection(Kind::Http, port, {}); }
    static Connection localSocket(const std::string &path) { return Connection(Kind::LocalSocket, 0, path); }

    Connection(Connection &&other) noexcept
        : m_kind(other.m_kind), m_port(other.m_port), m_fd(std::exchange(other.m_fd, -1)), m_buffer(std::move(other.m_buffer)),
          m_session(std::move(other.m_session))
    {
    }
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;
    ~Connection()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    bool ok() const { return m_fd >= 0; }

    // Sends one message and returns the body of the answer: "{}" for a notification's empty
    // answer, empty when the connection failed.
    std::string exchange(const std::string &json)
    {
        if (m_kind == Kind::Http) {
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
    bool initialize(const std::string &clientName)
    {
        if (exchange(initializeRequest(0, clientName)).find("protocolVersion") == std::string::npos)
            return false;
        exchange(initializedNotification());
        return true;
    }

private:
    Connection(Kind kind, int port, const std::string &socketPath) : m_kind(kind), m_port(port)
    {
        if (kind == Kind::Http) {
            m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            sockaddr_in address{};
            address.sin_family = AF_INET;
            address.sin_port = htons(uint16_t(port));
            address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            if (::connect(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0)
                closeSocket();
            int one = 1;
            if (m_fd >= 0)
                setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        } else {
            m_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            sockaddr_un address{};
            address.sun_family = AF_UNIX;
            std::strncpy(address.sun_path, socketPath.c_str(), sizeof address.sun_path - 1);
            if (::connect(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0)
                closeSocket();
        }
    }
    void closeSocket()
    {
        ::close(m_fd);
        m_fd = -1;
    }
    bool fill()
    {
        char chunk[65536];
        const ssize_t n = ::read(m_fd, chunk, sizeof chunk);
        if (n <= 0)
            return false;
        m_buffer.append(chunk, size_t(n));
        return true;
    }
    // The value of header `name` (matched without regard to case), empty when absent.
    static std::string header(const std::string &head, const std::string &name)
    {
        for (size_t line = head.find("\r\n"); line != std::string::npos; line = head.find("\r\n", line + 2)) {
            const size_t start = line + 2;
            if (head.size() > start + name.size() && head[start + name.size()] == ':'
                && strncasecmp(head.c_str() + start, name.c_str(), name.size()) == 0) {
                size_t value = start + name.size() + 1;
                while (value < head.size() && head[value] == ' ')
                    ++value;
                return head.substr(value, head.find("\r\n", value) - value);
            }
        }
        return {};
    }
    std::string readHttp()
    {
        size_t headEnd;
        while ((headEnd = m_buffer.find("\r\n\r\n")) == std::string::npos)
            if (!fill())
                return {};
        const std::string head = m_buffer.substr(0, headEnd);
        const size_t length = std::strtoul(header(head, "Content-Length").c_str(), nullptr, 10);
        if (const std::string session = header(head, "Mcp-Session-Id"); !session.empty())
            m_session = session;
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

    Kind m_kind;
    int m_port;
    int m_fd = -1;
    std::string m_buffer;
    std::string m_session;
};

} // namespace bench

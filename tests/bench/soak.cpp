// Benchmark (not a test): two MCP clients over HTTP and the person evaluating at once, for a
// while, against the real stack (engine, Session with its journal, tools, McpServer,
// HttpTransport) in one process. Reports per actor the calls made, failures, latency
// percentiles, and the host's RSS over time. Fails only if something is never answered.
//
//   bench_soak [--seconds S] [--report-every S]      (issue 6 asks for 600 s; CI does not run it)

#include "../common/ResidentMemory.h"
#include "client/EngineClient.h"
#include "history/Journal.h"
#include "server/McpServer.h"
#include "session/Session.h"
#include "toolapi/ToolRegistry.h"
#include "tools/JobHandles.h"
#include "tools/Tools.h"
#include "transports/HttpTransport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace {
const QByteArray Token = "soak-token-0123456789abcdefghijklmnopqrstuvwxyz";


// What a session of work looks like: definitions, calls, output, errors, a little waiting.
QString workload(const QString &who, int n)
{
    switch (n % 8) {
    case 0: return QStringLiteral("(defun %1-f%2 (x) (* x %2))").arg(who).arg(n % 50);
    case 1: return QStringLiteral("(%1-f%2 %3)").arg(who).arg((n - 1) % 50).arg(n);
    case 2: return QStringLiteral("(loop for i below 2000 sum i)");
    case 3: return QStringLiteral("(format t \"~A ~D~%\" \"%1\" %2)").arg(who).arg(n);
    case 4: return QStringLiteral("(/ %1 0)").arg(n); // an error, answered as one
    case 5: return QStringLiteral("(defparameter *%1-last* %2)").arg(who).arg(n);
    case 6: return QStringLiteral("(sleep 0.02)");
    default: return QStringLiteral("(length (make-list %1))").arg(1000 + n % 1000);
    }
}

struct Stats
{
    QString name;
    int calls = 0;
    int errors = 0;        // the code signalled (expected: every 8th form divides by zero)
    int failures = 0;      // transport or session problems: never expected
    QList<double> latencyMs;

    QString line() const
    {
        QList<double> sorted = latencyMs;
        std::sort(sorted.begin(), sorted.end());
        auto at = [&](double q) { return sorted.isEmpty() ? 0.0 : sorted.at(qMin(sorted.size() - 1, qsizetype(q * sorted.size()))); };
        return QStringLiteral("%1: %2 calls, %3 Lisp errors, %4 failures, latency p50 %5 ms, p99 %6 ms, max %7 ms")
            .arg(name, -8).arg(calls).arg(errors).arg(failures)
            .arg(at(0.5), 0, 'f', 1).arg(at(0.99), 0, 'f', 1).arg(sorted.isEmpty() ? 0.0 : sorted.last(), 0, 'f', 1);
    }
};

// An MCP client over HTTP that makes one evaluate-lisp call after another.
class HttpAgent : public QObject
{
public:
    HttpAgent(const QString &name, quint16 port, Stats *stats) : m_name(name), m_port(port), m_stats(stats)
    {
        connect(&m_socket, &QTcpSocket::readyRead, this, [this] { onReadyRead(); });
        connect(&m_socket, &QTcpSocket::connected, this, [this] { post(initializeBody()); });
        m_socket.connectToHost(QHostAddress::LocalHost, port);
    }
    bool idleFor(qint64 ms) const { return m_waiting.isValid() && m_waiting.elapsed() > ms; }
    void stop() { m_stopped = true; }

private:
    QByteArray initializeBody() const
    {
        return QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
                                         {"params", QJsonObject{{"protocolVersion", "2025-11-25"}, {"capabilities", QJsonObject{}},
                                                                {"clientInfo", QJsonObject{{"name", m_name}, {"version", "1"}}}}}})
            .toJson(QJsonDocument::Compact);
    }
    void post(const QByteArray &body)
    {
        QByteArray r = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(m_port) + "\r\nAuthorization: Bearer " + Token
                       + "\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n";
        if (!m_session.isEmpty())
            r += "Mcp-Session-Id: " + m_session + "\r\nMCP-Protocol-Version: 2025-11-25\r\n";
        r += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        m_socket.write(r);
        m_waiting.start();
    }
    void next()
    {
        if (m_stopped)
            return;
        ++m_n;
        const QByteArray body = QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"id", m_n}, {"method", "tools/call"},
                                                          {"params", QJsonObject{{"name", "evaluate-lisp"},
                                                                                 {"arguments", QJsonObject{{"code", workload(m_name, m_n)}}}}}})
                                    .toJson(QJsonDocument::Compact);
        post(body);
    }
    void onReadyRead()
    {
        m_buffer += m_socket.readAll();
        for (;;) {
            const qsizetype end = m_buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QByteArray head = m_buffer.left(end);
            qsizetype length = 0;
            int status = head.split(' ').value(1).toInt();
            for (const QByteArray &line : head.split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
                if (line.toLower().startsWith("mcp-session-id:"))
                    m_session = line.mid(15).trimmed();
            }
            if (m_buffer.size() < end + 4 + length)
                return;
            const QJsonObject reply = QJsonDocument::fromJson(m_buffer.mid(end + 4, length)).object();
            m_buffer.remove(0, end + 4 + length);
            const double ms = m_waiting.nsecsElapsed() / 1e6;
            m_waiting.invalidate();
            if (m_stage == 0) { // initialize answered: send initialized, then work
                m_stage = 1;
                post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
                continue;
            }
            if (m_stage == 1 && status == 202) {
                m_stage = 2;
                next();
                continue;
            }
            ++m_stats->calls;
            m_stats->latencyMs << ms;
            const QJsonObject result = reply.value("result").toObject();
            if (status != 200 || result.isEmpty())
                ++m_stats->failures;
            else if (result.value("isError").toBool())
                ++(result.value("structuredContent").toObject().value("status").toString() == QStringLiteral("error") ? m_stats->errors
                                                                                                                   : m_stats->failures);
            next();
        }
    }

    QString m_name;
    quint16 m_port;
    Stats *m_stats;
    QTcpSocket m_socket;
    QByteArray m_buffer;
    QByteArray m_session;
    QElapsedTimer m_waiting;
    int m_stage = 0;
    int m_n = 0;
    bool m_stopped = false;
};
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    auto argument = [&](const QString &name, int fallback) {
        const qsizetype i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? args.at(i + 1).toInt() : fallback;
    };
    const int seconds = argument(QStringLiteral("--seconds"), 120);
    const int reportEvery = argument(QStringLiteral("--report-every"), 30);

    EngineClient engine;
    Session session(&engine);
    ToolRegistry tools;
    JobHandles jobs(&session);
    tools.add(evaluateLispTool(&session, &jobs));
    McpServer server(&session, &tools);
    QTemporaryDir dir;
    Journal journal;
    journal.open(dir.filePath(QStringLiteral("soak.jsonl")));
    journal.attach(&session);
    HttpTransport::Options options;
    options.port = 0;
    options.token = Token;
    HttpTransport transport(&server, options);
    if (!transport.listen()) {
        std::fprintf(stderr, "cannot listen: %s\n", qPrintable(transport.errorString()));
        return 1;
    }
    int restarts = 0;
    QObject::connect(&session, &Session::engineStatus, &app, [&](Session::EngineStatus state, const QString &) {
        restarts += state == Session::EngineStatus::Restarting;
    });

    Stats person{QStringLiteral("person")};
    Stats agentA{QStringLiteral("agent-a")};
    Stats agentB{QStringLiteral("agent-b")};
    std::unique_ptr<HttpAgent> a;
    std::unique_ptr<HttpAgent> b;
    QElapsedTimer clock;
    const qint64 startRss = residentKiB();
    qint64 peakRss = startRss;

    // The person: types something about every 100 ms, waiting for each answer like a REPL.
    int personN = 0;
    quint64 personPending = 0;
    QElapsedTimer personWaiting;
    QTimer personTimer;
    personTimer.setInterval(100);
    QObject::connect(&personTimer, &QTimer::timeout, &app, [&] {
        if (personPending)
            return;
        JobRequest request;
        request.code = workload(QStringLiteral("me"), ++personN);
        personPending = session.submit(request);
        personWaiting.start();
    });
    QObject::connect(&session, &Session::finished, &app, [&](JobPtr e) {
        if (e->id != personPending)
            return;
        personPending = 0;
        ++person.calls;
        person.latencyMs << personWaiting.nsecsElapsed() / 1e6;
        if (e->result.status == JobResult::Status::Error)
            ++person.errors;
        else if (!e->result.ok())
            ++person.failures;
    });

    QTimer report;
    report.setInterval(reportEvery * 1000);
    QObject::connect(&report, &QTimer::timeout, &app, [&] {
        const qint64 rss = residentKiB();
        peakRss = qMax(peakRss, rss);
        std::printf("t=%4llds RSS %lld KiB, transcript %lld, calls person %d, agent-a %d, agent-b %d, engine restarts %d\n",
                    clock.elapsed() / 1000, rss, qint64(session.transcript().size()), person.calls, agentA.calls, agentB.calls, restarts);
        std::fflush(stdout);
    });

    QObject::connect(&engine, &EngineClient::ready, &app, [&] {
        if (clock.isValid())
            return;
        clock.start();
        a = std::make_unique<HttpAgent>(QStringLiteral("agent-a"), transport.port(), &agentA);
        b = std::make_unique<HttpAgent>(QStringLiteral("agent-b"), transport.port(), &agentB);
        personTimer.start();
        report.start();
        QTimer::singleShot(seconds * 1000, &app, [&] {
            personTimer.stop();
            a->stop();
            b->stop();
            // Let the calls in flight finish, then report.
            QTimer::singleShot(3000, &app, [&] {
                const bool stuck = a->idleFor(2500) || b->idleFor(2500) || personPending;
                std::printf("\nsoak of %d s (two HTTP agents and the person at once; journal on):\n", seconds);
                for (const Stats *s : {&person, &agentA, &agentB})
                    std::printf("  %s\n", qPrintable(s->line()));
                const int all = person.calls + agentA.calls + agentB.calls;
                std::printf("  total %d evaluations (%.1f/s), engine restarts %d, journal records %d\n", all,
                            all / double(seconds), restarts, journal.recordsWritten());
                std::printf("  host RSS: start %lld KiB, peak %lld KiB, end %lld KiB\n", startRss, qMax(peakRss, residentKiB()), residentKiB());
                std::printf("  %s\n", stuck ? "SOMETHING WAS NEVER ANSWERED" : "every call was answered");
                app.exit(stuck || person.failures + agentA.failures + agentB.failures > 0 ? 1 : 0);
            });
        });
    });
    engine.start();
    return app.exec();
}

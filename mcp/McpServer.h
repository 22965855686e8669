#pragma once

#include "McpPeer.h"

#include <QJsonArray>
#include <QObject>
#include <QPointer>
#include <functional>

class Session;
class ToolRegistry;
class Tool;

// The MCP protocol, independent of transports: a table of methods, tool calls turned into
// Session work, cancellation, progress, logging. Transports create a peer per client and
// hand it every message they read; the peer's message() signal carries what to write back.
// Nothing here blocks: a slow evaluation never delays ping or another client.
class McpServer : public QObject
{
    Q_OBJECT
public:
    // Decides whether a call may run (agent access: allow, ask, read-only, paused). Call
    // `proceed` with an empty refusal to run it, or with the sentence the agent should read.
    using CallGate = std::function<void(McpPeer *peer, Tool *tool, const ToolCallPtr &call,
                                        std::function<void(const QString &refusal)> proceed)>;

    McpServer(Session *session, ToolRegistry *tools, QObject *parent = nullptr);

    static QStringList supportedProtocolVersions();
    static constexpr int MaxMessageBytes = 8 * 1024 * 1024;

    Session *session() const { return m_session; }
    ToolRegistry *tools() const { return m_tools; }
    void setCallGate(CallGate gate) { m_gate = std::move(gate); }
    void setInstructions(const QString &text) { m_instructions = text; }

    McpPeer *createPeer(const QString &transport);
    void closePeer(McpPeer *peer); // cancels its calls; deletes it later
    QList<McpPeer *> peers() const;

    // Parses and handles one message (or a 2025-03-26 batch) from the peer.
    void receive(McpPeer *peer, const QByteArray &bytes);
    void handle(McpPeer *peer, const QJsonObject &message);

    // notifications/message to every peer whose level lets it through.
    void log(const QString &level, const QString &logger, const QJsonValue &data);
    // Sends a notification to every initialized peer.
    void broadcast(const QString &method, const QJsonObject &params = {});

    using MethodHandler = std::function<void(McpPeer *, const QJsonValue &id, const QJsonObject &params)>;
    // Lets other parts (resources) add methods without touching this class.
    void addMethod(const QString &method, MethodHandler handler);
    QJsonObject &capabilities() { return m_capabilities; }

Q_SIGNALS:
    void peerCreated(McpPeer *peer);
    void peerInitialized(McpPeer *peer);
    void peerClosed(McpPeer *peer);
    // For the window's tool-call log: every request, and the response it got.
    void requestReceived(McpPeer *peer, const QJsonObject &request);
    void responseSent(McpPeer *peer, const QJsonValue &id, const QJsonObject &response);
    void toolCallQueued(McpPeer *peer, const QJsonValue &id, const ToolCallPtr &call);
    void toolCallRefused(McpPeer *peer, const QJsonValue &id, const QString &reason);

private:
    void respond(McpPeer *peer, const QJsonValue &id, const QJsonObject &response);
    void onInitialize(McpPeer *peer, const QJsonValue &id, const QJsonObject &params);
    void onToolsCall(McpPeer *peer, const QJsonValue &id, const QJsonObject &params);
    void onCancelled(McpPeer *peer, const QJsonObject &params);
    void runCall(McpPeer *peer, const QJsonValue &id, Tool *tool, const ToolCallPtr &call);
    QJsonObject toolResultJson(McpPeer *peer, const ToolResult &result);

    Session *m_session;
    ToolRegistry *m_tools;
    CallGate m_gate;
    QString m_instructions;
    QJsonObject m_capabilities;
    QHash<QString, MethodHandler> m_methods;
    QList<QPointer<McpPeer>> m_peers;
    quint64 m_nextPeer = 1;
};

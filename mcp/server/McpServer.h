#pragma once

#include "client/LineBuffer.h"
#include "jsonrpc/JsonRpc.h"
#include "ListenSubscriptions.h"
#include "McpPeer.h"
#include "McpResponder.h"
#include "ModernAnswers.h"
#include "OutgoingRequests.h"
#include "RequestEnvelope.h"
#include "ToolCallHandler.h"

#include <QJsonArray>
#include <QObject>
#include <QPointer>
#include <functional>
#include <optional>

class ClientPresence;
class Session;
class ToolRegistry;
class Tool;

// The MCP protocol, independent of transports: one entry for the messages every transport
// reads (receive, or its two steps parse and dispatch), which decides each request's era
// (RequestEnvelope: 2026-07-28 stateless, or the initialize handshake's), a table of methods
// whose handlers all answer through an McpResponder (tools/call's is ToolCallHandler),
// cancellation, progress, logging, change notifications (legacy peers and 2026-07-28
// subscriptions/listen streams), and requests of our own to a client. Transports create a
// peer per client; the peer's message() signal carries what to write back. Nothing here
// blocks: a slow evaluation never delays ping or another client.
class McpServer : public QObject
{
    Q_OBJECT
public:
    // Agent access's: whether a tool call may run, and how it asks the person at its client.
    using CallGate = ToolCallHandler::CallGate;
    using AskerFor = ToolCallHandler::AskerFor;
    using MethodHandler = std::function<void(const McpResponder &responder, const QJsonObject &params)>;
    using NotificationHandler = std::function<void(McpPeer *peer, const QJsonObject &params)>;
    // The revisions a method exists in: initialize, ping, logging/setLevel and
    // resources/(un)subscribe are legacy only; server/discover and subscriptions/listen modern.
    enum class Eras { Legacy = 1, Modern = 2, Both = 3 };

    McpServer(Session *session, ToolRegistry *tools, QObject *parent = nullptr);

    // The revisions initialize negotiates (newest first); the stateless ones; both.
    static QStringList supportedProtocolVersions() { return RequestEnvelope::legacyVersions(); }
    static QStringList modernProtocolVersions() { return RequestEnvelope::modernVersions(); }
    static QStringList allProtocolVersions() { return modernProtocolVersions() + supportedProtocolVersions(); }
    static QJsonObject serverInfo(); // {name, title, version}
    // The activity key of a stateless request that comes without a connection of its own
    // (HTTP): its client by name and version ("http:claude-code/2.1.0"), or one key for every
    // client that does not say who it is. That key's digest is "since this client's last call".
    static QString statelessActivityKey(const RequestEnvelope &envelope);
    static constexpr int MaxMessageBytes = 8 * 1024 * 1024;
    // What a line transport answers for a message over MaxMessageBytes (LineBuffer drops it).
    static QJsonObject oversizedMessageError();

    Session *session() const { return m_session; }
    ToolRegistry *tools() const { return m_tools; }
    void setCallGate(CallGate gate) { m_toolCalls.setCallGate(std::move(gate)); }
    void setAskerFor(AskerFor askerFor) { m_toolCalls.setAskerFor(std::move(askerFor)); }
    void setInstructions(const QString &text) { m_instructions = text; }

    McpPeer *createPeer(const QString &transport, const QString &activityKey = {});
    void closePeer(McpPeer *peer); // cancels its calls; deletes it later
    QList<McpPeer *> peers() const;
    // Who is here and who left lately (transports report clients that leave silently).
    ClientPresence *presence() const { return m_presence; }

    // What a received message is and what it needs, decided once at the entry, before anything
    // handles it: everything a transport that answers each request on a channel of its own
    // (HTTP) must know, so that it never reads the message itself.
    struct Received
    {
        JsonRpc::Message::Kind kind = JsonRpc::Message::Kind::Invalid;
        QJsonValue id = QJsonValue::Undefined; // requests and responses
        bool opensSession = false; // a handshake's initialize: a new peer serves it (HTTP: a new Mcp-Session-Id)
        bool stateless = false;    // 2026-07-28: no session (HTTP: a request is a peer of its own)
        bool needsStream = false;  // notifications of this request come before its answer
        std::optional<QString> name; // what the request is about (a tool, a prompt, a URI): Mcp-Name's value
        // The error answer when the message is refused as a whole (not JSON-RPC, a batch, a bad
        // envelope, a method its revision lacks, an id still in flight); empty otherwise.
        // Accepted requests are answered through the peer, now or later.
        QJsonObject refusal;
        int httpStatus = 200; // 200: a request waits for its answer; 202: nothing answers it; 400, 404: refused
        bool isRefused() const { return !refusal.isEmpty(); }
    };

    // The entry of every message a client sends, as bytes. A stream transport (stdio, local
    // socket) calls receive(): a refusal goes to the peer like any answer, and a 2025-03-26
    // batch is taken apart. HTTP takes the steps itself: parse() (the one place where a
    // client's bytes are parsed), admit() with the envelope it read (the body's _meta and the
    // MCP-Protocol-Version header), before it has a peer (an initialize makes one) and again on
    // the peer it chose, then binds the POST to the request and calls dispatch().
    Received receive(McpPeer *peer, const QByteArray &bytes);
    // A stream transport's lines (LineBuffer): each non-blank line to receive(), each line
    // dropped for its size answered with oversizedMessageError(). Stops when `stillOpen` says
    // the connection went away while a message was handled.
    void receiveLines(McpPeer *peer, const LineBuffer::Lines &lines, const std::function<bool()> &stillOpen = {});
    static JsonRpc::Message parse(const QByteArray &bytes);
    Received admit(const JsonRpc::Message &message, const RequestEnvelope &envelope, const McpPeer *peer = nullptr) const;
    // Handles a message admit() accepted: a request is answered through the peer, now or later.
    void dispatch(McpPeer *peer, const JsonRpc::Message &message, const RequestEnvelope &envelope);

    // notifications/message to every initialized peer whose level lets it through, and to
    // every 2026-07-28 request in flight that asked for that level (on its own stream).
    void log(const QString &level, const QString &logger, const QJsonValue &data);
    // A change notification: to every initialized (legacy) peer, and to every
    // subscriptions/listen stream that asked for it.
    void broadcast(const QString &method, const QJsonObject &params = {});
    // notifications/resources/updated to the legacy peers subscribed to `uri` and the streams
    // that listen for it.
    void notifyResourceUpdated(const QString &uri);

    // Asks a client something (roots/list). Legacy peers only: 2026-07-28 has no
    // server-initiated requests. The callback runs once, with the answer or why none came.
    using Answer = OutgoingRequests::Answer;
    QJsonValue sendRequest(McpPeer *peer, const QString &method, const QJsonObject &params,
                           std::function<void(const Answer &answer)> callback,
                           int timeoutMs = OutgoingRequests::DefaultTimeoutMs);

    // Lets other parts (resources, prompts, completion, roots) add methods and notifications
    // without touching this class.
    void addMethod(const QString &method, MethodHandler handler, Eras eras = Eras::Both);
    void addNotification(const QString &method, NotificationHandler handler);
    QJsonObject &capabilities() { return m_capabilities; }
    // The caching hints (ttlMs, cacheScope) a 2026-07-28 result of `method` carries.
    void setCacheHint(const QString &method, int ttlMs, bool isPublic) { m_modern.setCacheHint(method, ttlMs, isPublic); }

Q_SIGNALS:
    void peerCreated(McpPeer *peer);
    void peerInitialized(McpPeer *peer);
    void peerClosed(McpPeer *peer);
    // Every response sent (stdio's end waits for the last one).
    void responseSent(McpPeer *peer, const QJsonValue &id, const McpMessage &response);
    // For an inspector (the window's Tool calls panel): every accepted request as one trace,
    // which the server, the access gate and the tools keep up to date until it ends. A signal
    // rather than a registered interface, so that an inspector that goes first (the window
    // closes before the app's services) leaves nothing dangling.
    void requestTraced(const RequestTracePtr &trace);

private:
    friend class McpResponder;
    // The one way out for responses: at most one per request.
    void respond(McpPeer *peer, const QJsonValue &id, const QJsonObject &response);
    void deliver(McpPeer *peer, const QJsonValue &id, const McpMessage &answer, std::optional<RequestTrace::State> state);
    bool hasMethod(const QString &method, RequestEnvelope::Era era) const;
    Received take(McpPeer *peer, const JsonRpc::Message &message); // admit on a stream's peer, then dispatch
    void onRequest(McpPeer *peer, const JsonRpc::Message &message, const RequestEnvelope &envelope);
    void onNotification(McpPeer *peer, const JsonRpc::Message &message);
    void onInitialize(const McpResponder &responder, const QJsonObject &params);
    void onDiscover(const McpResponder &responder);
    void onListen(const McpResponder &responder, const QJsonObject &params);
    void onCancelled(McpPeer *peer, const QJsonObject &params);

    struct Method
    {
        MethodHandler handler;
        Eras eras = Eras::Both;
        bool streams = false; // its answer is a stream of notifications (subscriptions/listen)
    };

    Session *m_session;
    ToolRegistry *m_tools;
    ModernAnswers m_modern; // what every 2026-07-28 answer adds
    ToolCallHandler m_toolCalls;
    QString m_instructions;
    QJsonObject m_capabilities;
    QHash<QString, Method> m_methods;
    QHash<QString, NotificationHandler> m_notifications;
    QList<QPointer<McpPeer>> m_peers;
    ListenSubscriptions m_subscriptions;
    OutgoingRequests m_outgoing;
    quint64 m_nextPeer = 1;
    ClientPresence *m_presence = nullptr;
};

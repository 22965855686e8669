#pragma once

#include "jsonrpc/JsonRpc.h"
#include "McpMessage.h"
#include "toolapi/Tool.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QSet>

// One MCP client connection: a stdio or local-socket connection, one Mcp-Session-Id over
// HTTP, or one stateless (2026-07-28) HTTP request. It holds what the client told us (protocol
// version, clientInfo, capabilities, log level, subscriptions) and its requests in flight.
// Outgoing messages leave through message(); the transport that created the peer serializes
// and writes them.
class McpPeer : public QObject
{
    Q_OBJECT
public:
    McpPeer(const QString &key, const QString &transport, QObject *parent = nullptr)
        : QObject(parent), m_key(key), m_transport(transport), m_activityKey(key) {}

    QString key() const { return m_key; }
    QString transport() const { return m_transport; }
    // Whose "since your last call" digest this peer reads, and the clientKey of its calls'
    // origin: the connection itself, except for stateless HTTP requests, which share the key
    // of what they carry (McpServer::statelessActivityKey).
    QString activityKey() const { return m_activityKey; }
    void setActivityKey(const QString &key) { m_activityKey = key; }

    // True once the legacy initialize handshake was answered.
    bool isInitialized() const { return m_initialized; }
    // A client that went away without ending its session (an HTTP client whose event stream
    // closed, or idle past the presence timeout): when it left; invalid while it is here.
    // McpServer::setPeerPresent sets it; a new request brings it back.
    const QDateTime &leftAt() const { return m_leftAt; }
    bool hasLeft() const { return m_leftAt.isValid(); }
    void setLeftAt(const QDateTime &at) { m_leftAt = at; }
    QString protocolVersion() const { return m_protocolVersion; }
    QJsonObject clientInfo() const { return m_clientInfo; }
    QJsonObject clientCapabilities() const { return m_clientCapabilities; }
    QString clientName() const
    {
        const QString name = m_clientInfo.value(QStringLiteral("name")).toString();
        return name.isEmpty() ? QStringLiteral("agent") : name;
    }
    Origin origin() const { return Origin::agent(clientName(), m_activityKey); }

    QString logLevel() const { return m_logLevel; }
    void setLogLevel(const QString &level) { m_logLevel = level; }
    QSet<QString> &subscriptions() { return m_subscriptions; } // legacy resources/subscribe
    const QSet<QString> &subscriptions() const { return m_subscriptions; }

    void setInitialized(const QString &version, const QJsonObject &clientInfo, const QJsonObject &capabilities = {})
    {
        m_protocolVersion = version;
        m_clientInfo = clientInfo;
        m_clientCapabilities = capabilities;
        m_initialized = true;
    }
    // A stateless request names its client on every request; the newest name is shown.
    void noteClientInfo(const QJsonObject &clientInfo)
    {
        if (!clientInfo.value(QStringLiteral("name")).toString().isEmpty())
            m_clientInfo = clientInfo;
    }

    // A request the server accepted and has not answered: McpServer's bookkeeping. A tool call
    // keeps its ToolCall here, for cancellation; a modern request its era and log level.
    struct InFlight
    {
        QJsonValue id;
        QString method;
        bool modern = false;
        QString logLevel;          // modern: the lowest notifications/message level it wants
        bool subscription = false; // an open subscriptions/listen stream: never answered by itself
        ToolCallPtr call;
        QJsonObject clientCapabilities; // modern: what this request's _meta declared
        RequestTracePtr trace;          // what the window shows of it
    };
    // Requests that wait for an answer (an open subscription waits for none).
    bool hasRequestsInFlight() const
    {
        for (const InFlight &request : m_requests) {
            if (!request.subscription)
                return true;
        }
        return false;
    }
    bool isInFlight(const QJsonValue &id) const { return m_requests.contains(JsonRpc::idKey(id)); }
    void beginRequest(const InFlight &request) { m_requests.insert(JsonRpc::idKey(request.id), request); }
    void beginRequest(const QJsonValue &id)
    {
        InFlight request;
        request.id = id;
        beginRequest(request);
    }
    void attachCall(const QJsonValue &id, const ToolCallPtr &call) { m_requests[JsonRpc::idKey(id)].call = call; }
    void markSubscription(const QJsonValue &id) { m_requests[JsonRpc::idKey(id)].subscription = true; }
    ToolCallPtr callOf(const QJsonValue &id) const { return m_requests.value(JsonRpc::idKey(id)).call; }
    const InFlight *inFlight(const QJsonValue &id) const
    {
        const auto it = m_requests.constFind(JsonRpc::idKey(id));
        return it == m_requests.constEnd() ? nullptr : &*it;
    }
    QList<InFlight> requestsInFlight() const { return m_requests.values(); }
    // False when the request was not in flight (answered already, or abandoned).
    bool endRequest(const QJsonValue &id) { return m_requests.remove(JsonRpc::idKey(id)) > 0; }
    QList<InFlight> endAllRequests() { return std::exchange(m_requests, {}).values(); }

    // A notification, a request of the server, or an error about the connection itself.
    // `relatedRequest` is the client's request it belongs to (progress during it), or
    // undefined for messages of the connection itself.
    void send(const McpMessage &message, const QJsonValue &relatedRequest = QJsonValue::Undefined)
    {
        Q_EMIT this->message(message, relatedRequest, false);
    }
    // The response that ends request `id`: McpServer::respond sends it, once.
    void sendResponse(const McpMessage &response, const QJsonValue &id) { Q_EMIT message(response, id, true); }
    // The request will get no response (the client cancelled it): a transport that holds
    // something open for it (an HTTP POST waiting for its answer) ends that now.
    void abandon(const QJsonValue &id) { Q_EMIT requestAbandoned(id); }

Q_SIGNALS:
    // Transports write message.text(); the window and the tests may read it as an object.
    void message(const McpMessage &message, const QJsonValue &relatedRequest, bool endsRequest);
    void requestAbandoned(const QJsonValue &id);

private:
    QString m_key;
    QString m_transport;
    QString m_activityKey;
    bool m_initialized = false;
    QDateTime m_leftAt;
    QString m_protocolVersion;
    QJsonObject m_clientInfo;
    QJsonObject m_clientCapabilities;
    QString m_logLevel = QStringLiteral("info");
    QSet<QString> m_subscriptions;
    QHash<QString, InFlight> m_requests; // by JsonRpc::idKey
};

#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QSet>

class HttpConnection;
class McpPeer;

// One Mcp-Session-Id: its peer, and where the peer's messages go. A response (and the progress
// before it) goes to the POST that carried the request, as JSON or as an event stream; messages
// of the session itself (list_changed, resources/updated, logging) go to the GET stream.
class HttpSession : public QObject
{
    Q_OBJECT
public:
    HttpSession(const QByteArray &id, McpPeer *peer, QObject *parent = nullptr);
    ~HttpSession() override;

    QByteArray id() const { return m_id; }
    McpPeer *peer() const { return m_peer; }

    void touch() { m_lastUsed.start(); }
    bool isIdleFor(qint64 ms) const;
    qint64 idleMs() const { return m_lastUsed.elapsed(); }

    // The connection waiting for the response to request `key` (JsonRpc::idKey); with
    // `eventStream` it has already started an SSE response.
    void addPending(const QString &key, HttpConnection *connection, bool eventStream,
                    const QList<QPair<QByteArray, QByteArray>> &extraHeaders = {});
    bool hasPending(const QString &key) const { return m_pending.contains(key); }
    // The request will get no JSON-RPC response (it was cancelled): end its HTTP response.
    void abandonPending(const QString &key);

    void setEventStream(HttpConnection *connection);
    HttpConnection *eventStream() const { return m_stream; }
    QList<HttpConnection *> streamingConnections() const;

    // While the transport hands one POST to the server, errors the server sends without a
    // request to relate them to belong to that POST's HTTP response.
    void beginCapture();
    QList<QJsonObject> endCapture();

    // Sends a message as if the peer had sent it (relatedRequest as in McpPeer::message).
    void deliver(const QJsonObject &message, const QJsonValue &relatedRequest) { route(message, relatedRequest); }

    void end(); // DELETE or expiry: close every connection of this session

private:
    struct Pending
    {
        QPointer<HttpConnection> connection;
        bool eventStream = false;
        QList<QPair<QByteArray, QByteArray>> extraHeaders;
    };
    void route(const QJsonObject &message, const QJsonValue &relatedRequest);

    QByteArray m_id;
    QPointer<McpPeer> m_peer;
    QHash<QString, Pending> m_pending;
    QSet<HttpConnection *> m_watched; // connections whose closing we listen for
    QPointer<HttpConnection> m_stream;
    QElapsedTimer m_lastUsed;
    bool m_capturing = false;
    QList<QJsonObject> m_captured;
};

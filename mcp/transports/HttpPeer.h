#pragma once

#include "http/HttpResponse.h"
#include "server/McpMessage.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QSet>

class HttpConnection;
class McpPeer;

// The HTTP side of one McpPeer (one Mcp-Session-Id, or one stateless 2026-07-28 request):
// where the peer's messages go. A response, and the progress before it, goes to the POST that
// carried its request, as JSON or as an event stream; the peer's own messages (list_changed,
// resources/updated, logging) go to the GET stream, and so do the server's requests to the
// client (roots/list), which wait for that stream when it is not open yet. Every message is
// serialized once, here.
class HttpPeer : public QObject
{
    Q_OBJECT
public:
    HttpPeer(const QByteArray &sessionId, McpPeer *peer, QObject *parent = nullptr);
    ~HttpPeer() override;

    QByteArray sessionId() const { return m_sessionId; } // the Mcp-Session-Id header; empty: stateless
    McpPeer *peer() const { return m_peer; }

    void touch()
    {
        m_lastUsed.start();
        if (!m_stream)
            m_hadStream = false; // it goes on without its event stream: judged by its requests
    }
    // Whether the client is still there: its event stream is open or a request waits for its
    // answer; else a client whose stream closed left `streamGoneMs` after (an SDK client that
    // crashed or called close()), and one that never kept a stream after `idleMs` unused.
    bool isPresent(qint64 idleMs, qint64 streamGoneMs) const;
    bool isIdleFor(qint64 ms) const;
    qint64 idleMs() const { return m_lastUsed.elapsed(); }

    // The POST that waits for the answer to request `id`: bound once the server has admitted
    // the request and before it handles it, so that an answer given at once finds it. With
    // `eventStream` it answers as Server-Sent Events (progress, then the response).
    void bindRequest(const QJsonValue &id, HttpConnection *connection, bool eventStream, const HttpHeaders &extraHeaders = {});

    void setEventStream(HttpConnection *connection);
    // Once the GET stream's head is out: the server's requests that waited for it.
    void flushHeldRequests();
    QList<HttpConnection *> streamingConnections() const;

    void end(); // DELETE or expiry: close every connection of this peer

    static constexpr int MaxHeldRequests = 16; // server requests waiting for the GET stream

Q_SIGNALS:
    // No POST of this peer waits for an answer any more: its answers went out, were abandoned,
    // or their connections closed. A stateless request's peer ends here.
    void idle();

private:
    struct Pending
    {
        QPointer<HttpConnection> connection; // null once the client gave up waiting
        bool eventStream = false;
        HttpHeaders extraHeaders;
    };
    struct Outgoing
    {
        McpMessage message;
        bool endsRequest = false;
    };
    void route(const McpMessage &message, const QJsonValue &relatedRequest, bool endsRequest);
    void deliver(const QString &key, const Outgoing &outgoing);
    void abandon(const QJsonValue &id);
    void watch(HttpConnection *connection);
    void emitIdleIfSo();

    QByteArray m_sessionId;
    QPointer<McpPeer> m_peer;
    QHash<QString, Pending> m_pending;                // by JsonRpc::idKey
    QSet<HttpConnection *> m_watched;                 // connections whose closing we listen for
    QPointer<HttpConnection> m_stream;
    QList<McpMessage> m_heldRequests; // the server's requests, until a GET stream opens
    QElapsedTimer m_lastUsed;
    bool m_hadStream = false; // its event stream, open or not: the client keeps one
};

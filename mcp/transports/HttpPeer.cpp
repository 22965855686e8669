#include "HttpPeer.h"

#include "http/ServerSentEvents.h"
#include "HttpConnection.h"
#include "jsonrpc/JsonRpc.h"
#include "server/McpPeer.h"

HttpPeer::HttpPeer(const QByteArray &sessionId, McpPeer *peer, QObject *parent)
    : QObject(parent), m_sessionId(sessionId), m_peer(peer)
{
    m_lastUsed.start();
    connect(peer, &McpPeer::message, this, &HttpPeer::route);
    connect(peer, &McpPeer::requestAbandoned, this, &HttpPeer::abandon);
}

HttpPeer::~HttpPeer() = default;

bool HttpPeer::isIdleFor(qint64 ms) const
{
    if (m_stream)
        return false;
    for (const Pending &pending : m_pending) {
        if (pending.connection)
            return false;
    }
    return m_lastUsed.elapsed() > ms;
}

bool HttpPeer::isPresent(qint64 idleMs, qint64 streamGoneMs) const
{
    if (m_stream)
        return true;
    for (const Pending &pending : m_pending) {
        if (pending.connection)
            return true;
    }
    return m_lastUsed.elapsed() < (m_hadStream ? streamGoneMs : idleMs);
}

void HttpPeer::bindRequest(const QJsonValue &id, HttpConnection *connection, bool eventStream, const HttpHeaders &extraHeaders)
{
    const QString key = JsonRpc::idKey(id);
    m_pending.insert(key, {connection, eventStream, extraHeaders});
    watch(connection);
    if (eventStream) {
        HttpResponse head = eventStreamHead();
        for (const auto &header : extraHeaders)
            head.setHeader(header.first, header.second);
        connection->startStream(head);
    }
}

void HttpPeer::watch(HttpConnection *connection)
{
    if (m_watched.contains(connection))
        return; // one watch per connection, however many requests it carries
    m_watched.insert(connection);
    const auto forget = [this, connection] {
        // The client gave up on its responses; the calls themselves go on (only
        // notifications/cancelled cancels), and their answers are dropped.
        m_watched.remove(connection);
        for (Pending &pending : m_pending) {
            if (pending.connection == connection)
                pending.connection = nullptr;
        }
        emitIdleIfSo();
    };
    connect(connection, &HttpConnection::closed, this, forget);
    connect(connection, &QObject::destroyed, this, forget);
}

void HttpPeer::abandon(const QJsonValue &id)
{
    const Pending pending = m_pending.take(JsonRpc::idKey(id));
    if (pending.connection) {
        if (pending.eventStream) {
            pending.connection->endStream();
        } else {
            HttpResponse response;
            response.status = 204;
            pending.connection->respond(response);
        }
    }
    emitIdleIfSo();
}

void HttpPeer::emitIdleIfSo()
{
    for (const Pending &pending : std::as_const(m_pending)) {
        if (pending.connection)
            return;
    }
    Q_EMIT idle();
}

void HttpPeer::setEventStream(HttpConnection *connection)
{
    if (m_stream && m_stream != connection)
        m_stream->endStream(); // one stream per peer: the newer one replaces it
    m_stream = connection;
    m_hadStream = true;
    // The stream's end is when a client that keeps one left (unless it comes back).
    const auto lost = [this, connection] {
        if (m_stream == connection) {
            m_stream = nullptr;
            m_lastUsed.start();
        }
    };
    connect(connection, &HttpConnection::closed, this, lost);
    connect(connection, &QObject::destroyed, this, lost);
}

void HttpPeer::flushHeldRequests()
{
    for (const McpMessage &request : std::exchange(m_heldRequests, {}))
        m_stream->sendStreamData(formatSseEvent(request.text(), "message"));
}

QList<HttpConnection *> HttpPeer::streamingConnections() const
{
    QList<HttpConnection *> list;
    if (m_stream)
        list.append(m_stream);
    for (const Pending &pending : m_pending) {
        if (pending.connection && pending.eventStream)
            list.append(pending.connection);
    }
    return list;
}

void HttpPeer::end()
{
    if (m_stream)
        m_stream->close();
    for (const Pending &pending : std::as_const(m_pending)) {
        if (pending.connection)
            pending.connection->close();
    }
    m_pending.clear();
}

void HttpPeer::route(const McpMessage &message, const QJsonValue &relatedRequest, bool endsRequest)
{
    if (relatedRequest.isUndefined()) {
        if (m_stream) {
            m_stream->sendStreamData(formatSseEvent(message.text(), "message"));
        } else if (message.object().contains(QStringLiteral("id")) && m_heldRequests.size() < MaxHeldRequests) {
            // A request of ours (roots/list right after initialized): clients open their GET
            // stream just after that, and the request has its own time limit.
            m_heldRequests.append(message);
        }
        // A notification without a GET stream has nowhere to go; the client did not ask for it.
        return;
    }
    // The transport bound the request's POST before the server saw the request: a request
    // that is not pending any more was answered, or its client gave up on it.
    const QString key = JsonRpc::idKey(relatedRequest);
    if (m_pending.contains(key))
        deliver(key, {message, endsRequest});
}

void HttpPeer::deliver(const QString &key, const Outgoing &outgoing)
{
    const auto it = m_pending.find(key);
    const bool response = outgoing.endsRequest;
    if (!it->connection) {
        if (response)
            m_pending.erase(it); // the client gave up waiting; nothing follows a response
        return;
    }
    HttpConnection *connection = it->connection;
    if (it->eventStream) {
        connection->sendStreamData(formatSseEvent(outgoing.message.text(), "message"));
        if (response) {
            m_pending.erase(it);
            connection->endStream();
            emitIdleIfSo();
        }
        return;
    }
    if (!response)
        return; // a JSON response has no room for notifications before it
    HttpResponse answer = HttpResponse::withBody(200, "application/json", outgoing.message.text());
    for (const auto &header : std::as_const(it->extraHeaders))
        answer.setHeader(header.first, header.second);
    m_pending.erase(it);
    connection->respond(answer);
    emitIdleIfSo();
}

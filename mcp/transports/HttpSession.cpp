#include "HttpSession.h"

#include "HttpConnection.h"
#include "JsonRpc.h"
#include "McpPeer.h"

#include <QJsonDocument>

HttpSession::HttpSession(const QByteArray &id, McpPeer *peer, QObject *parent)
    : QObject(parent), m_id(id), m_peer(peer)
{
    m_lastUsed.start();
    connect(peer, &McpPeer::message, this, &HttpSession::route);
}

HttpSession::~HttpSession() = default;

bool HttpSession::isIdleFor(qint64 ms) const
{
    if (m_stream)
        return false;
    for (const Pending &pending : m_pending) {
        if (pending.connection)
            return false;
    }
    return m_lastUsed.elapsed() > ms;
}

void HttpSession::addPending(const QString &key, HttpConnection *connection, bool eventStream,
                             const QList<QPair<QByteArray, QByteArray>> &extraHeaders)
{
    m_pending.insert(key, {connection, eventStream, extraHeaders});
    if (m_watched.contains(connection))
        return; // one watch per connection, however many requests it carries
    m_watched.insert(connection);
    const auto forget = [this, connection] {
        // The client gave up on its responses; the calls themselves go on (only
        // notifications/cancelled cancels), and their answers are dropped.
        m_watched.remove(connection);
        m_pending.removeIf([connection](const auto &entry) { return entry.value().connection == connection || !entry.value().connection; });
    };
    connect(connection, &HttpConnection::closed, this, forget);
    connect(connection, &QObject::destroyed, this, forget);
}

void HttpSession::abandonPending(const QString &key)
{
    const Pending pending = m_pending.take(key);
    if (!pending.connection)
        return;
    if (pending.eventStream) {
        pending.connection->endStream();
    } else {
        HttpResponse response;
        response.status = 204;
        pending.connection->respond(response);
    }
}

void HttpSession::setEventStream(HttpConnection *connection)
{
    if (m_stream && m_stream != connection)
        m_stream->endStream(); // one stream per session: the newer one replaces it
    m_stream = connection;
}

QList<HttpConnection *> HttpSession::streamingConnections() const
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

void HttpSession::beginCapture()
{
    m_capturing = true;
    m_captured.clear();
}

QList<QJsonObject> HttpSession::endCapture()
{
    m_capturing = false;
    return std::exchange(m_captured, {});
}

void HttpSession::end()
{
    if (m_stream)
        m_stream->close();
    for (const Pending &pending : std::as_const(m_pending)) {
        if (pending.connection)
            pending.connection->close();
    }
    m_pending.clear();
}

void HttpSession::route(const QJsonObject &message, const QJsonValue &relatedRequest)
{
    const QByteArray json = QJsonDocument(message).toJson(QJsonDocument::Compact);
    if (relatedRequest.isUndefined()) {
        if (m_capturing) {
            m_captured.append(message);
        } else if (m_stream) {
            m_stream->sendStreamData(formatSseEvent(json, "message"));
        }
        // Without a GET stream there is nowhere to send it; the client did not ask for it.
        return;
    }
    const QString key = JsonRpc::idKey(relatedRequest);
    const auto it = m_pending.constFind(key);
    if (it == m_pending.constEnd() || !it->connection)
        return; // the client gave up waiting
    const bool isResponse = !message.contains(QStringLiteral("method"));
    if (it->eventStream) {
        it->connection->sendStreamData(formatSseEvent(json, "message"));
        if (isResponse) {
            HttpConnection *connection = it->connection;
            m_pending.erase(it);
            connection->endStream();
        }
        return;
    }
    if (!isResponse)
        return; // a JSON response has no room for notifications before it
    HttpResponse response;
    response.setHeader("Content-Type", "application/json");
    for (const auto &header : it->extraHeaders)
        response.setHeader(header.first, header.second);
    response.body = json;
    HttpConnection *connection = it->connection;
    m_pending.erase(it);
    connection->respond(response);
}

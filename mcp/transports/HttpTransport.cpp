#include "HttpTransport.h"

#include "http/ServerSentEvents.h"
#include "HttpPeer.h"
#include "HttpSecurity.h"
#include "json/JsonTextWriter.h"
#include "McpRequestHeaders.h"
#include "server/ClientPresence.h"
#include "server/McpErrors.h"
#include "server/McpServer.h"

#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>

Q_LOGGING_CATEGORY(lcHttp, "duet.http")

namespace {
const QByteArray EndpointPath = "/mcp";
const QByteArray SessionHeader = "Mcp-Session-Id";

// HTTP-level refusals carry a JSON-RPC error without an id, as the TypeScript SDK's server
// does, so a client shows the sentence instead of just a status code.
HttpResponse jsonResponse(int status, const QJsonObject &message)
{
    return HttpResponse::withBody(status, "application/json", JsonTextWriter::compact(message));
}
HttpResponse errorResponse(int status, int code, const QString &message)
{
    return jsonResponse(status, JsonRpc::error(QJsonValue(), code, message));
}
HttpResponse errorResponse(int status, const QString &message)
{
    return errorResponse(status, -32000, message);
}

QByteArray newSessionId()
{
    // 32 random bytes in base64url: 43 visible ASCII characters, as the spec asks.
    quint32 words[8];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char *>(words), sizeof words)
        .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}
} // namespace

HttpTransport::HttpTransport(McpServer *server, const Options &options, QObject *parent)
    : QObject(parent), m_server(server), m_options(options), m_tcp(new QTcpServer(this))
{
    connect(m_tcp, &QTcpServer::newConnection, this, &HttpTransport::onNewConnection);
    m_expiry.setInterval(qBound(1000, m_options.peerIdleMs / 4, 60000));
    connect(&m_expiry, &QTimer::timeout, this, &HttpTransport::expireIdlePeers);
    m_presence.setInterval(qBound(200, m_options.streamGoneMs / 2, 2000));
    connect(&m_presence, &QTimer::timeout, this, &HttpTransport::checkPresence);
    m_keepAlive.setInterval(m_options.keepAliveCommentMs);
    connect(&m_keepAlive, &QTimer::timeout, this, &HttpTransport::sendKeepAlives);
}

HttpTransport::~HttpTransport()
{
    for (HttpPeer *peer : std::as_const(m_peers)) {
        peer->end();
        m_server->closePeer(peer->peer());
    }
    for (HttpPeer *peer : std::as_const(m_requestPeers)) {
        peer->end();
        m_server->closePeer(peer->peer());
    }
}

bool HttpTransport::listen()
{
    if (!m_tcp->listen(m_options.address, m_options.port)) {
        m_error = QStringLiteral("Cannot listen on %1 port %2: %3")
                      .arg(m_options.address.toString())
                      .arg(m_options.port)
                      .arg(m_tcp->serverError() == QAbstractSocket::AddressInUseError
                               ? QStringLiteral("the port is already in use (is another Lisp Duet running? choose another with --port)")
                               : m_tcp->errorString());
        return false;
    }
    m_expiry.start();
    m_keepAlive.start();
    m_presence.start();
    qCInfo(lcHttp) << "MCP over HTTP at" << url();
    return true;
}

quint16 HttpTransport::port() const
{
    return m_tcp->serverPort();
}

QString HttpTransport::url() const
{
    QString host = m_options.address.toString();
    if (m_options.address.protocol() == QAbstractSocket::IPv6Protocol)
        host = QStringLiteral("[%1]").arg(host);
    return QStringLiteral("http://%1:%2/mcp").arg(host).arg(port());
}

void HttpTransport::onNewConnection()
{
    while (QTcpSocket *socket = m_tcp->nextPendingConnection()) {
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        auto *connection = new HttpConnection(socket, m_options.connection, this);
        connect(connection, &HttpConnection::requestReceived, this, &HttpTransport::onRequest);
    }
}

void HttpTransport::onRequest(HttpConnection *connection, const HttpRequest &request)
{
    // Host first: a page that rebinds its DNS name to 127.0.0.1 sends its own name here.
    QStringList extraHosts;
    if (m_options.address != QHostAddress(QHostAddress::LocalHost) && m_options.address != QHostAddress(QHostAddress::LocalHostIPv6))
        extraHosts << m_options.address.toString();
    const bool anyAddress = m_options.address == QHostAddress(QHostAddress::Any) || m_options.address == QHostAddress(QHostAddress::AnyIPv4)
        || m_options.address == QHostAddress(QHostAddress::AnyIPv6);
    if (!HttpSecurity::isAllowedHost(request.header("Host"), port(), extraHosts, anyAddress)) {
        connection->respond(errorResponse(403, QStringLiteral("Host '%1' is not this server; use %2")
                                                   .arg(QString::fromLatin1(request.header("Host")), url())));
        return;
    }
    if (request.hasHeader("Origin") && !HttpSecurity::isAllowedOrigin(request.header("Origin"))) {
        connection->respond(errorResponse(403, QStringLiteral("Origin '%1' may not use this server; only pages on localhost may")
                                                   .arg(QString::fromLatin1(request.header("Origin")))));
        return;
    }
    if (request.hasHeader("Origin")) {
        // A page on localhost (e.g. the MCP Inspector connecting directly) may read our answers.
        connection->setExtraHeaders({{"Access-Control-Allow-Origin", request.header("Origin")},
                                     {"Access-Control-Expose-Headers", "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate"},
                                     {"Vary", "Origin"}});
        if (request.method == "OPTIONS") {
            HttpResponse preflight;
            preflight.status = 204;
            preflight.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE");
            preflight.setHeader("Access-Control-Allow-Headers",
                                "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID");
            preflight.setHeader("Access-Control-Max-Age", "600");
            connection->respond(preflight);
            return;
        }
    }
    if (request.path != EndpointPath) {
        connection->respond(errorResponse(404, QStringLiteral("Nothing at %1; the MCP endpoint is /mcp").arg(QString::fromLatin1(request.path))));
        return;
    }
    if (!m_options.token.isEmpty() && !HttpSecurity::isAuthorized(request.header("Authorization"), m_options.token)) {
        HttpResponse response = errorResponse(401, request.hasHeader("Authorization")
                                                       ? QStringLiteral("The bearer token is wrong; `lisp-duet --print-token` prints the right one")
                                                       : QStringLiteral("Authorization: Bearer TOKEN is required; `lisp-duet --print-token` prints the token"));
        response.setHeader("WWW-Authenticate", "Bearer realm=\"lisp-duet\"");
        connection->respond(response);
        return;
    }
    const QString version = QString::fromLatin1(request.header("MCP-Protocol-Version").trimmed());
    if (request.method != "POST" && RequestEnvelope::isModernVersion(version)) {
        HttpResponse response = errorResponse(405, QStringLiteral("Protocol revision %1 has no GET stream and no session to end: POST "
                                                                  "subscriptions/listen for change notifications").arg(version));
        response.setHeader("Allow", "POST");
        connection->respond(response);
        return;
    }
    // A POST says which era it belongs to in its body too: onPost checks its version.
    if (request.method != "POST" && request.hasHeader("MCP-Protocol-Version") && !McpServer::supportedProtocolVersions().contains(version)) {
        connection->respond(errorResponse(400, QStringLiteral("Unsupported MCP-Protocol-Version '%1'; supported: %2")
                                                   .arg(version, McpServer::supportedProtocolVersions().join(QStringLiteral(", ")))));
        return;
    }
    if (request.method == "POST")
        onPost(connection, request);
    else if (request.method == "GET")
        onGet(connection, request);
    else if (request.method == "DELETE")
        onDelete(connection, request);
    else {
        HttpResponse response = errorResponse(405, QStringLiteral("Method %1 is not allowed; use POST, GET or DELETE").arg(QString::fromLatin1(request.method)));
        response.setHeader("Allow", "GET, POST, DELETE");
        connection->respond(response);
    }
}

HttpPeer *HttpTransport::requirePeer(HttpConnection *connection, const HttpRequest &request)
{
    const QByteArray id = request.header(SessionHeader);
    if (id.isEmpty()) {
        connection->respond(errorResponse(400, QStringLiteral("Bad Request: the Mcp-Session-Id header is required; send initialize first to get one")));
        return nullptr;
    }
    HttpPeer *peer = m_peers.value(id.trimmed());
    if (!peer) {
        connection->respond(errorResponse(404, -32001, QStringLiteral("Session not found: it ended or expired; initialize a new one")));
        return nullptr;
    }
    peer->touch();
    m_server->presence()->setPresent(peer->peer(), true); // back, if it had left
    return peer;
}

HttpPeer *HttpTransport::createPeer()
{
    if (m_peers.size() >= m_options.maxPeers) {
        HttpPeer *oldest = nullptr;
        for (HttpPeer *peer : std::as_const(m_peers)) {
            if (peer->isIdleFor(0) && (!oldest || peer->idleMs() > oldest->idleMs()))
                oldest = peer;
        }
        if (!oldest)
            return nullptr;
        qCInfo(lcHttp) << "too many clients: ending the longest idle one" << oldest->peer()->key();
        endPeer(oldest);
    }
    McpPeer *mcpPeer = m_server->createPeer(QStringLiteral("http"));
    auto *peer = new HttpPeer(newSessionId(), mcpPeer, this);
    m_peers.insert(peer->sessionId(), peer);
    qCInfo(lcHttp) << "new client" << mcpPeer->key();
    return peer;
}

void HttpTransport::endPeer(HttpPeer *peer)
{
    m_peers.remove(peer->sessionId());
    peer->end();
    m_server->closePeer(peer->peer());
    peer->deleteLater();
}

void HttpTransport::onPost(HttpConnection *connection, const HttpRequest &request)
{
    const HttpSecurity::Acceptance accepts = HttpSecurity::parseAccept(request.header("Accept"));
    if (!accepts.json && !accepts.eventStream) {
        connection->respond(errorResponse(406, QStringLiteral("Not Acceptable: the client must accept application/json and text/event-stream")));
        return;
    }
    const QByteArray contentType = request.header("Content-Type");
    if (!contentType.isNull() && !contentType.trimmed().toLower().startsWith("application/json")) {
        connection->respond(errorResponse(415, QStringLiteral("Unsupported Media Type: the body must be application/json")));
        return;
    }
    // The server reads the message and says what it needs; HTTP only finds its peer, binds this
    // POST to it and sends the status.
    const JsonRpc::Message message = McpServer::parse(request.body);
    const RequestEnvelope envelope = RequestEnvelope::of(message, QString::fromLatin1(request.header("MCP-Protocol-Version").trimmed()));
    McpServer::Received admission = m_server->admit(message, envelope);
    // 2026-07-28: a request's standard headers must agree with its body (a malformed _meta says
    // so first: there is nothing to agree with).
    if (admission.stateless && admission.kind == JsonRpc::Message::Kind::Request
        && envelope.problem() != RequestEnvelope::Problem::Malformed) {
        const QString mismatch = McpRequestHeaders::mismatch(request, message.method(), envelope, admission.name);
        if (!mismatch.isEmpty()) {
            connection->respond(jsonResponse(400, JsonRpc::error(message.id(), McpErrors::HeaderMismatch, mismatch)));
            return;
        }
    }
    if (admission.isRefused()) {
        connection->respond(jsonResponse(admission.httpStatus, admission.refusal));
        return;
    }
    if (admission.stateless && admission.kind != JsonRpc::Message::Kind::Request) {
        // 2026-07-28 has no session for a notification or a response to reach (closing a
        // response is how a client cancels its request): accepted, nothing to do.
        respondAccepted(connection);
        return;
    }

    // An initialize that names a session is that session's again (the client re-initializes it).
    const bool creates = admission.opensSession && request.header(SessionHeader).isEmpty();
    HttpPeer *peer = creates ? createPeer() : admission.stateless ? createRequestPeer(envelope) : requirePeer(connection, request);
    if (!peer) {
        if (creates)
            connection->respond(errorResponse(503, QStringLiteral("Too many MCP sessions are busy; end one (DELETE) or try again later")));
        return; // requirePeer answered 400 or 404
    }
    if (!creates && !admission.stateless) {
        admission = m_server->admit(message, envelope, peer->peer()); // an id still in flight on this session
        if (admission.isRefused()) {
            connection->respond(jsonResponse(admission.httpStatus, admission.refusal));
            return;
        }
    }
    if (admission.kind == JsonRpc::Message::Kind::Request) {
        // Notifications of the request (progress...) can only travel on an event stream.
        const bool eventStream = accepts.eventStream && (!accepts.json || admission.needsStream);
        HttpHeaders extraHeaders;
        if (creates)
            extraHeaders.append({SessionHeader, peer->sessionId()});
        peer->bindRequest(admission.id, connection, eventStream, extraHeaders);
    } else {
        respondAccepted(connection); // a notification, or a response to us
    }
    m_server->dispatch(peer->peer(), message, envelope);
    if (creates && !peer->peer()->isInitialized())
        endPeer(peer); // initialize failed: no client to keep
}

void HttpTransport::respondAccepted(HttpConnection *connection)
{
    HttpResponse accepted;
    accepted.status = 202;
    connection->respond(accepted);
}

HttpPeer *HttpTransport::createRequestPeer(const RequestEnvelope &envelope)
{
    // No session: a peer for this request alone, which ends with its answer, or when the
    // client closes the response (which cancels the request).
    McpPeer *mcpPeer = m_server->createPeer(QStringLiteral("http"), McpServer::statelessActivityKey(envelope));
    auto *peer = new HttpPeer({}, mcpPeer, this);
    m_requestPeers.insert(peer);
    connect(peer, &HttpPeer::idle, this, [this, peer] { endRequestPeer(peer); }, Qt::QueuedConnection);
    return peer;
}

void HttpTransport::endRequestPeer(HttpPeer *peer)
{
    if (!m_requestPeers.remove(peer))
        return; // ended already
    peer->end();
    m_server->closePeer(peer->peer()); // a call still running was abandoned by its client: cancelled
    peer->deleteLater();
}

void HttpTransport::onGet(HttpConnection *connection, const HttpRequest &request)
{
    if (!HttpSecurity::parseAccept(request.header("Accept")).eventStream) {
        connection->respond(errorResponse(406, QStringLiteral("Not Acceptable: the GET stream is text/event-stream")));
        return;
    }
    HttpPeer *peer = requirePeer(connection, request);
    if (!peer)
        return;
    peer->setEventStream(connection);
    HttpResponse head = eventStreamHead();
    head.setHeader(SessionHeader, peer->sessionId());
    connection->startStream(head);
    connection->sendStreamData(formatSseComment("stream open"));
    peer->flushHeldRequests();
}

void HttpTransport::onDelete(HttpConnection *connection, const HttpRequest &request)
{
    HttpPeer *peer = requirePeer(connection, request);
    if (!peer)
        return;
    qCInfo(lcHttp) << "the client ended its Mcp-Session-Id" << peer->peer()->key();
    endPeer(peer);
    HttpResponse response;
    response.status = 200;
    connection->respond(response);
}

void HttpTransport::expireIdlePeers()
{
    const QList<HttpPeer *> peers = m_peers.values();
    for (HttpPeer *peer : peers) {
        if (peer->isIdleFor(m_options.peerIdleMs)) {
            qCInfo(lcHttp) << "Mcp-Session-Id expired after" << m_options.peerIdleMs << "ms idle" << peer->peer()->key();
            endPeer(peer);
        }
    }
}

void HttpTransport::checkPresence()
{
    for (HttpPeer *peer : std::as_const(m_peers))
        m_server->presence()->setPresent(peer->peer(), peer->isPresent(m_options.presenceIdleMs, m_options.streamGoneMs));
}

void HttpTransport::sendKeepAlives()
{
    for (const auto &peers : {m_peers.values(), m_requestPeers.values()}) {
        for (HttpPeer *peer : peers) {
            for (HttpConnection *connection : peer->streamingConnections())
                connection->sendStreamData(formatSseComment("keep-alive"));
        }
    }
}

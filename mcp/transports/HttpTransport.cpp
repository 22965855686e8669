#include "HttpTransport.h"

#include "HttpSecurity.h"
#include "HttpSession.h"
#include "JsonRpc.h"
#include "McpServer.h"

#include <QJsonDocument>
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
HttpResponse errorResponse(int status, int code, const QString &message)
{
    HttpResponse response;
    response.status = status;
    response.setHeader("Content-Type", "application/json");
    response.body = QJsonDocument(JsonRpc::error(QJsonValue(), code, message)).toJson(QJsonDocument::Compact);
    return response;
}
HttpResponse errorResponse(int status, const QString &message)
{
    return errorResponse(status, -32000, message);
}

HttpResponse jsonResponse(const QJsonObject &message)
{
    HttpResponse response;
    response.setHeader("Content-Type", "application/json");
    response.body = QJsonDocument(message).toJson(QJsonDocument::Compact);
    return response;
}

HttpResponse eventStreamHead()
{
    HttpResponse head;
    head.setHeader("Content-Type", "text/event-stream");
    head.setHeader("Cache-Control", "no-cache, no-transform");
    head.setHeader("X-Accel-Buffering", "no");
    return head;
}

QByteArray newSessionId()
{
    // 32 random bytes in base64url: 43 visible ASCII characters, as the spec asks.
    quint32 words[8];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char *>(words), sizeof words)
        .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

bool wantsProgress(const QJsonObject &message)
{
    const QJsonValue token = message.value(QStringLiteral("params")).toObject().value(QStringLiteral("_meta")).toObject().value(QStringLiteral("progressToken"));
    return token.isString() || token.isDouble();
}
} // namespace

HttpTransport::HttpTransport(McpServer *server, const Options &options, QObject *parent)
    : QObject(parent), m_server(server), m_options(options), m_tcp(new QTcpServer(this))
{
    connect(m_tcp, &QTcpServer::newConnection, this, &HttpTransport::onNewConnection);
    m_expiry.setInterval(qBound(1000, m_options.sessionIdleMs / 4, 60000));
    connect(&m_expiry, &QTimer::timeout, this, &HttpTransport::expireIdleSessions);
    m_keepAlive.setInterval(m_options.keepAliveCommentMs);
    connect(&m_keepAlive, &QTimer::timeout, this, &HttpTransport::sendKeepAlives);
}

HttpTransport::~HttpTransport()
{
    for (HttpSession *session : std::as_const(m_sessions)) {
        session->end();
        m_server->closePeer(session->peer());
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
                                "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID");
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
    const QByteArray version = request.header("MCP-Protocol-Version");
    if (!version.isNull() && !McpServer::supportedProtocolVersions().contains(QString::fromLatin1(version.trimmed()))) {
        connection->respond(errorResponse(400, QStringLiteral("Unsupported MCP-Protocol-Version '%1'; supported: %2")
                                                   .arg(QString::fromLatin1(version), McpServer::supportedProtocolVersions().join(QStringLiteral(", ")))));
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

HttpSession *HttpTransport::requireSession(HttpConnection *connection, const HttpRequest &request)
{
    const QByteArray id = request.header(SessionHeader);
    if (id.isEmpty()) {
        connection->respond(errorResponse(400, QStringLiteral("Bad Request: the Mcp-Session-Id header is required; send initialize first to get one")));
        return nullptr;
    }
    HttpSession *session = m_sessions.value(id.trimmed());
    if (!session) {
        connection->respond(errorResponse(404, -32001, QStringLiteral("Session not found: it ended or expired; initialize a new one")));
        return nullptr;
    }
    session->touch();
    return session;
}

HttpSession *HttpTransport::createSession()
{
    if (m_sessions.size() >= m_options.maxSessions) {
        HttpSession *oldest = nullptr;
        for (HttpSession *session : std::as_const(m_sessions)) {
            if (session->isIdleFor(0) && (!oldest || session->idleMs() > oldest->idleMs()))
                oldest = session;
        }
        if (!oldest)
            return nullptr;
        qCInfo(lcHttp) << "too many sessions: ending the longest idle one" << oldest->peer()->key();
        endSession(oldest);
    }
    McpPeer *peer = m_server->createPeer(QStringLiteral("http"));
    auto *session = new HttpSession(newSessionId(), peer, this);
    m_sessions.insert(session->id(), session);
    qCInfo(lcHttp) << "new session" << peer->key();
    return session;
}

void HttpTransport::endSession(HttpSession *session)
{
    m_sessions.remove(session->id());
    session->end();
    m_server->closePeer(session->peer());
    session->deleteLater();
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
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(request.body, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        connection->respond(errorResponse(400, JsonRpc::ParseError, QStringLiteral("Parse error: %1 at offset %2").arg(parseError.errorString()).arg(parseError.offset)));
        return;
    }
    if (document.isArray()) {
        connection->respond(errorResponse(400, JsonRpc::InvalidRequest, QStringLiteral("Invalid Request: send one JSON-RPC message per POST (batches are not supported)")));
        return;
    }
    if (!document.isObject()) {
        connection->respond(errorResponse(400, JsonRpc::InvalidRequest, QStringLiteral("Invalid Request: the body must be a JSON-RPC message object")));
        return;
    }
    const QJsonObject message = document.object();
    const bool hasMethod = message.value(QStringLiteral("method")).isString();
    const bool hasId = message.contains(QStringLiteral("id"));
    const bool isRequest = hasMethod && hasId;
    const bool isResponse = !hasMethod && hasId
        && (message.contains(QStringLiteral("result")) || message.contains(QStringLiteral("error")));
    if (!hasMethod && !isResponse) {
        connection->respond(errorResponse(400, JsonRpc::InvalidRequest, QStringLiteral("Invalid Request: neither a request, a notification nor a response")));
        return;
    }
    const QJsonValue id = message.value(QStringLiteral("id"));
    if (isRequest && !JsonRpc::isValidId(id)) {
        connection->respond(errorResponse(400, JsonRpc::InvalidRequest, QStringLiteral("Invalid Request: \"id\" must be a string or an integer")));
        return;
    }

    HttpSession *session = nullptr;
    bool created = false;
    if (isRequest && message.value(QStringLiteral("method")).toString() == QStringLiteral("initialize")
        && request.header(SessionHeader).isEmpty()) {
        session = createSession();
        if (!session) {
            connection->respond(errorResponse(503, QStringLiteral("Too many MCP sessions are busy; end one (DELETE) or try again later")));
            return;
        }
        created = true;
    } else {
        session = requireSession(connection, request);
        if (!session)
            return;
    }
    McpPeer *peer = session->peer();

    if (!isRequest) {
        session->beginCapture();
        m_server->handle(peer, message);
        const QList<QJsonObject> errors = session->endCapture();
        if (!errors.isEmpty()) {
            HttpResponse response = jsonResponse(errors.first());
            response.status = 400;
            connection->respond(response);
            return;
        }
        if (message.value(QStringLiteral("method")).toString() == QStringLiteral("notifications/cancelled")) {
            const QJsonValue requestId = message.value(QStringLiteral("params")).toObject().value(QStringLiteral("requestId"));
            if (JsonRpc::isValidId(requestId)) {
                const QString key = JsonRpc::idKey(requestId);
                if (session->hasPending(key) && !peer->callsInFlight().contains(key))
                    session->abandonPending(key);
            }
        }
        HttpResponse accepted;
        accepted.status = 202;
        connection->respond(accepted);
        return;
    }

    const QString key = JsonRpc::idKey(id);
    if (session->hasPending(key)) {
        connection->respond(jsonResponse(JsonRpc::error(id, JsonRpc::InvalidRequest, QStringLiteral("A request with this id is still in progress"))));
        return;
    }
    QList<QPair<QByteArray, QByteArray>> extraHeaders;
    if (created)
        extraHeaders.append({SessionHeader, session->id()});
    // Progress can only travel on an event stream; everything else is a plain JSON answer.
    const bool eventStream = accepts.eventStream && (!accepts.json || wantsProgress(message));
    session->addPending(key, connection, eventStream, extraHeaders);
    if (eventStream) {
        HttpResponse head = eventStreamHead();
        for (const auto &header : extraHeaders)
            head.setHeader(header.first, header.second);
        connection->startStream(head);
    }
    session->beginCapture();
    m_server->handle(peer, message);
    const QList<QJsonObject> errors = session->endCapture();
    if (!errors.isEmpty() && session->hasPending(key)) {
        // Refused before it reached a method (e.g. "jsonrpc" is not "2.0"): that error is
        // this request's answer.
        session->deliver(errors.first(), id);
    }
    if (created && !peer->isInitialized())
        endSession(session); // initialize failed: no session to keep
}

void HttpTransport::onGet(HttpConnection *connection, const HttpRequest &request)
{
    if (!HttpSecurity::parseAccept(request.header("Accept")).eventStream) {
        connection->respond(errorResponse(406, QStringLiteral("Not Acceptable: the GET stream is text/event-stream")));
        return;
    }
    HttpSession *session = requireSession(connection, request);
    if (!session)
        return;
    session->setEventStream(connection);
    HttpResponse head = eventStreamHead();
    head.setHeader(SessionHeader, session->id());
    connection->startStream(head);
    connection->sendStreamData(formatSseComment("stream open"));
}

void HttpTransport::onDelete(HttpConnection *connection, const HttpRequest &request)
{
    HttpSession *session = requireSession(connection, request);
    if (!session)
        return;
    qCInfo(lcHttp) << "session ended by the client" << session->peer()->key();
    endSession(session);
    HttpResponse response;
    response.status = 200;
    connection->respond(response);
}

void HttpTransport::expireIdleSessions()
{
    const QList<HttpSession *> sessions = m_sessions.values();
    for (HttpSession *session : sessions) {
        if (session->isIdleFor(m_options.sessionIdleMs)) {
            qCInfo(lcHttp) << "session expired after" << m_options.sessionIdleMs << "ms idle" << session->peer()->key();
            endSession(session);
        }
    }
}

void HttpTransport::sendKeepAlives()
{
    for (HttpSession *session : std::as_const(m_sessions)) {
        for (HttpConnection *connection : session->streamingConnections())
            connection->sendStreamData(formatSseComment("keep-alive"));
    }
}

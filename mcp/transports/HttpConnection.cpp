#include "HttpConnection.h"

#include <QLoggingCategory>
#include <QTcpSocket>

#include <sys/socket.h>

Q_LOGGING_CATEGORY(lcHttpConnection, "duet.http.connection")

HttpConnection::HttpConnection(QTcpSocket *socket, const Settings &settings, QObject *parent)
    : QObject(parent), m_socket(socket), m_settings(settings), m_parser(settings.limits)
{
    m_socket->setParent(this);
    m_peerDescription = QStringLiteral("%1:%2").arg(socket->peerAddress().toString()).arg(socket->peerPort()).toUtf8();
    // Deadlines the README promises: a coarse timer may fire up to 5 % early.
    m_requestTimer.setSingleShot(true);
    m_requestTimer.setTimerType(Qt::PreciseTimer);
    m_requestTimer.setInterval(m_settings.requestTimeoutMs);
    m_idleTimer.setSingleShot(true);
    m_idleTimer.setTimerType(Qt::PreciseTimer);
    m_idleTimer.setInterval(m_settings.idleTimeoutMs);
    connect(&m_requestTimer, &QTimer::timeout, this, [this] {
        failAndClose(408, "The request was not sent completely within "
                              + QByteArray::number(m_settings.requestTimeoutMs) + " ms");
    });
    connect(&m_idleTimer, &QTimer::timeout, this, &HttpConnection::close);
    m_lingerTimer.setSingleShot(true);
    m_lingerTimer.setInterval(m_settings.lingerMs);
    connect(&m_lingerTimer, &QTimer::timeout, m_socket, &QTcpSocket::abort);
    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, [this] {
        m_requestTimer.stop();
        m_idleTimer.stop();
        Q_EMIT closed(this);
        deleteLater();
    });
    armTimers();
}

HttpConnection::~HttpConnection() = default;

void HttpConnection::onReadyRead()
{
    if (m_closing) {
        m_socket->readAll(); // the answer is on its way; the rest is not read
        return;
    }
    m_parser.feed(m_socket->readAll());
    // A client may pipeline while we work on a request, but not without bound.
    const qsizetype allowance = m_settings.limits.maxRequestLine + m_settings.limits.maxHeaderSection
        + m_settings.limits.maxBodySize + 64 * 1024;
    if (m_busy && m_parser.bufferedBytes() > allowance) {
        qCWarning(lcHttpConnection) << "closing" << m_peerDescription << ": too much pipelined data";
        m_socket->abort();
        return;
    }
    processBuffered();
}

void HttpConnection::processBuffered()
{
    while (!m_busy && !m_closing) {
        HttpRequest request;
        const HttpRequestParser::Status status = m_parser.next(request);
        if (status == HttpRequestParser::Complete) {
            m_request = std::move(request);
            m_extraHeaders.clear();
            m_busy = true;
            m_keepAlive = m_request.keepAlive();
            armTimers();
            Q_EMIT requestReceived(this, m_request);
            continue;
        }
        if (status == HttpRequestParser::Error) {
            failAndClose(m_parser.errorStatus(), m_parser.errorReason());
            return;
        }
        if (m_parser.takeContinueRequest())
            write("HTTP/1.1 100 Continue\r\n\r\n");
        break;
    }
    armTimers();
}

void HttpConnection::armTimers()
{
    if (m_closing || m_busy) {
        m_requestTimer.stop();
        m_idleTimer.stop();
        return;
    }
    if (m_parser.isIdle()) {
        m_requestTimer.stop();
        m_idleTimer.start();
    } else {
        m_idleTimer.stop();
        if (!m_requestTimer.isActive())
            m_requestTimer.start(); // counts from the request's first byte, not the last read
    }
}

void HttpConnection::addConnectionHeader(HttpResponse &response) const
{
    for (const auto &header : m_extraHeaders)
        response.setHeader(header.first, header.second);
    if (!m_keepAlive)
        response.setHeader("Connection", "close");
    else if (!m_request.isHttp11())
        response.setHeader("Connection", "keep-alive");
}

void HttpConnection::respond(HttpResponse response)
{
    if (!m_busy || m_streaming || m_closing)
        return;
    addConnectionHeader(response);
    write(response.serialize());
    finishRequest();
}

void HttpConnection::startStream(HttpResponse head)
{
    if (!m_busy || m_streaming || m_closing)
        return;
    m_streaming = true;
    m_chunked = m_request.isHttp11();
    if (m_chunked) {
        head.setHeader("Transfer-Encoding", "chunked");
        addConnectionHeader(head);
    } else {
        m_keepAlive = false; // the end of the stream is the end of the connection
        head.setHeader("Connection", "close");
    }
    write(head.serializeHead());
}

void HttpConnection::sendStreamData(const QByteArray &data)
{
    if (!m_streaming || m_closing || data.isEmpty())
        return;
    write(m_chunked ? httpChunk(data) : data);
}

void HttpConnection::endStream()
{
    if (!m_streaming || m_closing)
        return;
    if (m_chunked)
        write(httpLastChunk());
    m_streaming = false;
    finishRequest();
}

void HttpConnection::finishRequest()
{
    m_busy = false;
    if (!m_keepAlive) {
        close();
        return;
    }
    // Let the next pipelined request wait for the event loop, so a burst cannot recurse.
    QMetaObject::invokeMethod(this, &HttpConnection::processBuffered, Qt::QueuedConnection);
    armTimers();
}

void HttpConnection::failAndClose(int status, const QByteArray &reason)
{
    if (m_closing)
        return;
    qCInfo(lcHttpConnection) << "answering" << status << "to" << m_peerDescription << ":" << reason;
    HttpResponse response;
    response.status = status;
    response.setHeader("Content-Type", "text/plain; charset=utf-8");
    response.setHeader("Connection", "close");
    response.body = reason + '\n';
    m_busy = false;
    m_streaming = false;
    write(response.serialize());
    lingerAndClose();
}

void HttpConnection::lingerAndClose()
{
    // The client may still be sending what was refused (a body too large, a request too slow).
    // Closing with its bytes unread makes the kernel reset the connection, and a reset can
    // destroy the answer before the client reads it: it saw "connection reset", not the 413.
    // So the answer is sent, then the sending side shut (the client reads it and an end), and
    // what still arrives is dropped until the client closes, for lingerMs at most.
    if (!beginClosing())
        return;
    if (m_socket->state() != QAbstractSocket::ConnectedState) {
        m_socket->disconnectFromHost();
        return;
    }
    m_lingerTimer.start();
    connect(m_socket, &QTcpSocket::bytesWritten, this, &HttpConnection::stopSendingOnceWritten);
    stopSendingOnceWritten();
}

void HttpConnection::stopSendingOnceWritten()
{
    if (m_socket->bytesToWrite() > 0) {
        m_socket->flush();
        if (m_socket->bytesToWrite() > 0)
            return; // bytesWritten calls again
    }
    disconnect(m_socket, &QTcpSocket::bytesWritten, this, &HttpConnection::stopSendingOnceWritten);
    ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
}

bool HttpConnection::beginClosing()
{
    if (m_closing)
        return false;
    m_closing = true;
    m_requestTimer.stop();
    m_idleTimer.stop();
    if (m_socket->state() == QAbstractSocket::UnconnectedState) {
        Q_EMIT closed(this);
        deleteLater();
        return false;
    }
    return true;
}

void HttpConnection::close()
{
    if (beginClosing())
        m_socket->disconnectFromHost(); // after what is queued has been written
}

void HttpConnection::write(const QByteArray &bytes)
{
    if (m_socket->state() != QAbstractSocket::ConnectedState)
        return;
    m_socket->write(bytes);
    if (m_socket->bytesToWrite() > m_settings.maxPendingWrite) {
        qCWarning(lcHttpConnection) << "closing" << m_peerDescription << ":" << m_socket->bytesToWrite()
                                    << "bytes queued for a client that does not read them";
        m_closing = true;
        m_socket->abort();
    }
}

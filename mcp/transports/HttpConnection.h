#pragma once

#include "http/HttpRequestParser.h"
#include "http/HttpResponse.h"

#include <QObject>
#include <QTimer>

class QTcpSocket;

// One TCP connection of the HTTP transport: reads requests with HttpRequestParser, one at a
// time (a pipelined request waits until the previous one is answered), and writes either a
// whole response or an event stream. Enforces the time a client may take to send a request
// (408), an idle keep-alive limit, and a cap on bytes queued for a client that does not read.
class HttpConnection : public QObject
{
    Q_OBJECT
public:
    struct Settings
    {
        HttpLimits limits;
        int requestTimeoutMs = 10000;           // from a request's first byte to its last
        int idleTimeoutMs = 120000;             // keep-alive connection with nothing to do
        qint64 maxPendingWrite = 16 * 1024 * 1024; // queued for a client that does not read
        int lingerMs = 2000; // after an error answer: how long what the client still sends is dropped
    };

    HttpConnection(QTcpSocket *socket, const Settings &settings, QObject *parent = nullptr);
    ~HttpConnection() override;

    // Ends the current request with a whole response (Content-Length, keep-alive or close).
    void respond(HttpResponse response);
    // Starts a streamed response (Server-Sent Events): chunked on HTTP/1.1, until the
    // connection closes on HTTP/1.0.
    void startStream(HttpResponse head);
    void sendStreamData(const QByteArray &data);
    void endStream(); // ends the current request's stream; the connection may serve the next
    void close();
    // Headers added to whatever answers the current request (CORS for a local page).
    void setExtraHeaders(const HttpHeaders &headers) { m_extraHeaders = headers; }

    bool isBusy() const { return m_busy; }
    bool isStreaming() const { return m_streaming; }
    const HttpRequest &request() const { return m_request; }
    QByteArray peerDescription() const { return m_peerDescription; }

Q_SIGNALS:
    void requestReceived(HttpConnection *connection, const HttpRequest &request);
    void closed(HttpConnection *connection);

private:
    void onReadyRead();
    void processBuffered();
    void finishRequest();
    void failAndClose(int status, const QByteArray &reason);
    void lingerAndClose();
    // Marks the connection closing; false when that is done already, or nothing is left to
    // close (the socket gone: closed() is emitted).
    bool beginClosing();
    void stopSendingOnceWritten();
    void write(const QByteArray &bytes);
    void addConnectionHeader(HttpResponse &response) const;
    void armTimers();

    QTcpSocket *m_socket;
    Settings m_settings;
    HttpRequestParser m_parser;
    HttpRequest m_request;
    HttpHeaders m_extraHeaders;
    QTimer m_requestTimer;
    QTimer m_idleTimer;
    QTimer m_lingerTimer;
    QByteArray m_peerDescription;
    bool m_busy = false;
    bool m_streaming = false;
    bool m_chunked = false;
    bool m_keepAlive = true;
    bool m_closing = false;
};

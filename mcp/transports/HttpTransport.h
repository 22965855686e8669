#pragma once

#include "HttpConnection.h"

#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QTimer>

class HttpSession;
class McpServer;
class QTcpServer;

// MCP Streamable HTTP (2025-11-25) at http://127.0.0.1:PORT/mcp: POST carries one message,
// GET opens the session's event stream, DELETE ends the session. Checks Host, Origin, the
// bearer token and MCP-Protocol-Version before anything else, and never blocks: every call
// is answered when the session finishes it, while other connections go on being served.
class HttpTransport : public QObject
{
    Q_OBJECT
public:
    static constexpr quint16 DefaultPort = 7878;

    struct Options
    {
        QHostAddress address = QHostAddress(QHostAddress::LocalHost);
        quint16 port = DefaultPort; // 0: any free port (tests)
        QByteArray token;           // required as "Authorization: Bearer TOKEN"; empty: no auth
        HttpConnection::Settings connection;
        int sessionIdleMs = 60 * 60 * 1000;
        int keepAliveCommentMs = 15000;
        int maxSessions = 1000; // beyond it the longest-idle session ends (a client looping on initialize)
    };

    HttpTransport(McpServer *server, const Options &options, QObject *parent = nullptr);
    ~HttpTransport() override;

    bool listen();
    QString errorString() const { return m_error; }
    quint16 port() const;
    QString url() const;
    int sessionCount() const { return int(m_sessions.size()); }

private:
    void onNewConnection();
    void onRequest(HttpConnection *connection, const HttpRequest &request);
    void onPost(HttpConnection *connection, const HttpRequest &request);
    void onGet(HttpConnection *connection, const HttpRequest &request);
    void onDelete(HttpConnection *connection, const HttpRequest &request);
    // The session named by Mcp-Session-Id, or nullptr after answering 400/404.
    HttpSession *requireSession(HttpConnection *connection, const HttpRequest &request);
    HttpSession *createSession(); // nullptr when every session is busy and there are too many
    void endSession(HttpSession *session);
    void expireIdleSessions();
    void sendKeepAlives();

    McpServer *m_server;
    Options m_options;
    QTcpServer *m_tcp;
    QString m_error;
    QHash<QByteArray, HttpSession *> m_sessions;
    QTimer m_expiry;
    QTimer m_keepAlive;
};

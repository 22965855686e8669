#pragma once

#include "HttpConnection.h"
#include "jsonrpc/JsonRpc.h"
#include "server/RequestEnvelope.h"

#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QSet>
#include <QTimer>

class HttpPeer;
class McpServer;
class QTcpServer;

// MCP Streamable HTTP at http://127.0.0.1:PORT/mcp, both eras on one endpoint. 2025-11-25 and
// older: POST carries one message, GET opens a client's event stream, DELETE ends its
// Mcp-Session-Id. 2026-07-28 (a request whose _meta or MCP-Protocol-Version says so):
// stateless POSTs with no session, their standard headers checked against the body, each
// served by a peer of its own that ends with its answer; closing the response cancels the
// request. Checks Host, Origin and the bearer token before anything else, and never blocks:
// every call is answered when the Lisp session finishes it, while other connections go on
// being served. Only HTTP lives here: McpServer parses and admits each message and says what
// it needs (a new session, a peer of its own, an event stream, the status code); the transport
// finds or makes the peer, binds the POST to the request, then has the server dispatch it. It
// names no MCP method.
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
        int peerIdleMs = 60 * 60 * 1000; // an Mcp-Session-Id unused this long ends
        int keepAliveCommentMs = 15000;
        int maxPeers = 1000; // beyond it the longest-idle one ends (a client looping on initialize)
        // When the window stops listing a client that went away without ending its session
        // (HttpPeer::isPresent); its session stays valid until peerIdleMs.
        int presenceIdleMs = 10 * 60 * 1000;
        int streamGoneMs = 5000;
    };

    HttpTransport(McpServer *server, const Options &options, QObject *parent = nullptr);
    ~HttpTransport() override;

    bool listen();
    QString errorString() const { return m_error; }
    quint16 port() const;
    QString url() const;
    int peerCount() const { return int(m_peers.size()); } // Mcp-Session-Ids
    int requestPeerCount() const { return int(m_requestPeers.size()); } // stateless requests in flight

private:
    void onNewConnection();
    void onRequest(HttpConnection *connection, const HttpRequest &request);
    void onPost(HttpConnection *connection, const HttpRequest &request);
    static void respondAccepted(HttpConnection *connection); // 202, no body
    HttpPeer *createRequestPeer(const RequestEnvelope &envelope); // a stateless request's own peer
    void endRequestPeer(HttpPeer *peer);
    void onGet(HttpConnection *connection, const HttpRequest &request);
    void onDelete(HttpConnection *connection, const HttpRequest &request);
    // The peer named by Mcp-Session-Id, or nullptr after answering 400/404.
    HttpPeer *requirePeer(HttpConnection *connection, const HttpRequest &request);
    HttpPeer *createPeer(); // nullptr when every peer is busy and there are too many
    void endPeer(HttpPeer *peer);
    void expireIdlePeers();
    void checkPresence();
    void sendKeepAlives();

    McpServer *m_server;
    Options m_options;
    QTcpServer *m_tcp;
    QString m_error;
    QHash<QByteArray, HttpPeer *> m_peers; // by Mcp-Session-Id
    QSet<HttpPeer *> m_requestPeers;       // one per stateless request in flight
    QTimer m_expiry;
    QTimer m_keepAlive;
    QTimer m_presence;
};

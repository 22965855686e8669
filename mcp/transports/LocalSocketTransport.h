#pragma once

#include "client/LineBuffer.h"

#include <QHash>
#include <QObject>

#include <unordered_map>

class McpPeer;
class McpServer;
class QLocalServer;
class QLocalSocket;

// MCP over a local socket (a Unix domain socket in the user's runtime directory, readable by
// the user only): newline-delimited JSON-RPC, one peer per connection, as on stdio. This is
// what lisp-duet-bridge connects to. Closing a connection cancels its calls.
class LocalSocketTransport : public QObject
{
    Q_OBJECT
public:
    static QString defaultName() { return QStringLiteral("lisp-duet"); }
    // path: where the socket lives, absolute (the app's RuntimeDirectory decides which folder
    // a name goes in: app/core/RuntimeDirectory.h).
    LocalSocketTransport(McpServer *server, const QString &path, QObject *parent = nullptr);
    ~LocalSocketTransport() override;

    // Removes a socket file left by a process that died, but never one somebody answers on.
    bool listen();
    QString errorString() const { return m_error; }
    QString path() const { return m_path; }
    int connectionCount() const { return int(m_peers.size()); }

    static constexpr qint64 MaxPendingWrite = 16 * 1024 * 1024;

private:
    void onNewConnection();
    void onReadyRead(QLocalSocket *socket);
    void onDisconnected(QLocalSocket *socket);

    McpServer *m_server;
    QString m_path;
    QLocalServer *m_local;
    QString m_error;
    QHash<QLocalSocket *, McpPeer *> m_peers;
    std::unordered_map<QLocalSocket *, LineBuffer> m_buffers;
};

#include "LocalSocketTransport.h"

#include "jsonrpc/JsonRpc.h"
#include "server/McpServer.h"

#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcLocal, "duet.localsocket")

LocalSocketTransport::LocalSocketTransport(McpServer *server, const QString &path, QObject *parent)
    : QObject(parent), m_server(server), m_path(path), m_local(new QLocalServer(this))
{
    Q_ASSERT(QDir::isAbsolutePath(path));
    m_local->setSocketOptions(QLocalServer::UserAccessOption);
    connect(m_local, &QLocalServer::newConnection, this, &LocalSocketTransport::onNewConnection);
}

LocalSocketTransport::~LocalSocketTransport()
{
    const auto peers = m_peers;
    m_peers.clear();
    for (McpPeer *peer : peers)
        m_server->closePeer(peer);
    m_local->close(); // removes the socket file
}

bool LocalSocketTransport::listen()
{
    // Checked before listen(): with UserAccessOption Qt creates the socket elsewhere and
    // renames it over the path, which would silently take the name from a live server.
    if (QFileInfo::exists(m_path)) {
        QLocalSocket probe;
        probe.connectToServer(m_path);
        if (probe.waitForConnected(1000)) {
            m_error = QStringLiteral("Another Lisp Duet is already serving the local socket %1; choose another with --socket NAME").arg(m_path);
            return false;
        }
        // Nobody answers: a previous run died without removing it.
        qCInfo(lcLocal) << "removing stale socket" << m_path;
        QLocalServer::removeServer(m_path);
    }
    if (m_local->listen(m_path))
        return true;
    m_error = QStringLiteral("Cannot listen on the local socket %1: %2").arg(m_path, m_local->errorString());
    return false;
}

void LocalSocketTransport::onNewConnection()
{
    while (QLocalSocket *socket = m_local->nextPendingConnection()) {
        McpPeer *peer = m_server->createPeer(QStringLiteral("local"));
        m_peers.insert(socket, peer);
        connect(peer, &McpPeer::message, socket, [socket](const McpMessage &message, const QJsonValue &) {
            if (socket->state() != QLocalSocket::ConnectedState)
                return;
            QByteArray line = message.text();
            line.append('\n');
            socket->write(line);
            if (socket->bytesToWrite() > MaxPendingWrite) {
                qCWarning(lcLocal) << "closing a local connection that does not read its replies";
                socket->abort();
            }
        });
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QLocalSocket::disconnected, this, [this, socket] { onDisconnected(socket); });
    }
}

void LocalSocketTransport::onReadyRead(QLocalSocket *socket)
{
    McpPeer *peer = m_peers.value(socket);
    if (!peer)
        return;
    const LineBuffer::Lines lines = m_buffers.try_emplace(socket, McpServer::MaxMessageBytes).first->second.append(socket->readAll());
    m_server->receiveLines(peer, lines, [this, socket] { return m_peers.contains(socket); });
}

void LocalSocketTransport::onDisconnected(QLocalSocket *socket)
{
    McpPeer *peer = m_peers.take(socket);
    m_buffers.erase(socket);
    if (peer)
        m_server->closePeer(peer); // cancels what it was still waiting for
    socket->deleteLater();
}

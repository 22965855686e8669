#pragma once

#include <QObject>
#include <QStringList>

class McpPeer;
class McpServer;

// MCP roots, the server's side: a client that declared the `roots` capability in initialize
// is asked for its roots (roots/list) once it is initialized, and again whenever it sends
// notifications/roots/list_changed. rootsChanged() carries the folders as local paths
// (file:// URIs; other URIs are left out). Legacy revisions only: 2026-07-28 deprecates roots
// and has no server-initiated requests, so a stateless client is never asked.
class ClientRoots : public QObject
{
    Q_OBJECT
public:
    explicit ClientRoots(McpServer *server, QObject *parent = nullptr);

    // The local paths of a roots/list result, in the client's order; file:// URIs only.
    static QStringList localPaths(const QJsonObject &listRootsResult);

Q_SIGNALS:
    void rootsChanged(McpPeer *peer, const QStringList &paths);

private:
    void ask(McpPeer *peer);

    McpServer *m_server;
};

#include "ClientRoots.h"

#include "server/McpServer.h"

#include <QJsonArray>
#include <QLoggingCategory>
#include <QPointer>
#include <QUrl>

Q_LOGGING_CATEGORY(lcRoots, "duet.roots")

namespace {
bool declaresRoots(const McpPeer *peer)
{
    return peer->isInitialized() && peer->clientCapabilities().value(QStringLiteral("roots")).isObject();
}
} // namespace

ClientRoots::ClientRoots(McpServer *server, QObject *parent) : QObject(parent), m_server(server)
{
    connect(server, &McpServer::peerInitialized, this, [this](McpPeer *peer) {
        if (declaresRoots(peer))
            ask(peer);
    });
    server->addNotification(QStringLiteral("notifications/roots/list_changed"), [this](McpPeer *peer, const QJsonObject &) {
        if (declaresRoots(peer))
            ask(peer);
    });
}

void ClientRoots::ask(McpPeer *peer)
{
    QPointer<McpPeer> asked(peer);
    m_server->sendRequest(peer, QStringLiteral("roots/list"), {}, [this, asked](const McpServer::Answer &answer) {
        if (!asked)
            return; // the client went away
        if (!answer.ok()) {
            qCWarning(lcRoots).noquote() << "roots/list to" << asked->clientName() << "failed:" << answer.problem();
            return;
        }
        Q_EMIT rootsChanged(asked, localPaths(answer.result));
    });
}

QStringList ClientRoots::localPaths(const QJsonObject &listRootsResult)
{
    QStringList paths;
    for (const QJsonValue &root : listRootsResult.value(QStringLiteral("roots")).toArray()) {
        const QUrl url(root.toObject().value(QStringLiteral("uri")).toString());
        if (url.isValid() && url.isLocalFile() && !url.toLocalFile().isEmpty())
            paths << url.toLocalFile();
    }
    return paths;
}

#include "ClientPresence.h"

#include "McpPeer.h"

#include <algorithm>

ClientPresence::ClientPresence(Peers peers, QObject *parent) : QObject(parent), m_peers(std::move(peers)) {}

void ClientPresence::closed(McpPeer *peer)
{
    if (peer->isInitialized()) {
        m_closed.prepend({peer->clientName(), peer->transport(), peer->hasLeft() ? peer->leftAt() : QDateTime::currentDateTime()});
        while (m_closed.size() > DepartedKept)
            m_closed.removeLast();
    }
    Q_EMIT changed(); // the server lists it no more
}

void ClientPresence::setPresent(McpPeer *peer, bool present)
{
    if (!peer || peer->hasLeft() != present)
        return;
    peer->setLeftAt(present ? QDateTime() : QDateTime::currentDateTime());
    if (peer->isInitialized())
        Q_EMIT changed();
}

QList<McpPeer *> ClientPresence::here() const
{
    QList<McpPeer *> list;
    for (McpPeer *peer : m_peers()) {
        if (peer->isInitialized() && !peer->hasLeft())
            list.append(peer);
    }
    return list;
}

QList<ClientPresence::Departed> ClientPresence::departed(int count) const
{
    QList<Departed> list = m_closed;
    for (McpPeer *peer : m_peers()) {
        if (peer->isInitialized() && peer->hasLeft())
            list.append({peer->clientName(), peer->transport(), peer->leftAt()});
    }
    std::stable_sort(list.begin(), list.end(), [](const Departed &a, const Departed &b) { return a.leftAt > b.leftAt; });
    return list.mid(0, count);
}

QString ClientPresence::hereText() const
{
    QStringList names;
    for (McpPeer *peer : here())
        names << peer->clientName();
    return names.join(QStringLiteral(", "));
}

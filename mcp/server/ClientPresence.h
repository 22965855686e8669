#pragma once

#include <QDateTime>
#include <QList>
#include <QObject>

#include <functional>

class McpPeer;

// Which clients are here now, and which left lately with when they left, for the window's
// status bar and its Connect dialog. A client whose connection closes (a socket or bridge, an
// HTTP session deleted or expired) leaves with its peer; one that goes away without a word (an
// HTTP client that crashed or called close(): its event stream closed) is reported by its
// transport (setPresent), and comes back with its next request. McpServer owns it and tells it
// of each client that finished its handshake (changed) or closed (closed); it knows nothing
// else of the server.
class ClientPresence : public QObject
{
    Q_OBJECT
public:
    struct Departed
    {
        QString name;
        QString transport;
        QDateTime leftAt;
    };
    static constexpr int DepartedKept = 20;

    // The server's peers now, in the order they came.
    using Peers = std::function<QList<McpPeer *>()>;

    explicit ClientPresence(Peers peers, QObject *parent = nullptr);

    // A peer closed (the server lists it no more): an initialized one is kept as departed.
    void closed(McpPeer *peer);
    void setPresent(McpPeer *peer, bool present);
    // Initialized clients that are here, oldest first.
    QList<McpPeer *> here() const;
    // Those that left, newest first: closed ones and those gone without a word.
    QList<Departed> departed(int count = 5) const;
    // "claude-code, tool-lister"; "" when nobody is here.
    QString hereText() const;

Q_SIGNALS:
    void changed(); // a client came, left or came back

private:
    Peers m_peers;
    QList<Departed> m_closed; // newest first
};

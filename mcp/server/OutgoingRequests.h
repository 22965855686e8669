#pragma once

#include "jsonrpc/JsonRpc.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <functional>

class McpPeer;
class QTimer;

// Requests the server sends to a client (roots/list, legacy revisions only: 2026-07-28 has no
// server-initiated requests): ids of our own, the client's response routed to the callback, a
// time limit, and an end for every request whose client goes away first. Each callback runs
// exactly once.
class OutgoingRequests : public QObject
{
    Q_OBJECT
public:
    struct Answer
    {
        QJsonObject result;
        QJsonObject error;   // the client's JSON-RPC error
        QString failure;     // no answer came: the time limit passed, or the client went away
        bool ok() const { return error.isEmpty() && failure.isEmpty(); }
        QString problem() const; // a sentence for logs: the client's error or the failure
    };
    using Callback = std::function<void(const Answer &answer)>;
    static constexpr int DefaultTimeoutMs = 30000;

    explicit OutgoingRequests(QObject *parent = nullptr) : QObject(parent) {}
    ~OutgoingRequests() override;

    // Sends the request through the peer and returns its id.
    QJsonValue send(McpPeer *peer, const QString &method, const QJsonObject &params, Callback callback,
                    int timeoutMs = DefaultTimeoutMs);
    // A response the peer sent; false when it answers nothing this peer was asked (ignored).
    bool settle(McpPeer *peer, const QJsonObject &response);
    // The peer closed: what it was asked ends with a failure.
    void dropPeer(McpPeer *peer);
    int pendingCount() const { return int(m_pending.size()); }

private:
    struct Pending
    {
        QPointer<McpPeer> peer;
        QString method;
        Callback callback;
        QTimer *timer = nullptr;
    };
    void finish(const QString &key, const Answer &answer);

    QHash<QString, Pending> m_pending; // by JsonRpc::idKey of our id
    quint64 m_nextId = 1;
};

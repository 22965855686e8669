#pragma once

#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QStringList>

class McpPeer;

// The 2026-07-28 change-notification streams (subscriptions/listen): which client asked for
// which notifications, on which of its requests. A subscription is the request itself: it
// lives until the client cancels it (notifications/cancelled on a stream transport, closing
// its HTTP response) or goes away, and every notification on it carries its id in
// `_meta.io.modelcontextprotocol/subscriptionId`.
class ListenSubscriptions
{
public:
    struct Filter
    {
        bool toolsListChanged = false;
        bool promptsListChanged = false;
        bool resourcesListChanged = false;
        QStringList resources; // resourceSubscriptions: URIs whose updates it wants
        QJsonObject json() const;
        // The client's `notifications` filter; false with a sentence when it is not one.
        static bool parse(const QJsonValue &value, Filter *filter, QString *error);
        bool admits(const QString &method, const QJsonObject &params) const;
    };

    // Acknowledges (notifications/subscriptions/acknowledged with what is honoured), then
    // keeps the subscription until remove().
    void add(McpPeer *peer, const QJsonValue &id, const Filter &honoured);
    bool remove(McpPeer *peer, const QJsonValue &id);
    void removePeer(McpPeer *peer);
    bool isEmpty() const { return m_subscriptions.isEmpty(); }

    // Sends the notification on every subscription whose filter admits it.
    void notify(const QString &method, const QJsonObject &params = {});

private:
    struct Subscription
    {
        QPointer<McpPeer> peer;
        QJsonValue id;
        Filter filter;
    };
    static void send(const Subscription &subscription, const QString &method, QJsonObject params);

    QList<Subscription> m_subscriptions;
};

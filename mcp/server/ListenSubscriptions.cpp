#include "ListenSubscriptions.h"

#include "jsonrpc/JsonRpc.h"
#include "McpPeer.h"
#include "RequestEnvelope.h"

#include <QJsonArray>

QJsonObject ListenSubscriptions::Filter::json() const
{
    QJsonObject object;
    if (toolsListChanged)
        object.insert(QStringLiteral("toolsListChanged"), true);
    if (promptsListChanged)
        object.insert(QStringLiteral("promptsListChanged"), true);
    if (resourcesListChanged)
        object.insert(QStringLiteral("resourcesListChanged"), true);
    if (!resources.isEmpty())
        object.insert(QStringLiteral("resourceSubscriptions"), QJsonArray::fromStringList(resources));
    return object;
}

bool ListenSubscriptions::Filter::parse(const QJsonValue &value, Filter *filter, QString *error)
{
    if (!value.isObject()) {
        *error = QStringLiteral("subscriptions/listen needs \"notifications\", an object such as {\"toolsListChanged\": true}");
        return false;
    }
    const QJsonObject object = value.toObject();
    for (const char *flag : {"toolsListChanged", "promptsListChanged", "resourcesListChanged"}) {
        const QJsonValue v = object.value(QLatin1String(flag));
        if (!v.isUndefined() && !v.isBool()) {
            *error = QStringLiteral("\"notifications.%1\" must be true or false").arg(QLatin1String(flag));
            return false;
        }
    }
    filter->toolsListChanged = object.value(QStringLiteral("toolsListChanged")).toBool();
    filter->promptsListChanged = object.value(QStringLiteral("promptsListChanged")).toBool();
    filter->resourcesListChanged = object.value(QStringLiteral("resourcesListChanged")).toBool();
    const QJsonValue uris = object.value(QStringLiteral("resourceSubscriptions"));
    if (!uris.isUndefined()) {
        if (!uris.isArray()) {
            *error = QStringLiteral("\"notifications.resourceSubscriptions\" must be an array of resource URIs");
            return false;
        }
        for (const QJsonValue &uri : uris.toArray()) {
            if (!uri.isString()) {
                *error = QStringLiteral("\"notifications.resourceSubscriptions\" must hold URIs as strings");
                return false;
            }
            if (!filter->resources.contains(uri.toString()))
                filter->resources << uri.toString();
        }
    }
    return true;
}

bool ListenSubscriptions::Filter::admits(const QString &method, const QJsonObject &params) const
{
    if (method == QLatin1String("notifications/tools/list_changed"))
        return toolsListChanged;
    if (method == QLatin1String("notifications/prompts/list_changed"))
        return promptsListChanged;
    if (method == QLatin1String("notifications/resources/list_changed"))
        return resourcesListChanged;
    if (method == QLatin1String("notifications/resources/updated"))
        return resources.contains(params.value(QStringLiteral("uri")).toString());
    return false; // request-scoped notifications (progress, logging) never travel here
}

void ListenSubscriptions::add(McpPeer *peer, const QJsonValue &id, const Filter &honoured)
{
    m_subscriptions.append({peer, id, honoured});
    send(m_subscriptions.last(), QStringLiteral("notifications/subscriptions/acknowledged"),
         {{QStringLiteral("notifications"), honoured.json()}});
}

bool ListenSubscriptions::remove(McpPeer *peer, const QJsonValue &id)
{
    return m_subscriptions.removeIf([peer, &id](const Subscription &s) {
        return s.peer == peer && JsonRpc::idKey(s.id) == JsonRpc::idKey(id);
    }) > 0;
}

void ListenSubscriptions::removePeer(McpPeer *peer)
{
    m_subscriptions.removeIf([peer](const Subscription &s) { return !s.peer || s.peer == peer; });
}

void ListenSubscriptions::notify(const QString &method, const QJsonObject &params)
{
    // A copy: sending may close a connection, and closing it removes its subscriptions.
    const QList<Subscription> subscriptions = m_subscriptions;
    for (const Subscription &subscription : subscriptions) {
        if (subscription.peer && subscription.filter.admits(method, params))
            send(subscription, method, params);
    }
}

void ListenSubscriptions::send(const Subscription &subscription, const QString &method, QJsonObject params)
{
    QJsonObject meta = params.value(QStringLiteral("_meta")).toObject();
    meta.insert(QLatin1String(RequestEnvelope::SubscriptionIdKey), subscription.id);
    params.insert(QStringLiteral("_meta"), meta);
    // Related to the listen request: HTTP writes it on that request's open event stream.
    subscription.peer->send(JsonRpc::notification(method, params), subscription.id);
}

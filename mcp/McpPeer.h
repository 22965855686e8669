#pragma once

#include "Tool.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QSet>

// One MCP session: a stdio or local-socket connection, or one Mcp-Session-Id over HTTP.
// It holds what the client told us (protocol version, clientInfo, log level, subscriptions)
// and its calls in flight. Outgoing messages leave through message(); the transport that
// created the peer writes them.
class McpPeer : public QObject
{
    Q_OBJECT
public:
    McpPeer(const QString &key, const QString &transport, QObject *parent = nullptr)
        : QObject(parent), m_key(key), m_transport(transport) {}

    QString key() const { return m_key; }
    QString transport() const { return m_transport; }

    bool isInitialized() const { return m_initialized; }
    QString protocolVersion() const { return m_protocolVersion; }
    QJsonObject clientInfo() const { return m_clientInfo; }
    QString clientName() const
    {
        const QString name = m_clientInfo.value(QStringLiteral("name")).toString();
        return name.isEmpty() ? QStringLiteral("agent") : name;
    }
    Origin origin() const { return Origin::agent(clientName(), m_key); }

    QString logLevel() const { return m_logLevel; }
    void setLogLevel(const QString &level) { m_logLevel = level; }
    QSet<QString> &subscriptions() { return m_subscriptions; }

    void setInitialized(const QString &version, const QJsonObject &clientInfo)
    {
        m_protocolVersion = version;
        m_clientInfo = clientInfo;
        m_initialized = true;
    }

    QHash<QString, ToolCallPtr> &callsInFlight() { return m_calls; }

    // `relatedRequest` is the id of the request a message belongs to (its response, or a
    // progress notification during it), or undefined for messages of the session itself.
    void send(const QJsonObject &message, const QJsonValue &relatedRequest = QJsonValue::Undefined)
    {
        Q_EMIT this->message(message, relatedRequest);
    }

Q_SIGNALS:
    void message(const QJsonObject &message, const QJsonValue &relatedRequest);

private:
    QString m_key;
    QString m_transport;
    bool m_initialized = false;
    QString m_protocolVersion;
    QJsonObject m_clientInfo;
    QString m_logLevel = QStringLiteral("info");
    QSet<QString> m_subscriptions;
    QHash<QString, ToolCallPtr> m_calls;
};

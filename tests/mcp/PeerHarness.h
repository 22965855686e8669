#pragma once

// McpServer driven through one McpPeer with bytes in and the peer's message() signal out, as a
// stream transport does (no socket), over the real engine: requests of either era, what the
// server sent, and the requests of the server answered like a client would.

#include "../common/EngineHarness.h"

#include "server/McpServer.h"
#include "server/RequestEnvelope.h"
#include "toolapi/ToolRegistry.h"
#include "tools/JobHandles.h"
#include "tools/Tools.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

namespace Modern {
inline QJsonObject meta(const QString &clientName = QStringLiteral("modern-test"), const QJsonObject &extra = {})
{
    QJsonObject meta{{RequestEnvelope::ProtocolVersionKey, "2026-07-28"},
                     {RequestEnvelope::ClientCapabilitiesKey, QJsonObject{}},
                     {RequestEnvelope::ClientInfoKey, QJsonObject{{"name", clientName}, {"version", "1.0"}}}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        meta.insert(it.key(), it.value());
    return meta;
}
// A 2026-07-28 request: params with the per-request _meta.
inline QJsonObject request(const QJsonValue &id, const QString &method, QJsonObject params = {}, const QJsonObject &metaObject = meta())
{
    params.insert("_meta", metaObject);
    return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}
} // namespace Modern

namespace Legacy {
inline QJsonObject request(const QJsonValue &id, const QString &method, const QJsonObject &params = {})
{
    QJsonObject message{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (!params.isEmpty())
        message.insert("params", params);
    return message;
}
} // namespace Legacy

struct PeerHarness
{
    EngineHarness lisp;
    JobHandles jobs{&lisp.session};
    ToolRegistry tools;
    McpServer server{&lisp.session, &tools};
    McpPeer *peer = nullptr;
    QList<QJsonObject> sent; // everything the server sent to the peer, in order

    PeerHarness()
    {
        tools.add(evaluateLispTool(&lisp.session, &jobs));
        peer = newPeer(&sent);
    }
    McpPeer *newPeer(QList<QJsonObject> *sink, const QString &activityKey = {})
    {
        McpPeer *created = server.createPeer(QStringLiteral("test"), activityKey);
        QObject::connect(created, &McpPeer::message, created, [sink](const QJsonObject &message, const QJsonValue &) { sink->append(message); });
        return created;
    }
    static QByteArray bytes(const QJsonObject &object) { return QJsonDocument(object).toJson(QJsonDocument::Compact); }
    McpServer::Received send(const QJsonObject &message, McpPeer *to = nullptr) { return server.receive(to ? to : peer, bytes(message)); }

    static QList<QJsonObject> responsesTo(const QJsonValue &id, const QList<QJsonObject> &messages)
    {
        QList<QJsonObject> found;
        for (const QJsonObject &message : messages) {
            if (message.value("id") == id && !message.contains("method"))
                found << message;
        }
        return found;
    }
    // Sends a request and waits for its one response (an empty object when none came).
    QJsonObject call(const QJsonObject &message, McpPeer *to = nullptr, QList<QJsonObject> *sink = nullptr, int ms = 30000)
    {
        QList<QJsonObject> &messages = sink ? *sink : sent;
        const qsizetype before = messages.size();
        send(message, to);
        const QJsonValue id = message.value("id");
        if (!QTest::qWaitFor([&] { return !responsesTo(id, messages.mid(before)).isEmpty(); }, ms))
            return {};
        return responsesTo(id, messages.mid(before)).first();
    }
    // The notifications with `method` the server sent since message number `from`.
    QList<QJsonObject> notifications(const QString &method, qsizetype from = 0) const
    {
        QList<QJsonObject> found;
        for (const QJsonObject &message : sent.mid(from)) {
            if (message.value("method") == method && !message.contains("id"))
                found << message;
        }
        return found;
    }
    void initialize(const QJsonObject &capabilities = {}, McpPeer *to = nullptr, const QString &name = QStringLiteral("legacy-test"))
    {
        send(Legacy::request(0, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", capabilities},
                                              {"clientInfo", QJsonObject{{"name", name}, {"version", "1"}}}}), to);
        send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, to);
    }
};

inline QJsonObject resultOf(const QJsonObject &response) { return response.value("result").toObject(); }
inline int errorCodeOf(const QJsonObject &response) { return response.value("error").toObject().value("code").toInt(); }

#pragma once

// The real stack of the app for transport tests: engine process, session, the tools and the
// MCP server, in the test's own event loop.

#include "client/EngineClient.h"
#include "features/ResourceProvider.h"
#include "server/McpServer.h"
#include "session/Session.h"
#include "toolapi/ToolRegistry.h"
#include "tools/JobHandles.h"
#include "tools/Tools.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <memory>

struct McpTestServer
{
    EngineClient engine;
    Session session{&engine};
    JobHandles jobs{&session};
    ToolRegistry tools;
    McpServer server{&session, &tools};
    ResourceProvider resources{&server, &session};

    McpTestServer()
    {
        tools.add(evaluateLispTool(&session, &jobs));
        engine.start();
    }
    ~McpTestServer() { engine.stop(); }
    bool waitReady() { return QTest::qWaitFor([this] { return engine.isReady(); }, 30000); }
};

namespace Mcp {
inline QByteArray initialize(int id = 1, const QString &name = QStringLiteral("test-client"))
{
    return QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"id", id}, {"method", "initialize"},
                                     {"params", QJsonObject{{"protocolVersion", "2025-11-25"},
                                                            {"capabilities", QJsonObject{}},
                                                            {"clientInfo", QJsonObject{{"name", name}, {"version", "1"}}}}}})
        .toJson(QJsonDocument::Compact);
}
inline QByteArray initialized()
{
    return R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
}
inline QByteArray evaluate(const QJsonValue &id, const QString &code, const QJsonValue &progressToken = QJsonValue::Undefined)
{
    QJsonObject params{{"name", "evaluate-lisp"}, {"arguments", QJsonObject{{"code", code}}}};
    if (!progressToken.isUndefined())
        params.insert("_meta", QJsonObject{{"progressToken", progressToken}});
    return QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", params}})
        .toJson(QJsonDocument::Compact);
}
inline QByteArray cancel(const QJsonValue &id)
{
    return QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"},
                                     {"params", QJsonObject{{"requestId", id}, {"reason", "test"}}}})
        .toJson(QJsonDocument::Compact);
}
inline QString resultText(const QJsonObject &response)
{
    return response.value("result").toObject().value("content").toArray().first().toObject().value("text").toString();
}
inline QStringList activityCodes(const QJsonObject &response)
{
    QStringList codes;
    const QJsonArray activity = response.value("result").toObject().value("structuredContent").toObject().value("session_activity").toArray();
    for (const QJsonValue &entry : activity)
        codes << entry.toObject().value("code").toString();
    return codes;
}
} // namespace Mcp

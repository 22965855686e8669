#pragma once

// A real engine, session, tool registry and MCP server with one initialized peer, for tests
// that call tools the way a client does (tools/call through McpServer::receive).

#include "../common/SessionRooms.h"
#include "client/EngineClient.h"
#include "features/LibraryNotices.h"
#include "server/McpPeer.h"
#include "server/McpServer.h"
#include "session/Session.h"
#include "toolapi/ToolRegistry.h"
#include "tools/JobHandles.h"
#include "tools/Tools.h"
#include "tools/ToolSet.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <memory>

class ToolHarness
{
public:
    ToolHarness()
        : m_session(&m_engine), m_rooms(&m_engine, &m_session), m_jobs(&m_session), m_server(&m_session, &m_tools)
    {
        m_tools.add(evaluateLispTool(&m_session, &m_jobs));
        addSessionTools(&m_tools, &m_session, &m_jobs, &m_rooms.native, &m_rooms.libraries);
        LibraryNotices::follow(&m_rooms.libraries, &m_server); // as AppServices does
        m_peer = m_server.createPeer(QStringLiteral("test"));
        QObject::connect(m_peer, &McpPeer::message, &m_owner, [this](const QJsonObject &message, const QJsonValue &) {
            m_messages.append(message);
        });
        m_engine.start();
        request(QStringLiteral("initialize"), {{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                                               {QStringLiteral("capabilities"), QJsonObject{}},
                                               {QStringLiteral("clientInfo"), QJsonObject{{QStringLiteral("name"), QStringLiteral("tool-test")},
                                                                                          {QStringLiteral("version"), QStringLiteral("1")}}}});
        send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("method"), QStringLiteral("notifications/initialized")}});
    }

    void send(const QJsonObject &message) { m_server.receive(m_peer, QJsonDocument(message).toJson(QJsonDocument::Compact)); }

    bool waitUntilReady(int ms = 20000)
    {
        return QTest::qWaitFor([this] { return m_engine.isReady(); }, ms);
    }

    // Sends a request and waits for its response (the whole JSON-RPC message).
    QJsonObject request(const QString &method, const QJsonObject &params, int timeoutMs = 60000)
    {
        const int id = m_nextId++;
        send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id},
              {QStringLiteral("method"), method}, {QStringLiteral("params"), params}});
        QJsonObject response;
        (void)QTest::qWaitFor([&] {
            for (const QJsonObject &m : std::as_const(m_messages)) {
                if (m.value(QStringLiteral("id")) == QJsonValue(id)) {
                    response = m;
                    return true;
                }
            }
            return false;
        }, timeoutMs);
        return response;
    }

    // tools/call: the result object ({content, structuredContent, isError}).
    QJsonObject call(const QString &tool, const QJsonObject &arguments = {}, int timeoutMs = 60000)
    {
        return request(QStringLiteral("tools/call"), {{QStringLiteral("name"), tool}, {QStringLiteral("arguments"), arguments}}, timeoutMs)
            .value(QStringLiteral("result")).toObject();
    }

    // What the project and hand-off tools tell of beside the session (AppServices gives them the same).
    SessionSetup setup() const { return {&m_rooms.native, &m_rooms.editors, &m_rooms.initFile, &m_rooms.libraries}; }

    static QString text(const QJsonObject &result)
    {
        return result.value(QStringLiteral("content")).toArray().first().toObject().value(QStringLiteral("text")).toString();
    }
    static QJsonObject structured(const QJsonObject &result)
    {
        return result.value(QStringLiteral("structuredContent")).toObject();
    }
    static bool isError(const QJsonObject &result)
    {
        return result.value(QStringLiteral("isError")).toBool();
    }

    EngineClient m_engine;
    Session m_session;
    SessionRooms m_rooms; // as AppServices makes them beside the session
    JobHandles m_jobs;
    ToolRegistry m_tools;
    McpServer m_server;
    QObject m_owner;
    McpPeer *m_peer = nullptr;
    QList<QJsonObject> m_messages;
    int m_nextId = 1;
};

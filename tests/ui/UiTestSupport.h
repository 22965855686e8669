#pragma once

// Shared by the GUI tests: the real engine, session, ledger, MCP server and agent access (what
// AppServices builds, without the app library), and an MCP client fed with JSON-RPC messages
// through a real peer.

#include "../common/SessionRooms.h"
#include "access/AccessGate.h"
#include "client/EngineClient.h"
#include "history/DefinitionLedger.h"
#include "server/McpPeer.h"
#include "server/McpServer.h"
#include "session/Session.h"
#include "toolapi/ToolRegistry.h"
#include "tools/JobHandles.h"
#include "tools/Tools.h"
#include "window/MainWindow.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

#include <functional>
#include <memory>

// With DUET_SCREENSHOT_DIR set (tests/ui/screenshots.sh), saves `window` there as `name` after
// `settle` (flush the transcript) and a moment to paint. True when saved, or when not asked for.
inline bool saveScreenshotIfAsked(QWidget *window, const QString &name, const std::function<void()> &settle = {})
{
    const QString dir = qEnvironmentVariable("DUET_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return true;
    if (settle)
        settle();
    QTest::qWait(300);
    return window->grab().save(QDir(dir).filePath(name));
}

struct LiveSession
{
    EngineClient engine;
    Session session{&engine};
    SessionRooms rooms{&engine, &session}; // native code, init files, the editor: as AppServices makes them
    JobHandles jobs{&session};
    DefinitionLedger ledger{&session}; // the window's Definitions panel reads it (setDefinitionLedger)
    ToolRegistry tools;
    McpServer server{&session, &tools};
    AccessGate access;

    LiveSession()
    {
        access.install(&server);
        tools.add(evaluateLispTool(&session, &jobs));
        QSignalSpy ready(&engine, &EngineClient::ready);
        engine.start();
        if (!engine.isReady())
            ready.wait(20000);
    }
    ~LiveSession() { engine.stop(); }

    // What AppServices's window is given beside the session: native code and the editor.
    void furnish(MainWindow *window)
    {
        window->setNativeCompilation(&rooms.native);
        window->setEditorBridge(&rooms.editors);
    }

    // The window over this session at `size`, shown (its Definitions panel reading the ledger
    // when `withLedger`); null when the platform never exposed it.
    std::unique_ptr<MainWindow> showWindow(QSize size, bool withLedger = false)
    {
        auto window = std::make_unique<MainWindow>(&session, &server, &access);
        furnish(window.get());
        if (withLedger)
            window->setDefinitionLedger(&ledger);
        window->resize(size);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()))
            window.reset();
        return window;
    }
};

// An MCP client as the transports see one: bytes in through McpServer::receive, messages out
// through the peer's message() signal.
class AgentClient : public QObject
{
public:
    AgentClient(McpServer *server, const QString &name) : m_server(server)
    {
        m_peer = server->createPeer(QStringLiteral("test"));
        connect(m_peer, &McpPeer::message, this, [this](const QJsonObject &message) { m_received.append(message); });
        send(QJsonObject{{"jsonrpc", "2.0"}, {"id", m_nextId++}, {"method", "initialize"},
                         {"params", QJsonObject{{"protocolVersion", "2025-06-18"}, {"capabilities", QJsonObject{}},
                                                {"clientInfo", QJsonObject{{"name", name}, {"version", "1.0"}}}}}});
        send(QJsonObject{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    }

    McpPeer *peer() const { return m_peer; }

    void send(const QJsonObject &message)
    {
        m_server->receive(m_peer, QJsonDocument(message).toJson(QJsonDocument::Compact));
    }

    int callTool(const QString &tool, const QJsonObject &arguments)
    {
        const int id = m_nextId++;
        send(QJsonObject{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
                         {"params", QJsonObject{{"name", tool}, {"arguments", arguments}}}});
        return id;
    }

    int evaluate(const QString &code, const QString &description = QString())
    {
        QJsonObject arguments{{"code", code}};
        if (!description.isEmpty())
            arguments.insert("description", description);
        return callTool(QStringLiteral("evaluate-lisp"), arguments);
    }

    // The response to request id, waiting for it up to timeoutMs; an empty object if none came.
    QJsonObject response(int id, int timeoutMs = 20000)
    {
        QJsonObject found;
        (void)QTest::qWaitFor([&] {
            for (const QJsonObject &message : std::as_const(m_received)) {
                if (message.value("id").toInt(-1) == id && !message.contains("method")) {
                    found = message;
                    return true;
                }
            }
            return false;
        }, timeoutMs);
        return found;
    }

    static QString resultText(const QJsonObject &response)
    {
        return response.value("result").toObject().value("content").toArray().at(0).toObject().value("text").toString();
    }
    static bool isError(const QJsonObject &response)
    {
        return response.value("result").toObject().value("isError").toBool();
    }

private:
    McpServer *m_server;
    McpPeer *m_peer;
    QList<QJsonObject> m_received;
    int m_nextId = 1;
};

#pragma once

#include <QObject>

class EngineClient;
class Session;
class ToolRegistry;
class McpServer;

// The objects every mode of the app shares, built and wired once: the engine, the session,
// the tools and the MCP server. Transports and the window attach to them.
class AppServices : public QObject
{
    Q_OBJECT
public:
    explicit AppServices(QObject *parent = nullptr);
    ~AppServices() override;

    EngineClient *engine() const { return m_engine; }
    Session *session() const { return m_session; }
    ToolRegistry *tools() const { return m_tools; }
    McpServer *server() const { return m_server; }

    void start();

private:
    EngineClient *m_engine;
    Session *m_session;
    ToolRegistry *m_tools;
    McpServer *m_server;
};

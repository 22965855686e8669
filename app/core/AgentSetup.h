#pragma once

#include "agenthost/LispDuetServer.h"

#include <QObject>

class AgentHost;
class AppServices;
class MainWindow;
struct Preferences;

// What the app adds to the window for hosting a coding agent (issue 38): the AgentHost made from
// the app's services (access gate, MCP server, tools, journal) and the endpoints it hands the
// agent; the configured agents from the settings (and the mode each keeps); the project root it
// works in; the window's Agent panel joined to it (AgentPanelWiring.h); and
// `lisp-duet --agent NAME [--prompt TEXT]`.
class AgentSetup : public QObject
{
    Q_OBJECT
public:
    AgentSetup(MainWindow *window, AppServices *services, const LispDuetServer &server, QObject *parent = nullptr);
    ~AgentSetup() override;

    AgentHost *host() const { return m_host; }
    // The configured agents again (File ▸ Settings applied).
    void apply(const Preferences &preferences);
    // --agent NAME [--prompt TEXT]: shows the Agent panel, starts that agent, and sends the prompt once its
    // conversation is open. Returns why not, when NAME is neither an agent nor a command line.
    QString startFromCommandLine(const QString &agent, const QString &prompt = {});

private:
    MainWindow *m_window;
    AgentHost *m_host;
};

#include "AgentSetup.h"

#include "AgentPanelWiring.h"
#include "AppServices.h"
#include "Preferences.h"

#include "agenthost/AgentHost.h"
#include "project/ProjectFiles.h"
#include "window/AgentDock.h"
#include "window/MainWindow.h"

#include <QSettings>

AgentSetup::AgentSetup(MainWindow *window, AppServices *services, const LispDuetServer &server, QObject *parent)
    : QObject(parent), m_window(window), m_host(new AgentHost(services->access(), services->server(), services->tools(), this))
{
    m_host->setJournal(services->journal());
    m_host->setServer(server);
    // The agent works in the project: the folder open now, at its next start.
    ProjectFiles *files = services->projectFiles();
    m_host->setProjectRoot(files->root().isSet() ? files->root().path() : QString());
    connect(files, &ProjectFiles::rootChanged, m_host, [host = m_host](const QString &root) { host->setProjectRoot(root); });
    // The mode each agent's new conversations start in is the person's last choice, kept with it.
    m_host->setModeMemory([](const QString &agent) {
        const QSettings settings;
        return AgentSettings::modeOf(AgentSettings::load(settings), agent);
    });
    connect(m_host, &AgentHost::modeChosen, this, [](const QString &agent, const QString &modeId) { AgentSettings::rememberMode(agent, modeId); });
    apply(Preferences::load());
    wireAgentPanel(window->agentPanel(), m_host);
}

AgentSetup::~AgentSetup()
{
    // Before the services it writes to: a turn going on is journaled, and its agent ends.
    delete m_host;
}

void AgentSetup::apply(const Preferences &preferences)
{
    QList<AgentCommand> commands;
    for (const ConfiguredAgent &agent : preferences.agents)
        commands << agent.command();
    m_host->setAgents(commands, m_host->currentAgent().isEmpty() && !commands.isEmpty() ? commands.first().name : m_host->currentAgent());
}

QString AgentSetup::startFromCommandLine(const QString &agent, const QString &prompt)
{
    QString error;
    const AgentCommand command = AgentSettings::resolve(Preferences::load().agents, agent, &error);
    if (command.isEmpty())
        return QStringLiteral("--agent %1: %2").arg(agent, error);
    // The window opens with the conversation in view (and what is missing, when it cannot start).
    m_window->agentDock()->showPanel();
    if (!prompt.isEmpty())
        m_host->promptWhenReady(prompt);
    m_host->start(command);
    return {};
}

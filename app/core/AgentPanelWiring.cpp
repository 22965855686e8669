#include "AgentPanelWiring.h"

#include "agent/AgentPanel.h"
#include "agenthost/AgentHost.h"
#include "toolapi/RequestTrace.h"

void wireAgentPanel(AgentPanel *panel, AgentHost *host)
{
    QObject::connect(host, &AgentHost::agentsChanged, panel, &AgentPanel::setAgents);
    QObject::connect(host, &AgentHost::clientChanged, panel, &AgentPanel::setClient);
    QObject::connect(host, &AgentHost::sessionChanged, panel, &AgentPanel::setSession);
    QObject::connect(host, &AgentHost::missingChanged, panel, &AgentPanel::setMissing);
    QObject::connect(host, &AgentHost::authMethodsChanged, panel, &AgentPanel::setAuthMethods);
    QObject::connect(host, &AgentHost::sessionsListed, panel, &AgentPanel::setSessions);
    QObject::connect(host, &AgentHost::toolCallTraced, panel, &AgentPanel::showToolCallTrace);
    QObject::connect(panel, &AgentPanel::startRequested, host, &AgentHost::start);
    QObject::connect(panel, &AgentPanel::stopRequested, host, &AgentHost::stop);
    QObject::connect(panel, &AgentPanel::restartRequested, host, &AgentHost::restart);
    QObject::connect(panel, &AgentPanel::loginRequested, host, &AgentHost::login);
    QObject::connect(panel, &AgentPanel::listSessionsRequested, host, &AgentHost::listSessions);
    QObject::connect(panel, &AgentPanel::resumeRequested, host, &AgentHost::resume);
    QObject::connect(panel, &AgentPanel::modeChosen, host, &AgentHost::chooseMode);
    panel->setAgents(host->agents(), host->currentAgent());
    panel->setClient(host->client());
    panel->setSession(host->session());
    panel->setMissing(host->missing(), host->fix());
    panel->setAuthMethods(host->state() == AgentHost::State::NeedsLogin ? host->authMethods() : QList<Acp::AuthMethod>());
}

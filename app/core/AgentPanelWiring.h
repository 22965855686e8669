#pragma once

#include "acp/AcpClient.h"
#include "agenthost/AgentHost.h"

#include <QObject>

// The Agent panel (ui/agent/AgentPanel, issue 38) and the AgentHost joined: the panel is a view
// of the host's client and session and asks for everything else through its signals; the host
// answers through its own. One place, so the contract between them reads in one screen:
//
//   panel setters   setAgents, setClient, setSession, setMissing, setAuthMethods, setSessions,
//                   showToolCallTrace (addContext is the panel's own)
//   panel signals   startRequested(AgentCommand), stopRequested, restartRequested,
//                   loginRequested(AuthMethod), listSessionsRequested, resumeRequested(id),
//                   modeChosen(id)
//
// A template over the panel's type so that the app builds before the panel exists (its branch
// is merged on its own); wirePanelOf() joins a window's panel when the window has one.
template <class Panel>
void wireAgentPanel(Panel *panel, AgentHost *host)
{
    QObject::connect(host, &AgentHost::agentsChanged, panel, &Panel::setAgents);
    QObject::connect(host, &AgentHost::clientChanged, panel, &Panel::setClient);
    QObject::connect(host, &AgentHost::sessionChanged, panel, &Panel::setSession);
    QObject::connect(host, &AgentHost::missingChanged, panel, &Panel::setMissing);
    QObject::connect(host, &AgentHost::authMethodsChanged, panel, &Panel::setAuthMethods);
    QObject::connect(host, &AgentHost::sessionsListed, panel, &Panel::setSessions);
    QObject::connect(host, &AgentHost::toolCallTraced, panel, &Panel::showToolCallTrace);
    QObject::connect(panel, &Panel::startRequested, host, &AgentHost::start);
    QObject::connect(panel, &Panel::stopRequested, host, &AgentHost::stop);
    QObject::connect(panel, &Panel::restartRequested, host, &AgentHost::restart);
    QObject::connect(panel, &Panel::loginRequested, host, &AgentHost::login);
    QObject::connect(panel, &Panel::listSessionsRequested, host, &AgentHost::listSessions);
    QObject::connect(panel, &Panel::resumeRequested, host, &AgentHost::resume);
    QObject::connect(panel, &Panel::modeChosen, host, &AgentHost::chooseMode);
    // What the host holds already (a panel made after the host started).
    panel->setAgents(host->agents(), host->currentAgent());
    panel->setClient(host->client());
    panel->setSession(host->session());
    panel->setMissing(host->missing(), host->fix());
    panel->setAuthMethods(host->state() == AgentHost::State::NeedsLogin ? host->authMethods() : QList<Acp::AuthMethod>());
}

// The window's Agent panel (MainWindow::agentPanel(), the panel's branch), joined to the host;
// nothing while the window has none. Returns whether it had one.
template <class Window>
bool wirePanelOf(Window *window, AgentHost *host)
{
    if constexpr (requires(Window *w) { w->agentPanel(); }) {
        if (auto *panel = window->agentPanel()) {
            wireAgentPanel(panel, host);
            return true;
        }
    }
    return false;
}

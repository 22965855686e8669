#pragma once

class AgentHost;
class AgentPanel;

// The Agent panel (ui/agent/AgentPanel, issue 38) and the AgentHost joined: the panel is a view
// of the host's client and session and asks for everything else through its signals; the host
// answers through its own. One place, so the contract between them reads in one screen:
//
//   host → panel    agentsChanged → setAgents, clientChanged → setClient, sessionChanged →
//                   setSession, missingChanged → setMissing, authMethodsChanged → setAuthMethods,
//                   sessionsListed → setSessions, toolCallTraced → showToolCallTrace (the MCP
//                   call whose _meta["claudecode/toolUseId"] is a chat row's tool call)
//   panel → host    startRequested → start, stopRequested → stop, restartRequested → restart,
//                   loginRequested → login, listSessionsRequested → listSessions,
//                   resumeRequested → resume, modeChosen → chooseMode
//
// addContext is the panel's own (the window's context actions call it). What the host already
// holds is handed over at once, for a panel joined after the host started.
void wireAgentPanel(AgentPanel *panel, AgentHost *host);

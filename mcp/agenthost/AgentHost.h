#pragma once

#include "LispDuetServer.h"

#include "acp/AcpTypes.h"
#include "acp/AgentCommand.h"

#include <QObject>
#include <QPointer>

#include <functional>

class AccessGate;
class AcpClient;
class AgentApprovals;
class AgentSession;
class ChatJournal;
class Journal;
class LoginTerminal;
class McpServer;
class ModelWaitNotice;
class RequestTrace;
class ToolRegistry;

// One coding agent hosted in the window (issue 38): started over ACP (AcpClient) in the project
// root (the person's home when no project is open, and the chat says so), given Lisp Duet's own
// MCP server in session/new (LispDuetServer: HTTP with the token, else the bridge), so what it
// evaluates lands in the one shared session in its own lane, as an agent from a terminal does,
// beside any of those. A new conversation starts in the mode the person chose for that agent,
// else in `default`, the one that asks before every tool call. Its permission requests are
// answered in the window's approval bar as one decision with the access gate (AgentApprovals);
// its conversation goes to the journal (ChatJournal); a quiet turn is explained early
// (ModelWaitNotice). It says exactly what is missing (the agent not installed, Node too old, a
// login) with the command that fixes it, logs in through a terminal, lists and resumes earlier
// conversations, stops and restarts the agent, and leaves no process of it behind.
//
// The Agent panel (ui/agent) is a view of client() and session(); the app's wiring hands it
// what the signals below carry and calls the slots for what the person asks.
class AgentHost : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Stopped,   // no agent, or it ended
        Missing,   // it cannot start: missing() says what to do
        Starting,  // started, initializing, opening a conversation
        NeedsLogin, // the agent wants a login first: authMethods()
        Ready,     // a conversation is open: session()
        Failed,    // it could not start or ended on its own; the client says why
    };
    Q_ENUM(State)

    AgentHost(AccessGate *access, McpServer *server, ToolRegistry *tools, QObject *parent = nullptr);
    ~AgentHost() override; // a turn going on is journaled, cut short; the agent's whole process group ends

    void setJournal(Journal *journal);
    void setServer(const LispDuetServer &server) { m_server = server; }
    // The project root: the agent's working directory. Empty: the person's home folder. Takes
    // effect at the next start.
    void setProjectRoot(const QString &root) { m_root = root; }
    // The mode the person chose for an agent (by its name), which a new conversation starts in;
    // empty: `default`. The app keeps it (modeChosen).
    void setModeMemory(std::function<QString(const QString &agent)> recall) { m_recallMode = std::move(recall); }
    void setInitializeTimeoutMs(int ms) { m_initializeTimeoutMs = ms; }
    void setModelWaitMs(int ms);

    // The configured agents the panel's chooser offers, and the one chosen.
    void setAgents(const QList<AgentCommand> &agents, const QString &current = {});
    const QList<AgentCommand> &agents() const { return m_agents; }
    QString currentAgent() const { return m_command.name; }

    State state() const { return m_state; }
    AcpClient *client() const;
    AgentSession *session() const;
    const QString &missing() const { return m_missing; }
    const QString &fix() const { return m_fix; }
    QList<Acp::AuthMethod> authMethods() const;
    QString workingDirectory() const; // the root, else the home folder
    AgentApprovals *approvals() const { return m_approvals; }

    // What an AgentCommand lacks to start, in words, and the command that fixes it (empty: it
    // can start). Known agents say to run installer/agents.sh.
    static QString whatIsMissing(const AgentCommand &command, QString *fix = nullptr);

public Q_SLOTS:
    // Starts `command` (stopping the one running): initialize, then a new conversation.
    void start(const AgentCommand &command);
    void stop();
    void restart();
    // A terminal method runs the agent's login command in a terminal, then a conversation is
    // asked for again; another method is the agent's authenticate.
    void login(const Acp::AuthMethod &method);
    void listSessions();
    void resume(const QString &sessionId);
    void chooseMode(const QString &modeId);
    // Sends `text` as the person's first prompt once a conversation is open (--prompt).
    void promptWhenReady(const QString &text);

Q_SIGNALS:
    void stateChanged(AgentHost::State state);
    void agentsChanged(const QList<AgentCommand> &agents, const QString &current);
    void clientChanged(AcpClient *client);   // null: none
    void sessionChanged(AgentSession *session); // null: none
    void missingChanged(const QString &whatIsMissing, const QString &commandThatFixesIt);
    void authMethodsChanged(const QList<Acp::AuthMethod> &methods);
    void sessionsListed(const QList<Acp::SessionInfo> &sessions);
    void toolCallTraced(const QString &toolCallId, RequestTrace *trace);
    // The person chose this mode for this agent: the app keeps it for its next conversations.
    void modeChosen(const QString &agent, const QString &modeId);

private:
    void setState(State state);
    void setMissing(const QString &what, const QString &fix);
    void openSession();
    void adopt(AgentSession *session, bool fresh);
    void applyPreferredMode(AgentSession *session, std::function<void()> then);
    void becomeReady();
    void onExited(int exitCode, bool crashed, const QStringList &lastStderr);
    void onFailed(const QString &message);
    void endClient();
    QList<Acp::McpServer> servers();

    AccessGate *m_access;
    LispDuetServer m_server;
    QString m_root;
    std::function<QString(const QString &)> m_recallMode;
    int m_initializeTimeoutMs = 30000;
    QList<AgentCommand> m_agents;
    AgentCommand m_command;
    State m_state = State::Stopped;
    QString m_missing;
    QString m_fix;
    QPointer<AcpClient> m_client;
    QPointer<AgentSession> m_session;
    ChatJournal *m_chat;
    AgentApprovals *m_approvals;
    ModelWaitNotice *m_modelWait;
    LoginTerminal *m_login;
    QString m_firstPrompt;
    bool m_stopping = false;
};

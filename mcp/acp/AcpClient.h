#pragma once

#include "AcpConnection.h"
#include "AcpTypes.h"
#include "AcpWire.h"
#include "AgentCommand.h"
#include "AgentProcess.h"
#include "AgentSession.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>
#include <optional>

// One agent, from its start to its end: starts its process (AgentProcess), speaks ACP with it
// (AcpConnection), initializes within a time limit, and makes its sessions (AgentSession). It
// serves the agent's requests: session/request_permission goes to the session it names (an
// unknown session is refused, -32002); anything else is -32601, since Lisp Duet offers neither
// fs/* nor terminal/*. When the agent exits or crashes, every request in flight fails with what
// it last wrote to stderr, and no process of its group is left.
class AcpClient : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Idle,         // not started
        Starting,     // the process is starting
        Initializing, // initialize sent
        Ready,        // initialized: sessions can be made
        Failed,       // could not start, did not initialize in time, or spoke another version
        Exited,       // the agent ended by itself (exited() says how; a Failed one stays Failed)
    };
    Q_ENUM(State)

    explicit AcpClient(QObject *parent = nullptr);
    ~AcpClient() override;

    void setClientInfo(const AcpWire::ClientInfo &info) { m_clientInfo = info; }
    void setInitializeTimeoutMs(int ms) { m_initializeTimeoutMs = ms; }
    void setRequestTimeoutMs(int ms) { m_requestTimeoutMs = ms; } // session/new, list, set_mode...
    int requestTimeoutMs() const { return m_requestTimeoutMs; }

    // Starts the agent in `workingDirectory` and initializes it: ready() or failed() follows.
    // Once only: to start again (Restart), make a new AcpClient.
    void start(const AgentCommand &command, const QString &workingDirectory = {});
    // Ends it (its whole process group); exited() follows.
    void stop();

    State state() const { return m_state; }
    const QString &failure() const { return m_failure; } // Failed and Exited: why, in words
    const AgentCommand &command() const { return m_command; }
    const Acp::AgentCapabilities &capabilities() const { return m_capabilities; }
    AgentProcess *process() const { return m_process; }
    AcpConnection *connection() const { return m_connection; }

    using Done = std::function<void(const std::optional<Acp::Error> &error)>;
    using SessionDone = std::function<void(AgentSession *session, const std::optional<Acp::Error> &error)>;
    void authenticate(const QString &methodId, Done done);
    // session/new: an error with isAuthRequired() means: log in first (capabilities().authMethods).
    void newSession(const QString &cwd, const QList<Acp::McpServer> &servers, SessionDone done);
    // session/load (the agent replays the conversation into the session's Conversation first)
    // and session/resume (no replay), when capabilities() say the agent offers them.
    void loadSession(const QString &sessionId, const QString &cwd, const QList<Acp::McpServer> &servers, SessionDone done);
    void resumeSession(const QString &sessionId, const QString &cwd, const QList<Acp::McpServer> &servers, SessionDone done);
    using ListDone = std::function<void(const QList<Acp::SessionInfo> &sessions, const std::optional<Acp::Error> &error)>;
    void listSessions(const QString &cwd, ListDone done);

    AgentSession *session(const QString &id) const { return m_sessions.value(id); }
    QList<AgentSession *> sessions() const { return m_sessions.values(); }

Q_SIGNALS:
    void stateChanged(AcpClient::State state);
    void ready();
    void failed(const QString &message);
    void exited(int exitCode, bool crashed, const QStringList &lastStderr);
    // The agent's stderr and what the connection ignored, line by line, for a log pane.
    void logLine(const QString &line);
    void sessionAdded(AgentSession *session);

private:
    void setState(State state);
    void fail(const QString &message);
    void initialize();
    void reopen(const char *method, const QString &sessionId, const QString &cwd, const QList<Acp::McpServer> &servers,
                SessionDone done);
    AgentSession *addSession(const QString &id);
    void applySessionState(AgentSession *session, const QJsonObject &result);
    void onExited(int exitCode, bool crashed, const QStringList &lastStderr);

    AcpWire::ClientInfo m_clientInfo;
    int m_initializeTimeoutMs = 30000;
    int m_requestTimeoutMs = 60000;
    State m_state = State::Idle;
    QString m_failure;
    AgentCommand m_command;
    Acp::AgentCapabilities m_capabilities;
    AgentProcess *m_process = nullptr;
    AcpConnection *m_connection; // from the start: requests before the agent runs wait for it
    QHash<QString, AgentSession *> m_sessions;
    QSet<QString> m_unknownFields; // logged once each
};

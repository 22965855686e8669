#include "AcpClient.h"

AcpClient::AcpClient(QObject *parent)
    : QObject(parent)
    , m_connection(new AcpConnection([this](const QByteArray &line) {
        if (m_process)
            m_process->writeLine(line);
    }, this))
{
}

AcpClient::~AcpClient()
{
    // The process first (it ends its group), then the connection: nothing answers a dead agent.
    delete std::exchange(m_process, nullptr);
    if (m_connection)
        m_connection->close(QStringLiteral("Lisp Duet stopped the agent."));
}

void AcpClient::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void AcpClient::fail(const QString &message)
{
    m_failure = message;
    setState(State::Failed);
    Q_EMIT logLine(message);
    Q_EMIT failed(message);
    if (m_process)
        m_process->stop();
}

void AcpClient::start(const AgentCommand &command, const QString &workingDirectory)
{
    Q_ASSERT(m_state == State::Idle);
    m_command = command;
    m_process = new AgentProcess(this);
    connect(m_connection, &AcpConnection::logged, this, &AcpClient::logLine);
    connect(m_process, &AgentProcess::lineReceived, m_connection, &AcpConnection::receiveLine);
    connect(m_process, &AgentProcess::stderrLine, this, &AcpClient::logLine);
    connect(m_process, &AgentProcess::lineDropped, this, [this](qsizetype cap) {
        Q_EMIT logLine(QStringLiteral("ignored: the agent wrote a line of more than %1 MiB").arg(cap / (1024 * 1024)));
    });
    connect(m_process, &AgentProcess::failedToStart, this, [this](const QString &reason) {
        m_connection->close(reason);
        fail(QStringLiteral("The agent %1 could not be started: %2").arg(m_command.name, reason));
    });
    connect(m_process, &AgentProcess::started, this, &AcpClient::initialize);
    connect(m_process, &AgentProcess::exited, this, &AcpClient::onExited);

    m_connection->onNotification(QString::fromLatin1(AcpWire::Method::SessionUpdate), [this](const QJsonObject &params) {
        // Fields v1 does not define are ignored; each is logged once, for whoever reads the log.
        for (const QString &field : AcpWire::unknownUpdateFields(params)) {
            if (!m_unknownFields.contains(field)) {
                m_unknownFields.insert(field);
                Q_EMIT logLine(QStringLiteral("ignored: a field ACP v1 does not define: %1").arg(field));
            }
        }
        if (AgentSession *session = m_sessions.value(AcpWire::updateSessionId(params)))
            session->receiveUpdate(params);
        else
            Q_EMIT logLine(QStringLiteral("ignored: an update for session %1, which is not open here").arg(AcpWire::updateSessionId(params)));
    });
    m_connection->onRequest(QString::fromLatin1(AcpWire::Method::RequestPermission),
                            [this](const QJsonObject &params, const AcpResponder &responder) {
                                const QString id = params.value(QStringLiteral("sessionId")).toString();
                                if (AgentSession *session = m_sessions.value(id)) {
                                    session->receivePermissionRequest(params, responder);
                                    return;
                                }
                                responder.fail(Acp::Error::ResourceNotFound, QStringLiteral("Resource not found: no session %1").arg(id),
                                               QJsonObject{{QStringLiteral("sessionId"), id}});
                                Q_EMIT logLine(QStringLiteral("refused: a permission request for session %1, which is not open here").arg(id));
                            });
    setState(State::Starting);
    m_process->start(command, workingDirectory);
}

void AcpClient::initialize()
{
    setState(State::Initializing);
    m_connection->request(
        QString::fromLatin1(AcpWire::Method::Initialize), AcpWire::initializeParams(m_clientInfo), this,
        [this](const AcpConnection::Reply &reply) {
            if (m_state != State::Initializing)
                return;
            if (!reply.ok) {
                if (reply.error.code == Acp::Error::TimedOut)
                    fail(QStringLiteral("%1 did not answer initialize within %2 s: it may not be an ACP agent, or it is "
                                        "waiting for something (a login, a first run). Its command: %3")
                             .arg(m_command.name).arg(m_initializeTimeoutMs / 1000).arg(m_command.commandLine()));
                else if (reply.error.code != Acp::Error::ConnectionClosed)
                    fail(QStringLiteral("%1 refused initialize: %2").arg(m_command.name, reply.error.describe()));
                return;
            }
            m_capabilities = AcpWire::readInitialize(reply.result);
            if (m_capabilities.protocolVersion != AcpWire::ProtocolVersion) {
                fail(QStringLiteral("%1 speaks ACP version %2; Lisp Duet speaks version %3.")
                         .arg(m_command.name).arg(m_capabilities.protocolVersion).arg(AcpWire::ProtocolVersion));
                return;
            }
            setState(State::Ready);
            Q_EMIT ready();
        },
        m_initializeTimeoutMs);
}

void AcpClient::stop()
{
    if (m_process)
        m_process->stop();
}

void AcpClient::onExited(int exitCode, bool crashed, const QStringList &lastStderr)
{
    const QString how = crashed ? QStringLiteral("was killed") : QStringLiteral("exited with status %1").arg(exitCode);
    QString message = QStringLiteral("%1 %2.").arg(m_command.name, how);
    if (!lastStderr.isEmpty())
        message += QStringLiteral(" Its last words: ") + lastStderr.join(QLatin1Char('\n'));
    m_connection->close(message);
    // A failure (no answer to initialize, another version) stays the reason; its stop is ours.
    if (m_state != State::Failed) {
        m_failure = message;
        setState(State::Exited);
    }
    Q_EMIT exited(exitCode, crashed, lastStderr);
}

void AcpClient::authenticate(const QString &methodId, Done done)
{
    m_connection->request(QString::fromLatin1(AcpWire::Method::Authenticate), AcpWire::authenticateParams(methodId), this,
                          [done](const AcpConnection::Reply &reply) {
                              done(reply.ok ? std::nullopt : std::optional(reply.error));
                          },
                          0); // a login may take the person minutes
}

AgentSession *AcpClient::addSession(const QString &id)
{
    if (AgentSession *existing = m_sessions.value(id))
        return existing;
    auto *session = new AgentSession(this, id, this);
    m_sessions.insert(id, session);
    // A panel may delete a session it closes; its updates are then ignored, not misrouted.
    connect(session, &QObject::destroyed, this, [this, id] { m_sessions.remove(id); });
    Q_EMIT sessionAdded(session);
    return session;
}

void AcpClient::applySessionState(AgentSession *session, const QJsonObject &result)
{
    const AcpWire::NewSession state = AcpWire::readSessionState(result);
    if (state.hasModes)
        session->conversation()->setModes(state.modes, state.currentModeId);
    if (state.hasConfigOptions)
        session->conversation()->setConfigOptions(state.configOptions);
}

void AcpClient::newSession(const QString &cwd, const QList<Acp::McpServer> &servers, SessionDone done)
{
    m_connection->request(QString::fromLatin1(AcpWire::Method::SessionNew), AcpWire::newSessionParams(cwd, servers), this,
                          [this, done](const AcpConnection::Reply &reply) {
                              if (!reply.ok) {
                                  done(nullptr, reply.error);
                                  return;
                              }
                              const QString id = AcpWire::readSessionState(reply.result).sessionId;
                              if (id.isEmpty()) {
                                  done(nullptr, Acp::Error{Acp::Error::BadAnswer, QStringLiteral("The agent made a session without an id."), {}});
                                  return;
                              }
                              AgentSession *session = addSession(id);
                              applySessionState(session, reply.result);
                              done(session, std::nullopt);
                          },
                          m_requestTimeoutMs);
}

void AcpClient::reopen(const char *method, const QString &sessionId, const QString &cwd, const QList<Acp::McpServer> &servers,
                       SessionDone done)
{
    // Made first: session/load replays the history as updates before it answers.
    const bool existed = m_sessions.contains(sessionId);
    AgentSession *session = addSession(sessionId);
    m_connection->request(QString::fromLatin1(method), AcpWire::reopenSessionParams(sessionId, cwd, servers), this,
                          [this, done, sessionId, existed, session = QPointer<AgentSession>(session)](const AcpConnection::Reply &reply) {
                              if (!reply.ok) {
                                  if (!existed && session)
                                      delete m_sessions.take(sessionId);
                                  done(nullptr, reply.error);
                                  return;
                              }
                              applySessionState(session, reply.result);
                              done(session, std::nullopt);
                          },
                          m_requestTimeoutMs);
}

void AcpClient::loadSession(const QString &sessionId, const QString &cwd, const QList<Acp::McpServer> &servers, SessionDone done)
{
    reopen(AcpWire::Method::SessionLoad, sessionId, cwd, servers, std::move(done));
}

void AcpClient::resumeSession(const QString &sessionId, const QString &cwd, const QList<Acp::McpServer> &servers, SessionDone done)
{
    reopen(AcpWire::Method::SessionResume, sessionId, cwd, servers, std::move(done));
}

void AcpClient::listSessions(const QString &cwd, ListDone done)
{
    m_connection->request(QString::fromLatin1(AcpWire::Method::SessionList), AcpWire::listSessionsParams(cwd), this,
                          [done](const AcpConnection::Reply &reply) {
                              done(reply.ok ? AcpWire::readSessionList(reply.result) : QList<Acp::SessionInfo>(),
                                   reply.ok ? std::nullopt : std::optional(reply.error));
                          },
                          m_requestTimeoutMs);
}

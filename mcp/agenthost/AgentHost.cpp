#include "AgentHost.h"

#include "AgentApprovals.h"
#include "ChatJournal.h"
#include "LoginTerminal.h"
#include "ModelWaitNotice.h"

#include "acp/AcpClient.h"
#include "acp/AgentSession.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace {
// The known agent (installer/agents.sh installs it) this command is, if it is one.
std::optional<KnownAgent> knownAgentOf(const AgentCommand &command)
{
    for (const KnownAgent &agent : AgentCommand::knownAgents()) {
        if (agent.command.name == command.name || agent.key == command.name
            || QFileInfo(agent.command.program).fileName() == QFileInfo(command.program).fileName())
            return agent;
    }
    return std::nullopt;
}

QString installCommand(const AgentCommand &command)
{
    const std::optional<KnownAgent> known = knownAgentOf(command);
    return known ? QStringLiteral("installer/agents.sh %1").arg(known->key) : QString();
}

// An agent that died before it spoke ACP because its Node is too old (claude-agent-acp's
// `#!/usr/bin/env node` finds Debian 12's Node 18) or missing says so on stderr in these ways.
bool needsNewerNode(const QStringList &lastStderr)
{
    static const QRegularExpression signs(QStringLiteral("env: .?node.?: No such file|node: not found|SyntaxError|Unsupported engine|"
                                                         "requires Node|Node\\.js v1[0-9]\\.|ERR_UNKNOWN_BUILTIN_MODULE"));
    return signs.match(lastStderr.join(QLatin1Char('\n'))).hasMatch();
}

const Acp::ConfigOption *modeOption(const Conversation *conversation)
{
    for (const Acp::ConfigOption &option : conversation->configOptions()) {
        if (option.category == QLatin1String("mode"))
            return &option;
    }
    return nullptr;
}
} // namespace

AgentHost::AgentHost(AccessGate *access, McpServer *server, ToolRegistry *tools, QObject *parent)
    : QObject(parent), m_access(access), m_chat(new ChatJournal(this)), m_approvals(new AgentApprovals(access, server, tools, this)),
      m_modelWait(new ModelWaitNotice(this)), m_login(new LoginTerminal(this))
{
    m_approvals->setChatJournal(m_chat);
    connect(m_approvals, &AgentApprovals::toolCallTraced, this, &AgentHost::toolCallTraced);
    connect(m_login, &LoginTerminal::finished, this, [this] {
        if (m_state == State::NeedsLogin)
            openSession(); // logged in, perhaps: ask again (the agent says if not)
    });
}

AgentHost::~AgentHost()
{
    // What the agent said and did so far is kept, then its whole process group ends.
    m_chat->cutTurn(tr("The window closed during the turn."));
    m_stopping = true;
    m_approvals->follow(nullptr);
    m_modelWait->follow(nullptr);
    if (m_client) {
        // Views let go first.
        Q_EMIT sessionChanged(nullptr);
        Q_EMIT clientChanged(nullptr);
        delete m_client.data();
    }
}

void AgentHost::setJournal(Journal *journal)
{
    m_chat->setJournal(journal);
}

void AgentHost::setModelWaitMs(int ms)
{
    m_modelWait->setQuietMs(ms);
}

void AgentHost::setAgents(const QList<AgentCommand> &agents, const QString &current)
{
    m_agents = agents;
    Q_EMIT agentsChanged(m_agents, current.isEmpty() ? m_command.name : current);
}

AcpClient *AgentHost::client() const
{
    return m_client;
}

AgentSession *AgentHost::session() const
{
    return m_session;
}

QList<Acp::AuthMethod> AgentHost::authMethods() const
{
    return m_client ? m_client->capabilities().authMethods : QList<Acp::AuthMethod>();
}

QString AgentHost::workingDirectory() const
{
    return m_root.isEmpty() ? QDir::homePath() : m_root;
}

void AgentHost::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void AgentHost::setMissing(const QString &what, const QString &fix)
{
    if (what == m_missing && fix == m_fix)
        return;
    m_missing = what;
    m_fix = fix;
    Q_EMIT missingChanged(what, fix);
}

QString AgentHost::whatIsMissing(const AgentCommand &command, QString *fix)
{
    if (fix)
        fix->clear();
    if (command.isEmpty())
        return tr("No agent is chosen: choose one, or add its command in File \u25b8 Settings \u25b8 Agents.");
    if (!command.resolvedProgram().isEmpty())
        return {};
    if (const std::optional<KnownAgent> known = knownAgentOf(command); known && !known->missing.isEmpty()) {
        if (fix)
            *fix = installCommand(command);
        return known->missing;
    }
    return command.program.contains(QLatin1Char('/'))
        ? tr("%1 cannot start: %2 does not exist or is not executable.").arg(command.name, command.program)
        : tr("%1 cannot start: %2 was not found on PATH. Install it, or give its whole path in File \u25b8 Settings \u25b8 Agents.")
              .arg(command.name, command.program);
}

void AgentHost::start(const AgentCommand &command)
{
    endClient();
    m_command = command;
    m_chat->setAgent(command.name);
    m_modelWait->setAgent(command.name);
    m_approvals->setAgent(command.name, m_server.name, m_root);
    QString fix;
    const QString missing = whatIsMissing(command, &fix);
    setMissing(missing, fix);
    Q_EMIT agentsChanged(m_agents, command.name);
    if (!missing.isEmpty()) {
        setState(State::Missing);
        return;
    }
    auto *client = new AcpClient(this);
    m_client = client;
    client->setClientInfo({QStringLiteral("lisp-duet"), QStringLiteral("Lisp Duet"), QCoreApplication::applicationVersion(), true});
    client->setInitializeTimeoutMs(m_initializeTimeoutMs);
    connect(client, &AcpClient::ready, this, &AgentHost::openSession);
    connect(client, &AcpClient::failed, this, &AgentHost::onFailed);
    connect(client, &AcpClient::exited, this, &AgentHost::onExited);
    setState(State::Starting);
    Q_EMIT clientChanged(client);
    client->start(command, workingDirectory());
}

// The client in use goes (its process group with it), after the panel has let go of it.
void AgentHost::endClient()
{
    if (!m_client)
        return;
    if (m_session && m_session->isPrompting())
        m_chat->cutTurn(tr("%1 was stopped during the turn.").arg(m_command.name));
    m_chat->follow(nullptr);
    m_approvals->follow(nullptr);
    m_modelWait->follow(nullptr);
    AcpClient *old = m_client;
    m_client = nullptr;
    m_session = nullptr;
    disconnect(old, nullptr, this, nullptr);
    Q_EMIT sessionChanged(nullptr);
    Q_EMIT clientChanged(nullptr);
    old->stop();
    old->deleteLater();
}

void AgentHost::stop()
{
    if (!m_client)
        return;
    if (m_session && m_session->isPrompting())
        m_chat->cutTurn(tr("You stopped %1 during the turn.").arg(m_command.name));
    m_stopping = true;
    m_client->stop(); // exited() follows: Stopped
}

void AgentHost::restart()
{
    if (!m_command.isEmpty())
        start(m_command);
}

QList<Acp::McpServer> AgentHost::servers()
{
    QString why;
    const std::optional<Acp::McpServer> server = m_server.forAgent(m_client->capabilities(), &why);
    if (!server) {
        setMissing(why, QString());
        return {};
    }
    return {*server};
}

void AgentHost::openSession()
{
    if (!m_client || m_client->state() != AcpClient::State::Ready)
        return;
    setState(State::Starting);
    const QPointer<AcpClient> client = m_client;
    m_client->newSession(workingDirectory(), servers(), [this, client](AgentSession *session, const std::optional<Acp::Error> &error) {
        if (client != m_client)
            return; // an agent stopped meanwhile
        if (error && error->isAuthRequired()) {
            const QList<Acp::AuthMethod> methods = m_client->capabilities().authMethods;
            setMissing(tr("%1 needs you to log in before it can talk: %2").arg(m_command.name, error->message),
                       methods.isEmpty() ? QString() : m_client->command().forLogin(methods.first()).commandLine());
            setState(State::NeedsLogin);
            Q_EMIT authMethodsChanged(methods);
            return;
        }
        if (error || !session) {
            setMissing(tr("%1 could not open a conversation: %2").arg(m_command.name, error ? error->describe() : QString()), QString());
            m_chat->recordNotice(m_missing);
            setState(State::Failed);
            return;
        }
        Q_EMIT authMethodsChanged({});
        adopt(session, true);
    });
}

void AgentHost::adopt(AgentSession *session, bool fresh)
{
    m_chat->follow(session);
    m_approvals->follow(session);
    m_modelWait->follow(session);
    m_session = session;
    if (m_missing.startsWith(m_command.name + tr(" needs you to log in")))
        setMissing({}, {});
    Q_EMIT sessionChanged(session);
    if (m_root.isEmpty())
        session->conversation()->addNotice(QStringLiteral("info"), tr("No project is open"),
                                           tr("%1 works in your home folder, %2. Open a project (File \u25b8 Open project\u2026) "
                                              "and start it again to have it work there.")
                                               .arg(m_command.name, QDir::homePath()));
    if (fresh)
        applyPreferredMode(session, [this] { becomeReady(); });
    else
        becomeReady();
}

// A new conversation starts in the mode the person chose for this agent, else in `default`
// (Claude Code starts in `auto`, which never asks): offered as a mode, or as a config option of
// category mode.
void AgentHost::applyPreferredMode(AgentSession *session, std::function<void()> then)
{
    QString wanted = m_recallMode ? m_recallMode(m_command.name) : QString();
    if (wanted.isEmpty())
        wanted = QStringLiteral("default");
    const Conversation *conversation = session->conversation();
    const bool offered = std::any_of(conversation->modes().cbegin(), conversation->modes().cend(),
                                     [&](const Acp::SessionMode &mode) { return mode.id == wanted; });
    const Acp::ConfigOption *option = offered ? nullptr : modeOption(conversation);
    const bool asOption = option && std::any_of(option->options.cbegin(), option->options.cend(),
                                                [&](const Acp::ConfigOption::Choice &choice) { return choice.value == wanted; });
    if ((!offered && !asOption) || conversation->currentModeId() == wanted) {
        then();
        return;
    }
    const auto done = [then](const std::optional<Acp::Error> &) { then(); }; // a refusal leaves the agent's own mode
    if (offered)
        session->setMode(wanted, done);
    else
        session->setConfigOption(option->id, wanted, done);
}

void AgentHost::becomeReady()
{
    setState(State::Ready);
    if (!m_firstPrompt.isEmpty() && m_session)
        m_session->prompt({Acp::ContentBlock::fromText(std::exchange(m_firstPrompt, {}))});
}

void AgentHost::promptWhenReady(const QString &text)
{
    m_firstPrompt = text;
    if (m_state == State::Ready)
        becomeReady();
}

void AgentHost::onFailed(const QString &message)
{
    m_chat->recordNotice(message);
    setState(State::Failed);
}

void AgentHost::onExited(int exitCode, bool crashed, const QStringList &lastStderr)
{
    Q_UNUSED(exitCode)
    Q_UNUSED(crashed)
    const bool asked = std::exchange(m_stopping, false);
    const QString failure = m_client ? m_client->failure() : QString();
    if (asked) {
        setState(State::Stopped);
        return;
    }
    if (m_state == State::Starting && needsNewerNode(lastStderr)) {
        const QString fix = installCommand(m_command);
        setMissing(tr("%1 needs Node 22 or later, and the node it found is older or missing (it said: %2).")
                       .arg(m_command.name, lastStderr.isEmpty() ? QString() : lastStderr.constLast()),
                   fix.isEmpty() ? QStringLiteral("installer/agents.sh") : fix);
    }
    if (m_session) // the row of the turn it was in says so, with its last words
        m_session->conversation()->addNotice(QStringLiteral("error"), tr("%1 ended").arg(m_command.name),
                                             tr("%1 Restart starts it again.").arg(failure));
    else if (m_state != State::Failed)
        m_chat->recordNotice(failure);
    setState(State::Failed);
}

void AgentHost::login(const Acp::AuthMethod &method)
{
    if (!m_client)
        return;
    if (method.isTerminal()) {
        QString instead;
        if (!m_login->run(m_client->command().forLogin(method), workingDirectory(), &instead))
            setMissing(tr("%1 needs you to log in, and no terminal could be opened here (set $TERMINAL to yours). Run this "
                          "in a terminal, then press Start again:").arg(m_command.name),
                       instead);
        return;
    }
    const QPointer<AcpClient> client = m_client;
    m_client->authenticate(method.id, [this, client](const std::optional<Acp::Error> &error) {
        if (client != m_client)
            return;
        if (error)
            setMissing(tr("%1 could not log in: %2").arg(m_command.name, error->describe()), QString());
        else
            openSession();
    });
}

void AgentHost::listSessions()
{
    if (!m_client || !m_client->capabilities().listSessions) {
        Q_EMIT sessionsListed({});
        return;
    }
    m_client->listSessions(workingDirectory(), [this](const QList<Acp::SessionInfo> &sessions, const std::optional<Acp::Error> &) {
        Q_EMIT sessionsListed(sessions);
    });
}

void AgentHost::resume(const QString &sessionId)
{
    if (!m_client)
        return;
    const Acp::AgentCapabilities &capabilities = m_client->capabilities();
    if (!capabilities.resumeSession && !capabilities.loadSession)
        return;
    if (m_session && m_session->isPrompting())
        m_session->cancel();
    const QPointer<AcpClient> client = m_client;
    const auto done = [this, client](AgentSession *session, const std::optional<Acp::Error> &error) {
        if (client != m_client)
            return;
        if ((error || !session) && m_session) {
            m_session->conversation()->addNotice(QStringLiteral("error"), tr("Not resumed"),
                                                 tr("%1 could not resume that conversation: %2").arg(m_command.name, error ? error->describe() : QString()));
            return;
        }
        if (session)
            adopt(session, false);
    };
    // resume keeps the agent's own history; load replays it into the conversation first.
    if (capabilities.resumeSession)
        m_client->resumeSession(sessionId, workingDirectory(), servers(), done);
    else
        m_client->loadSession(sessionId, workingDirectory(), servers(), done);
}

void AgentHost::chooseMode(const QString &modeId)
{
    if (!m_session)
        return;
    const QString agent = m_command.name;
    const auto done = [this, agent, modeId](const std::optional<Acp::Error> &error) {
        if (!error)
            Q_EMIT modeChosen(agent, modeId);
    };
    const Conversation *conversation = m_session->conversation();
    const Acp::ConfigOption *option = conversation->modes().isEmpty() ? modeOption(conversation) : nullptr;
    if (option)
        m_session->setConfigOption(option->id, modeId, done);
    else
        m_session->setMode(modeId, done);
}

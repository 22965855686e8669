#include "AgentSession.h"

#include "AcpClient.h"
#include "AcpWire.h"

AgentSession::AgentSession(AcpClient *client, const QString &id, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_id(id)
{
}

bool AgentSession::prompt(const QList<Acp::ContentBlock> &prompt)
{
    if (isPrompting() || !m_client || !m_client->connection())
        return false;
    m_conversation.addPrompt(prompt);
    m_promptId = m_client->connection()->request(
        QString::fromLatin1(AcpWire::Method::SessionPrompt), AcpWire::promptParams(m_id, prompt), this,
        [this](const AcpConnection::Reply &reply) {
            m_promptId = -1;
            if (!reply.ok) {
                endTurn({}, reply.error);
                return;
            }
            Acp::Usage usage;
            AcpWire::readPromptUsage(reply.result, usage);
            if (usage.turnInputTokens >= 0 || usage.turnOutputTokens >= 0)
                m_conversation.setTurnUsage(usage);
            const QString stopReason = AcpWire::readStopReason(reply.result);
            if (stopReason.isEmpty())
                endTurn({}, {Acp::Error::BadAnswer, QStringLiteral("The agent ended the turn without a stop reason."), {}});
            else
                endTurn(stopReason, {});
        });
    Q_EMIT turnStarted();
    return true;
}

void AgentSession::endTurn(const QString &stopReason, const Acp::Error &error)
{
    Q_EMIT turnEnded(stopReason, error);
}

void AgentSession::cancel()
{
    if (!m_client || !m_client->connection())
        return;
    m_client->connection()->notify(QString::fromLatin1(AcpWire::Method::SessionCancel), AcpWire::sessionParams(m_id));
    for (PermissionRequest *request : pendingPermissions())
        request->cancel();
}

void AgentSession::setMode(const QString &modeId, Done done)
{
    if (!m_client || !m_client->connection())
        return;
    m_client->connection()->request(QString::fromLatin1(AcpWire::Method::SessionSetMode), AcpWire::setModeParams(m_id, modeId),
                                    this, [this, modeId, done](const AcpConnection::Reply &reply) {
                                        if (reply.ok)
                                            m_conversation.setCurrentMode(modeId);
                                        if (done)
                                            done(reply.ok ? std::nullopt : std::optional(reply.error));
                                    }, m_client->requestTimeoutMs());
}

void AgentSession::setConfigOption(const QString &optionId, const QJsonValue &value, Done done)
{
    if (!m_client || !m_client->connection())
        return;
    m_client->connection()->request(QString::fromLatin1(AcpWire::Method::SessionSetConfigOption),
                                    AcpWire::setConfigOptionParams(m_id, optionId, value), this,
                                    [this, done](const AcpConnection::Reply &reply) {
                                        if (reply.ok && reply.result.value(QStringLiteral("configOptions")).isArray())
                                            m_conversation.setConfigOptions(AcpWire::readConfigOptions(
                                                reply.result.value(QStringLiteral("configOptions"))));
                                        if (done)
                                            done(reply.ok ? std::nullopt : std::optional(reply.error));
                                    }, m_client->requestTimeoutMs());
}

QList<PermissionRequest *> AgentSession::pendingPermissions() const
{
    QList<PermissionRequest *> pending;
    for (const QPointer<PermissionRequest> &request : m_permissions) {
        if (request && request->isPending())
            pending.append(request);
    }
    return pending;
}

void AgentSession::receiveUpdate(const QJsonObject &params)
{
    m_conversation.apply(AcpWire::readSessionUpdate(params));
}

void AgentSession::receivePermissionRequest(const QJsonObject &params, const AcpResponder &responder)
{
    const AcpWire::PermissionRequestParams request = AcpWire::readPermissionRequest(params);
    if (request.options.isEmpty()) {
        responder.fail(-32602, QStringLiteral("A permission request needs at least one option"));
        return;
    }
    // The request's toolCall is an update of the conversation's tool call (Claude Code sends the
    // whole call again): the row and the approval show the same thing.
    const int index = m_conversation.applyToolCall(request.toolCall, false);
    const Acp::ToolCall call = index >= 0 ? *m_conversation.toolCall(AcpWire::toolCallId(request.toolCall)) : Acp::ToolCall();
    auto *permission = new PermissionRequest(m_id, call, request.options, responder, this);
    m_permissions.removeAll(nullptr);
    m_permissions.append(permission);
    connect(permission, &PermissionRequest::finished, permission, &QObject::deleteLater, Qt::QueuedConnection);
    Q_EMIT permissionRequested(permission);
}

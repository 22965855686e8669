#pragma once

#include "AcpTypes.h"
#include "Conversation.h"
#include "PermissionRequest.h"

#include <QObject>
#include <QPointer>

#include <functional>

class AcpClient;

// One ACP session of a running agent: prompts and their turns, cancel, mode and config option,
// and the permission requests the agent makes in it. Its Conversation holds what was said and
// done. AcpClient makes it (session/new, load, resume) and owns it.
class AgentSession : public QObject
{
    Q_OBJECT
public:
    AgentSession(AcpClient *client, const QString &id, QObject *parent = nullptr);

    const QString &id() const { return m_id; }
    Conversation *conversation() { return &m_conversation; }
    const Conversation *conversation() const { return &m_conversation; }
    bool isPrompting() const { return m_promptId >= 0; }

    // Sends the person's prompt (text and embedded resources); the conversation adds it as a
    // turn. turnEnded follows, with the stop reason (end_turn, max_tokens, max_turn_requests,
    // refusal, cancelled) or an error. One turn at a time: false while one runs.
    bool prompt(const QList<Acp::ContentBlock> &prompt);
    // Stop: session/cancel, then every pending permission request is answered `cancelled`, as
    // the protocol requires. The turn ends when the agent answers the prompt (`cancelled`).
    void cancel();

    using Done = std::function<void(const std::optional<Acp::Error> &error)>;
    void setMode(const QString &modeId, Done done = {});
    void setConfigOption(const QString &optionId, const QJsonValue &value, Done done = {});

    QList<PermissionRequest *> pendingPermissions() const;

    // AcpClient's: a session/update for this session, and a permission request.
    void receiveUpdate(const QJsonObject &params);
    void receivePermissionRequest(const QJsonObject &params, const AcpResponder &responder);
    // (When the agent goes, the connection fails the running prompt, so the turn ends with why,
    // and withdraws the pending permission requests.)

Q_SIGNALS:
    void turnStarted();
    // stopReason empty when the turn failed: `error` says why.
    void turnEnded(const QString &stopReason, const Acp::Error &error);
    void permissionRequested(PermissionRequest *request);

private:
    void endTurn(const QString &stopReason, const Acp::Error &error);

    QPointer<AcpClient> m_client;
    QString m_id;
    Conversation m_conversation;
    int m_promptId = -1;
    QList<QPointer<PermissionRequest>> m_permissions;
};

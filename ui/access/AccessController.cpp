#include "AccessController.h"

#include "McpPeer.h"
#include "McpServer.h"

AccessController::AccessController(QObject *parent) : QObject(parent) {}

void AccessController::install(McpServer *server)
{
    server->setCallGate([this](McpPeer *peer, Tool *tool, const ToolCallPtr &call, std::function<void(const QString &)> proceed) {
        gate(peer, tool, call, std::move(proceed));
    });
}

void AccessController::gate(McpPeer *peer, Tool *tool, const ToolCallPtr &call, std::function<void(const QString &)> proceed)
{
    const AccessDecision decision = AccessModes::decide(m_mode, tool->isReadOnly(), tool->name());
    if (decision.verdict != AccessDecision::Verdict::AskThePerson) {
        proceed(decision.refusal);
        return;
    }
    Pending pending;
    pending.call = call;
    pending.clientName = peer ? peer->clientName() : call->origin().name;
    pending.toolName = tool->name();
    pending.description = call->arguments().value(QStringLiteral("description")).toString();
    pending.code = call->arguments().value(QStringLiteral("code")).toString();
    pending.proceed = std::move(proceed);
    m_pending.append(pending);
    // A client may cancel (or go away) while the person thinks: drop it from the queue then.
    connect(call.data(), &ToolCall::cancelled, this, &AccessController::dropFinished);
    connect(call.data(), &ToolCall::finished, this, &AccessController::dropFinished);
    Q_EMIT callAwaitingApproval(call);
    Q_EMIT pendingChanged();
}

void AccessController::setMode(AccessMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    // Calls already waiting follow the new rule, so nothing stays stuck behind a mode change.
    if (mode != AccessMode::Ask) {
        const QList<Pending> waiting = m_pending;
        m_pending.clear();
        for (const Pending &pending : waiting) // only tools that are not read-only wait
            pending.proceed(AccessModes::decide(mode, false, pending.toolName).refusal);
        if (!waiting.isEmpty())
            Q_EMIT pendingChanged();
    }
    Q_EMIT modeChanged(mode);
}

void AccessController::approve()
{
    decide(true);
}

void AccessController::deny()
{
    decide(false);
}

void AccessController::decide(bool approved)
{
    dropFinished();
    if (m_pending.isEmpty())
        return;
    const Pending pending = m_pending.takeFirst();
    Q_EMIT pendingChanged();
    pending.proceed(approved ? QString() : AccessModes::deniedMessage(pending.toolName));
}

void AccessController::dropFinished()
{
    const auto before = m_pending.size();
    m_pending.erase(std::remove_if(m_pending.begin(), m_pending.end(),
                                   [](const Pending &p) { return p.call->isFinished() || p.call->isCancelled(); }),
                    m_pending.end());
    if (m_pending.size() != before)
        Q_EMIT pendingChanged();
}

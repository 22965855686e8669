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

QString AccessController::modeName(Mode mode)
{
    switch (mode) {
    case Mode::Allow: return tr("Allow");
    case Mode::Ask: return tr("Ask");
    case Mode::ReadOnly: return tr("Read-only");
    case Mode::Paused: return tr("Paused");
    }
    return {};
}

QString AccessController::modeDescription(Mode mode)
{
    switch (mode) {
    case Mode::Allow: return tr("Agents may evaluate code; you see every call as it runs.");
    case Mode::Ask: return tr("Each evaluation by an agent waits until you approve or deny it.");
    case Mode::ReadOnly: return tr("Agents may only use read-only tools; evaluation is refused.");
    case Mode::Paused: return tr("Every agent call is refused at once until you resume.");
    }
    return {};
}

QString AccessController::deniedMessage(const QString &tool)
{
    return tr("The person sharing this Lisp session denied this %1 call, so it did not run. "
              "Ask them what they would like instead, or explain why the call is needed.").arg(tool);
}

QString AccessController::readOnlyMessage(const QString &tool)
{
    return tr("Agent access to this Lisp session is read-only: the person allows introspection tools, "
              "but not %1, so nothing was evaluated. Ask the person to switch agent access to Allow or Ask.").arg(tool);
}

QString AccessController::pausedMessage()
{
    return tr("The person has paused agent access to this Lisp session: no tool call runs until they resume it. "
              "Nothing was queued; try again later or ask the person.");
}

void AccessController::gate(McpPeer *peer, Tool *tool, const ToolCallPtr &call, std::function<void(const QString &)> proceed)
{
    switch (m_mode) {
    case Mode::Allow:
        proceed(QString());
        return;
    case Mode::Paused:
        proceed(pausedMessage());
        return;
    case Mode::ReadOnly:
        proceed(tool->isReadOnly() ? QString() : readOnlyMessage(tool->name()));
        return;
    case Mode::Ask:
        break;
    }
    if (tool->isReadOnly()) {
        proceed(QString());
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

void AccessController::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    // Calls already waiting follow the new rule, so nothing stays stuck behind a mode change.
    if (mode != Mode::Ask) {
        const QList<Pending> waiting = m_pending;
        m_pending.clear();
        for (const Pending &pending : waiting) {
            if (mode == Mode::Allow)
                pending.proceed(QString());
            else if (mode == Mode::Paused)
                pending.proceed(pausedMessage());
            else
                pending.proceed(readOnlyMessage(pending.toolName));
        }
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
    pending.proceed(approved ? QString() : deniedMessage(pending.toolName));
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

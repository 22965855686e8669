#include "AccessController.h"

#include "McpPeer.h"
#include "McpServer.h"
#include "ProjectFiles.h"

AccessController::AccessController(QObject *parent) : QObject(parent) {}

void AccessController::install(McpServer *server)
{
    server->setCallGate([this](McpPeer *peer, Tool *tool, const ToolCallPtr &call, std::function<void(const QString &)> proceed) {
        gate(peer, tool, call, std::move(proceed));
    });
}

void AccessController::install(ProjectFiles *files)
{
    files->setChangeGate([this](const FileChange &change, std::function<void(const QString &)> decide) {
        changeGate(change, std::move(decide));
    });
}

void AccessController::changeGate(const FileChange &change, std::function<void(const QString &)> decide)
{
    Pending pending;
    pending.isChange = true;
    pending.change = change;
    pending.clientName = change.origin.name;
    pending.toolName = change.tool;
    pending.description = change.description;
    pending.proceed = std::move(decide);
    if (!change.origin.isAgent()) {
        pending.proceed(QString()); // the person's own change (an undo, a save) is theirs to make
        return;
    }
    decideChange(std::move(pending));
}

// A change follows the mode in force: it may wait in the approval queue (Ask) or among the
// held changes (Paused) until the person or the next mode decides it.
void AccessController::decideChange(Pending pending)
{
    switch (m_mode) {
    case AccessMode::Allow:
        pending.proceed(QString());
        return;
    case AccessMode::ReadOnly:
        pending.proceed(AccessModes::changeReadOnlyMessage(pending.change.path));
        return;
    case AccessMode::Paused:
        m_held.append(std::move(pending));
        return;
    case AccessMode::Ask:
        break;
    }
    m_pending.append(std::move(pending));
    Q_EMIT changeAwaitingApproval(m_pending.last().change);
    Q_EMIT pendingChanged();
}

void AccessController::gate(McpPeer *peer, Tool *tool, const ToolCallPtr &call, std::function<void(const QString &)> proceed)
{
    const AccessDecision decision = AccessModes::decide(m_mode, tool->isReadOnly(), tool->name(), tool->changesFiles(), tool->personDecides());
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
    // Calls and changes already waiting follow the new rule, so nothing stays stuck behind a
    // mode change; changes held while paused are decided when access resumes.
    QList<Pending> waiting;
    if (mode != AccessMode::Ask)
        waiting = std::exchange(m_pending, {});
    if (mode != AccessMode::Paused)
        waiting += std::exchange(m_held, {});
    bool queueChanged = false;
    for (Pending &pending : waiting) {
        if (pending.isChange) {
            queueChanged = queueChanged || mode != AccessMode::Ask;
            decideChange(std::move(pending));
        } else { // only tools that are not read-only wait
            queueChanged = true;
            pending.proceed(AccessModes::decide(mode, false, pending.toolName).refusal);
        }
    }
    if (queueChanged)
        Q_EMIT pendingChanged();
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
    if (pending.isChange)
        pending.proceed(approved ? QString() : AccessModes::changeDeniedMessage(pending.change.path));
    else
        pending.proceed(approved ? QString() : AccessModes::deniedMessage(pending.toolName));
}

void AccessController::dropFinished()
{
    const auto before = m_pending.size();
    m_pending.erase(std::remove_if(m_pending.begin(), m_pending.end(),
                                   [](const Pending &p) { return p.call && (p.call->isFinished() || p.call->isCancelled()); }),
                    m_pending.end());
    if (m_pending.size() != before)
        Q_EMIT pendingChanged();
}

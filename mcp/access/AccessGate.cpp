#include "AccessGate.h"

#include "ClientElicitation.h"
#include "project/ProjectFiles.h"
#include "server/McpPeer.h"
#include "server/McpServer.h"

#include <QJsonDocument>

#include <memory>

namespace {
// A question is read in the client's terminal or dialog: a long diff is cut there (the
// agent's result carries it whole once it is written).
constexpr int MaxQuestionDiffLines = 200;

// What identifies the question about a call or a change, so that a 2026-07-28 retry's answer
// counts only for the very same one (the same code; the same change of the same bytes).
QString subjectOf(const AccessGate::Pending &pending)
{
    if (pending.isChange)
        return QStringLiteral("change\n%1\n%2\n%3").arg(pending.change.absolutePath, QString::fromLatin1(pending.change.beforeDigest),
                                                         QString::fromLatin1(pending.change.afterDigest));
    return QStringLiteral("call\n%1\n%2").arg(pending.toolName, QString::fromUtf8(QJsonDocument(pending.call->arguments()).toJson(QJsonDocument::Compact)));
}

// The request a change or a call belongs to: it waits for the person until proceed is called.
void waitForThePerson(AccessGate::Pending &pending, ToolCall *call)
{
    if (!call)
        return;
    const RequestTracePtr trace = call->traceRef();
    trace->awaitPerson();
    pending.proceed = [trace, proceed = std::move(pending.proceed)](const QString &refusal) {
        trace->personDecided();
        proceed(refusal);
    };
}

ToolCall *proposerOf(const FileChange &change)
{
    return qobject_cast<ToolCall *>(change.proposedBy.data());
}

QString cappedDiff(const QString &diff)
{
    QStringList lines = diff.split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    if (lines.size() <= MaxQuestionDiffLines)
        return lines.join(QLatin1Char('\n'));
    const qsizetype more = lines.size() - MaxQuestionDiffLines;
    lines = lines.mid(0, MaxQuestionDiffLines);
    return lines.join(QLatin1Char('\n')) + QStringLiteral("\n\u2026 %1 more lines of the diff").arg(more);
}
} // namespace

AccessGate::AccessGate(QObject *parent) : QObject(parent) {}

void AccessGate::install(McpServer *server)
{
    server->setCallGate([this](McpPeer *peer, Tool *tool, const ToolCallPtr &call, std::function<void(const QString &)> proceed) {
        gate(peer, tool, call, std::move(proceed));
    });
    // The server keeps it, with the key its requestStates are sealed with, as long as it asks.
    const auto elicitation = std::make_shared<ClientElicitation>(server);
    server->setAskerFor([elicitation](const McpResponder &responder, bool modern, const QJsonObject &capabilities, const QJsonObject &params) {
        return elicitation->askerFor(responder, modern, capabilities, params);
    });
}

void AccessGate::install(ProjectFiles *files)
{
    files->setChangeGate([this](const FileChange &change, std::function<void(const QString &)> decide) {
        changeGate(change, std::move(decide));
    });
}

QString AccessGate::question(const Pending &pending)
{
    QString text;
    if (pending.isChange) {
        const FileChange &change = pending.change;
        text = (change.created ? tr("%1 wants to create %2") : tr("%1 wants to change %2")).arg(pending.clientName, change.path);
        if (!pending.toolName.isEmpty())
            text += tr(" with %1").arg(pending.toolName);
        if (!pending.description.isEmpty())
            text += QStringLiteral(": ") + pending.description;
        QString summary = change.summary;
        if (!change.followUp.isEmpty()) // approving the change approves this too: say so
            summary += (summary.isEmpty() ? QString() : QStringLiteral(", ")) + change.followUp;
        const QString counts = tr("+%1 \u2212%2 lines").arg(change.diff.added).arg(change.diff.removed);
        text += QStringLiteral("\n") + (summary.isEmpty() ? counts : summary + QStringLiteral(" \u00b7 ") + counts);
        text += QStringLiteral("\n\n") + cappedDiff(change.diff.text);
        text += tr("\n\nAccept to write it; decline to leave the file as it is.");
        return text;
    }
    text = tr("%1 wants to run %2").arg(pending.clientName, pending.toolName);
    if (!pending.description.isEmpty())
        text += QStringLiteral(": ") + pending.description;
    text += QStringLiteral("\n\n") + (pending.code.isEmpty() ? tr("It will %1.").arg(pending.intent) : pending.code);
    text += tr("\n\nAccept to run it; decline to refuse it.");
    return text;
}

void AccessGate::changeGate(const FileChange &change, std::function<void(const QString &)> decide)
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
    if (ToolCall *call = proposerOf(change))
        call->trace()->proposedChange(change);
    decideChange(std::move(pending));
}

// A change follows the mode in force: it may wait in the approval queue (Ask) or among the
// held changes (Paused) until the person or the next mode decides it.
void AccessGate::decideChange(Pending pending)
{
    switch (m_mode) {
    case AccessMode::Allow:
        pending.proceed(QString());
        return;
    case AccessMode::ReadOnly: {
        const QString sentence = AccessModes::changeReadOnlyMessage(pending.change.path);
        tellRefused(pending, proposerOf(pending.change), sentence, false);
        pending.proceed(sentence);
        return;
    }
    case AccessMode::Paused:
        waitForThePerson(pending, proposerOf(pending.change)); // until they resume
        m_held.append(std::move(pending));
        return;
    case AccessMode::Ask:
        break;
    }
    waitForThePerson(pending, proposerOf(pending.change));
    if (m_asking == Asking::ThroughTheClient) {
        askThroughTheClient(proposerOf(pending.change), pending);
        return;
    }
    m_pending.append(std::move(pending));
    Q_EMIT pendingChanged();
}

void AccessGate::gate(McpPeer *peer, Tool *tool, const ToolCallPtr &call, std::function<void(const QString &)> proceed)
{
    const AccessDecision decision = AccessModes::decide(m_mode, tool->isReadOnly(), tool->name(), tool->changesFiles(), tool->personDecides());
    // One decision: the person allowed this very call where the hosted agent asked for it.
    const bool allowedAlready = decision.verdict == AccessDecision::Verdict::AskThePerson && m_approvedElsewhere
        && !m_approvedElsewhere(*call).isEmpty();
    if (decision.verdict == AccessDecision::Verdict::Run || allowedAlready) {
        proceed(QString());
        return;
    }
    Pending pending;
    pending.call = call;
    pending.clientName = peer ? peer->clientName() : call->origin().name;
    pending.toolName = tool->name();
    pending.description = call->arguments().value(QStringLiteral("description")).toString();
    pending.code = call->arguments().value(QStringLiteral("code")).toString();
    pending.intent = tool->intent(call->arguments());
    if (decision.verdict == AccessDecision::Verdict::Refuse) {
        tellRefused(pending, call.data(), decision.refusal, false);
        proceed(decision.refusal);
        return;
    }
    pending.proceed = std::move(proceed);
    waitForThePerson(pending, call.data());
    if (m_asking == Asking::ThroughTheClient) {
        askThroughTheClient(call.data(), pending);
        return;
    }
    m_pending.append(pending);
    // A client may cancel (or go away) while the person thinks: drop it from the queue then.
    connect(call.data(), &ToolCall::cancelled, this, &AccessGate::dropFinished);
    connect(call.data(), &ToolCall::finished, this, &AccessGate::dropFinished);
    Q_EMIT pendingChanged();
}

void AccessGate::askThroughTheClient(ToolCall *call, const Pending &pending)
{
    // What the agent reads when nothing happened, in the words of what did not happen.
    const QString notDone = pending.isChange ? tr("your change to %1 was not written").arg(pending.change.path)
                                             : tr("%1 did not run").arg(pending.toolName);
    const auto proceed = pending.proceed;
    if (!call) {
        proceed(AccessModes::askUnavailableMessage(notDone));
        return;
    }
    const bool isChange = pending.isChange;
    const QString path = pending.change.path;
    const QString tool = pending.toolName;
    call->askThePerson(subjectOf(pending), question(pending), [proceed, notDone, isChange, path, tool](const PersonsAnswer &answer) {
        switch (answer.kind) {
        case PersonsAnswer::Kind::Accepted:
            proceed(QString());
            return;
        case PersonsAnswer::Kind::Declined:
            proceed(isChange ? AccessModes::changeDeniedMessage(path) : AccessModes::deniedMessage(tool));
            return;
        case PersonsAnswer::Kind::CannotAsk:
            proceed(AccessModes::askUnavailableMessage(notDone));
            return;
        case PersonsAnswer::Kind::NoAnswer:
            proceed(AccessModes::unansweredMessage(notDone, answer.problem));
            return;
        case PersonsAnswer::Kind::AskedOnRetry:
            // The call has ended with the question; nothing is done until its retry answers it.
            proceed(tr("The client was asked; its retry of the call decides."));
            return;
        }
    });
}

void AccessGate::setMode(AccessMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    // Calls and changes already waiting follow the new rule, so nothing stays stuck behind a
    // mode change; changes held while paused are decided when access resumes. An agent's
    // permission request stays before the person unless the new mode decides it.
    QList<Pending> waiting;
    if (mode != AccessMode::Ask) {
        QList<Pending> kept;
        for (Pending &pending : std::exchange(m_pending, {})) {
            const bool stays = pending.isPermission
                && (mode == AccessMode::Allow || (mode == AccessMode::ReadOnly && !pending.permission.changesSomething));
            (stays ? kept : waiting).append(std::move(pending));
        }
        m_pending = kept;
    }
    if (mode != AccessMode::Paused)
        waiting += std::exchange(m_held, {});
    bool queueChanged = false;
    for (Pending &pending : waiting) {
        if (pending.isPermission) {
            queueChanged = true;
            decidePermission(std::move(pending));
        } else if (pending.isChange) {
            queueChanged = queueChanged || mode != AccessMode::Ask;
            decideChange(std::move(pending));
        } else { // only tools that are not read-only wait
            queueChanged = true;
            const QString refusal = AccessModes::decide(mode, false, pending.toolName).refusal;
            if (!refusal.isEmpty())
                tellRefused(pending, pending.call.data(), refusal, false);
            pending.proceed(refusal);
        }
    }
    if (queueChanged)
        Q_EMIT pendingChanged();
    Q_EMIT modeChanged(mode);
}

void AccessGate::approve()
{
    decide(true);
}

void AccessGate::deny(const QString &reason)
{
    decide(false, reason);
}

void AccessGate::decide(bool approved, const QString &reason)
{
    dropFinished();
    if (m_pending.isEmpty())
        return;
    if (m_pending.first().isPermission) {
        const AgentPermission &permission = m_pending.first().permission;
        const AgentPermission::Option *option = permission.firstOf(approved);
        choose(option ? option->id : QString(), reason);
        return;
    }
    const Pending pending = m_pending.takeFirst();
    Q_EMIT pendingChanged();
    if (pending.isChange) {
        if (approved) {
            pending.proceed(QString());
            return;
        }
        const QString sentence = AccessModes::changeDeniedMessage(pending.change.path, reason);
        tellRefused(pending, proposerOf(pending.change), sentence, true, reason);
        pending.proceed(sentence);
        return;
    }
    if (approved) {
        pending.proceed(QString());
        return;
    }
    const QString sentence = AccessModes::deniedMessage(pending.toolName, reason);
    tellRefused(pending, pending.call.data(), sentence, true, reason);
    pending.proceed(sentence);
}

void AccessGate::tellRefused(const Pending &pending, ToolCall *call, const QString &sentence, bool denied, const QString &reason)
{
    Refusal refusal;
    refusal.origin = pending.isChange ? pending.change.origin : call ? call->origin() : Origin::agent(pending.clientName, QString());
    refusal.tool = pending.toolName;
    refusal.description = pending.description;
    refusal.what = pending.code.isEmpty() ? pending.intent : pending.code;
    refusal.sentence = sentence;
    refusal.denied = denied;
    refusal.reason = reason.trimmed();
    if (pending.isChange) {
        refusal.path = pending.change.path;
        // The call that proposed it reads "denied" in the Tool calls panel, as a refused call.
        if (call)
            call->trace()->refuse(sentence);
    }
    Q_EMIT refused(refusal);
}

void AccessGate::dropFinished()
{
    const auto before = m_pending.size();
    m_pending.erase(std::remove_if(m_pending.begin(), m_pending.end(),
                                   [](const Pending &p) { return p.call && (p.call->isFinished() || p.call->isCancelled()); }),
                    m_pending.end());
    if (m_pending.size() != before)
        Q_EMIT pendingChanged();
}

const AccessGate::AgentPermission::Option *AccessGate::AgentPermission::firstOf(bool allows) const
{
    for (const Option &option : options) {
        if (option.allows() == allows)
            return &option;
    }
    return nullptr;
}

quint64 AccessGate::askPermission(AgentPermission permission)
{
    Pending pending;
    pending.isPermission = true;
    pending.permissionId = m_nextPermission++;
    pending.clientName = permission.origin.name;
    pending.toolName = permission.toolName.isEmpty() ? permission.title : permission.toolName;
    pending.code = permission.code;
    pending.intent = permission.title;
    pending.permission = std::move(permission);
    const quint64 id = pending.permissionId;
    decidePermission(std::move(pending));
    return id;
}

// A permission request follows the mode in force, as a file change does: Read-only answers one
// that changes something at once, Paused holds it, Allow and Ask put it before the person.
void AccessGate::decidePermission(Pending pending)
{
    if (m_mode == AccessMode::ReadOnly && pending.permission.changesSomething) {
        const AgentPermission::Option *reject = pending.permission.firstOf(false);
        answerPermission(pending, reject ? reject->id : QString(), AccessModes::permissionReadOnlyMessage(pending.permission.title), false);
        return;
    }
    if (m_mode == AccessMode::Paused) {
        m_held.append(std::move(pending));
        return;
    }
    m_pending.append(std::move(pending));
    Q_EMIT pendingChanged();
}

void AccessGate::choose(const QString &optionId, const QString &reason)
{
    dropFinished();
    if (m_pending.isEmpty() || !m_pending.first().isPermission)
        return;
    const Pending pending = m_pending.takeFirst();
    Q_EMIT pendingChanged();
    answerPermission(pending, optionId, reason, true);
}

void AccessGate::answerPermission(const Pending &pending, const QString &optionId, const QString &reason, bool byThePerson)
{
    const AgentPermission &permission = pending.permission;
    const auto chosen = std::find_if(permission.options.cbegin(), permission.options.cend(),
                                     [&](const AgentPermission::Option &option) { return option.id == optionId; });
    const bool allowed = chosen != permission.options.cend() && chosen->allows();
    // What the agent is to be told of a rejection beyond the option itself: the mode's reason,
    // or the person's words (a rejection without words says all there is).
    QString told;
    if (!allowed) {
        const QString sentence = byThePerson ? AccessModes::permissionDeniedMessage(permission.title, reason) : reason;
        if (!byThePerson || !reason.trimmed().isEmpty())
            told = sentence;
        Refusal refusal;
        refusal.origin = permission.origin;
        refusal.tool = pending.toolName;
        refusal.what = permission.code.isEmpty() ? permission.title : permission.code;
        refusal.sentence = sentence;
        refusal.denied = byThePerson;
        refusal.reason = byThePerson ? reason.trimmed() : QString();
        Q_EMIT refused(refusal);
    }
    if (permission.answer)
        permission.answer(optionId, told);
}

void AccessGate::withdrawPermission(quint64 id)
{
    const auto withdrawn = [id](const Pending &pending) { return pending.isPermission && pending.permissionId == id; };
    m_held.removeIf(withdrawn);
    if (m_pending.removeIf(withdrawn) > 0)
        Q_EMIT pendingChanged();
}

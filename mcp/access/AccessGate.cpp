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
    case AccessMode::ReadOnly:
        pending.proceed(AccessModes::changeReadOnlyMessage(pending.change.path));
        return;
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
    if (decision.verdict == AccessDecision::Verdict::Run) {
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
        tellRefused(pending, call, decision.refusal, false);
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
            const QString refusal = AccessModes::decide(mode, false, pending.toolName).refusal;
            if (!refusal.isEmpty())
                tellRefused(pending, pending.call, refusal, false);
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
    const Pending pending = m_pending.takeFirst();
    Q_EMIT pendingChanged();
    if (pending.isChange) {
        // ProjectFiles says why a change was not made (changeRefused): the window shows that.
        pending.proceed(approved ? QString() : AccessModes::changeDeniedMessage(pending.change.path, reason));
        return;
    }
    if (approved) {
        pending.proceed(QString());
        return;
    }
    const QString sentence = AccessModes::deniedMessage(pending.toolName, reason);
    tellRefused(pending, pending.call, sentence, true, reason);
    pending.proceed(sentence);
}

void AccessGate::tellRefused(const Pending &pending, const ToolCallPtr &call, const QString &sentence, bool denied, const QString &reason)
{
    Refusal refusal;
    refusal.origin = call ? call->origin() : Origin::agent(pending.clientName, QString());
    refusal.tool = pending.toolName;
    refusal.description = pending.description;
    refusal.what = pending.code.isEmpty() ? pending.intent : pending.code;
    refusal.sentence = sentence;
    refusal.denied = denied;
    refusal.reason = reason.trimmed();
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

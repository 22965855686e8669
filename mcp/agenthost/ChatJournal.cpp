#include "ChatJournal.h"

#include "ToolCallText.h"

#include "acp/AgentSession.h"
#include "history/Journal.h"
#include "project/UnifiedDiff.h"
#include "session/LocalClock.h"

using Entry = Conversation::Entry;

namespace {
bool isMessage(const Entry &entry)
{
    return entry.kind == Entry::Kind::AgentMessage || entry.kind == Entry::Kind::Thought;
}

// The prompt's context blocks by name: an embedded resource's URI, a link's name.
QStringList contextNames(const QList<Acp::ContentBlock> &blocks)
{
    QStringList names;
    for (const Acp::ContentBlock &block : blocks) {
        if (block.type == QLatin1String("resource"))
            names << block.uri;
        else if (block.type == QLatin1String("resource_link"))
            names << (block.name.isEmpty() ? block.uri : block.name);
        else if (block.type != QLatin1String("text"))
            names << block.type; // an image, a sound
    }
    return names;
}

// What a file change shows in the journal: the unified diff of each.
QString diffsOf(const Acp::ToolCall &call)
{
    QStringList diffs;
    for (const Acp::ToolCallContent &diff : call.diffs())
        diffs << UnifiedDiff::between(diff.path, diff.oldText.value_or(QString()), diff.newText).text;
    return diffs.join(QString());
}
} // namespace

ChatJournal::ChatJournal(QObject *parent) : QObject(parent) {}

void ChatJournal::follow(AgentSession *session)
{
    if (m_session == session)
        return;
    if (m_session) {
        disconnect(m_session, nullptr, this, nullptr);
        disconnect(m_session->conversation(), nullptr, this, nullptr);
    }
    m_session = session;
    m_written.clear();
    m_toolCallsWritten.clear();
    m_inTurn = false;
    if (!session)
        return;
    const Conversation *conversation = session->conversation();
    connect(conversation, &Conversation::entryAdded, this, &ChatJournal::onEntryAdded);
    connect(conversation, &Conversation::toolCallChanged, this, &ChatJournal::onToolCallChanged);
    connect(session, &AgentSession::turnEnded, this, &ChatJournal::onTurnEnded);
    // A loaded session's history (turn 0) was said before: only what follows is news.
    for (int i = 0; i < conversation->count(); ++i) {
        if (isMessage(conversation->entry(i)))
            m_written.insert(i, conversation->entry(i).text().size());
        if (conversation->entry(i).kind == Entry::Kind::ToolCall)
            m_toolCallsWritten.insert(conversation->entry(i).toolCallId);
    }
}

ChatRecord ChatJournal::record(ChatRecord::Kind kind, int turn) const
{
    ChatRecord r;
    r.kind = kind;
    r.agent = m_agent;
    r.sessionId = m_session ? m_session->id() : QString();
    r.turn = turn;
    r.at = LocalClock::now();
    return r;
}

void ChatJournal::write(ChatRecord record)
{
    if (m_journal)
        m_journal->append(JournalEntry::fromChat(record));
}

void ChatJournal::onEntryAdded(int index)
{
    const Entry &entry = m_session->conversation()->entry(index);
    if (entry.turn == 0)
        return; // replayed history
    // Every message before it is whole now.
    flushMessages(index, false);
    switch (entry.kind) {
    case Entry::Kind::UserMessage: {
        if (!entry.ours)
            return; // the agent's echo of a prompt, not the person's
        m_inTurn = true;
        ChatRecord r = record(ChatRecord::Kind::Prompt, entry.turn);
        r.text = entry.text();
        r.context = contextNames(entry.blocks);
        write(r);
        return;
    }
    case Entry::Kind::Notice: {
        ChatRecord r = record(ChatRecord::Kind::Notice, entry.turn);
        r.text = entry.title.isEmpty() ? entry.description : entry.title + QStringLiteral(": ") + entry.description;
        write(r);
        return;
    }
    case Entry::Kind::AgentMessage:
    case Entry::Kind::Thought:
        m_written.insert(index, 0);
        return;
    case Entry::Kind::ToolCall:
        onToolCallChanged(index, entry.toolCallId);
        return;
    }
}

void ChatJournal::onToolCallChanged(int index, const QString &toolCallId)
{
    Q_UNUSED(index)
    if (m_toolCallsWritten.contains(toolCallId))
        return;
    const Acp::ToolCall *call = m_session->conversation()->toolCall(toolCallId);
    if (call && call->isFinished())
        writeToolCall(*call, false);
}

void ChatJournal::writeToolCall(const Acp::ToolCall &call, bool partial)
{
    m_toolCallsWritten.insert(call.id);
    const int index = m_session->conversation()->indexOfToolCall(call.id);
    ChatRecord r = record(ChatRecord::Kind::ToolCall, index >= 0 ? m_session->conversation()->entry(index).turn : 0);
    r.partial = partial;
    r.toolCallId = call.id;
    r.title = call.title;
    r.toolKind = call.kind;
    r.status = call.status;
    r.input = ToolCallText::input(call);
    const QString diffs = diffsOf(call);
    if (!diffs.isEmpty())
        r.input = r.input.isEmpty() ? diffs : r.input + QLatin1Char('\n') + diffs;
    r.result = ToolCallText::result(call);
    r.decision = m_decisions.take(call.id);
    write(r);
}

void ChatJournal::noteDecision(const QString &toolCallId, const QString &decision)
{
    m_decisions.insert(toolCallId, decision);
}

void ChatJournal::flushMessages(int before, bool partial)
{
    if (!m_session)
        return;
    const Conversation *conversation = m_session->conversation();
    for (auto it = m_written.begin(); it != m_written.end(); ++it) {
        if (it.key() >= before)
            continue;
        const Entry &entry = conversation->entry(it.key());
        const QString text = entry.text();
        if (text.size() <= it.value())
            continue;
        // Usually the whole message; a chunk that joined it later (by its messageId) is written
        // as what follows.
        ChatRecord r = record(entry.kind == Entry::Kind::Thought ? ChatRecord::Kind::Thought : ChatRecord::Kind::Answer, entry.turn);
        r.text = text.mid(it.value());
        r.partial = partial;
        it.value() = text.size();
        write(r);
    }
}

void ChatJournal::onTurnEnded(const QString &stopReason, const Acp::Error &error)
{
    if (!m_inTurn)
        return;
    m_inTurn = false;
    // A turn that failed (the agent exited during it) leaves what it said so far, cut short.
    const bool cut = stopReason.isEmpty();
    writeOpen(cut);
    const Conversation *conversation = m_session->conversation();
    ChatRecord r = record(ChatRecord::Kind::TurnEnd, conversation->turn());
    r.stopReason = stopReason;
    r.partial = cut;
    if (cut)
        r.error = error.message;
    const Acp::Usage &usage = conversation->usage();
    r.inputTokens = usage.turnInputTokens;
    r.outputTokens = usage.turnOutputTokens;
    r.cost = usage.costAmount;
    r.currency = usage.costCurrency;
    write(r);
}

// What the turn has not written yet: its open messages, and each tool call it left unfinished
// (the agent cancelled it, never said, or is gone).
void ChatJournal::writeOpen(bool partial)
{
    const Conversation *conversation = m_session->conversation();
    flushMessages(conversation->count(), partial);
    for (int i = 0; i < conversation->count(); ++i) {
        const Entry &entry = conversation->entry(i);
        if (entry.kind == Entry::Kind::ToolCall && entry.turn > 0 && !m_toolCallsWritten.contains(entry.toolCallId))
            writeToolCall(*conversation->toolCall(entry.toolCallId), partial);
    }
}

void ChatJournal::recordNotice(const QString &text, const QString &sessionId)
{
    ChatRecord r = record(ChatRecord::Kind::Notice, m_session ? m_session->conversation()->turn() : 0);
    if (!sessionId.isEmpty())
        r.sessionId = sessionId;
    r.text = text;
    write(r);
}

void ChatJournal::cutTurn(const QString &why)
{
    if (!m_inTurn || !m_session)
        return;
    m_inTurn = false;
    writeOpen(true);
    ChatRecord r = record(ChatRecord::Kind::TurnEnd, m_session->conversation()->turn());
    r.partial = true;
    r.error = why;
    write(r);
}

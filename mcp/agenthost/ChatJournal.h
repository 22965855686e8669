#pragma once

#include "history/Journal.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

class AgentSession;
class Conversation;
namespace Acp {
struct Error;
struct ToolCall;
}

// A hosted agent's conversation written to the session's journal as it happens (issue 38), in
// order with the evaluations it leads to: the person's prompt when it is sent (its context
// blocks named), each answer and thought once whole (a later entry of the conversation, or the
// turn's end, closes it: never a streamed chunk), each tool call once it has ended (with its
// input, its result and the person's decision), and the turn's end with its stop reason and
// usage. When the agent exits during a turn, or the window closes, what was said and done so far
// is written at once, marked partial: nothing the agent did is lost.
class ChatJournal : public QObject
{
    Q_OBJECT
public:
    explicit ChatJournal(QObject *parent = nullptr);

    void setJournal(Journal *journal) { m_journal = journal; }
    void setAgent(const QString &agent) { m_agent = agent; } // the person's name for it

    // Follows this session from now on (its replayed history, turn 0, was journaled when it was
    // said). A session followed before stays followed only until another is given.
    void follow(AgentSession *session);
    // What the person decided about a tool call, written with it ("allowed once", "rejected: ...").
    void noteDecision(const QString &toolCallId, const QString &decision);
    // A notice of the host's ("Claude Code exited with status 3 during the turn: ..."), written
    // at once.
    void recordNotice(const QString &text, const QString &sessionId = {});
    // The turn ends without the agent's answer (`why`: it exited, the window closed, the person
    // stopped it): what is open is written now, partial, then the turn's end with why.
    void cutTurn(const QString &why);

private:
    void onEntryAdded(int index);
    void onToolCallChanged(int index, const QString &toolCallId);
    void onTurnEnded(const QString &stopReason, const Acp::Error &error);
    void flushMessages(int before, bool partial);
    void writeOpen(bool partial);
    void writeToolCall(const Acp::ToolCall &call, bool partial);
    void write(ChatRecord record);
    ChatRecord record(ChatRecord::Kind kind, int turn) const;

    QPointer<Journal> m_journal;
    QString m_agent;
    QPointer<AgentSession> m_session;
    QHash<int, qsizetype> m_written; // message entry -> characters of its text journaled
    QSet<QString> m_toolCallsWritten;
    QHash<QString, QString> m_decisions;
    bool m_inTurn = false;
};

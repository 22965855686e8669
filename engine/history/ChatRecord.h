#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

// One piece of a conversation with an agent hosted in the window (issue 38), as the journal
// keeps it, in order with the session's evaluations: the person's prompt (with the names of the
// context it carried), one whole answer or thought of the agent (never a streamed chunk), a tool
// call as it ended (its status, what it was given, what it gave back, what the person decided),
// the end of a turn (why, and what it used), or a notice of the host's ("the agent exited").
// Plain data with its JSON; the agent host (mcp/agenthost) makes them, the export and the past
// session's view read them. Nothing here knows ACP.
struct ChatRecord
{
    enum class Kind { Prompt, Answer, Thought, ToolCall, TurnEnd, Notice };

    Kind kind = Kind::Answer;
    QString agent;     // the person's name for the agent: "Claude Code"
    QString sessionId; // the agent's session
    int turn = 0;
    QDateTime at;
    // Written before it was complete: the agent exited or the window closed during its turn.
    bool partial = false;

    QString text;        // Prompt, Answer, Thought; Notice: what happened
    QStringList context; // Prompt: the context blocks it carried, by name (a URI or a label)

    // ToolCall
    QString toolCallId;
    QString title;
    QString toolKind; // read, edit, execute, other...
    QString status;   // completed, failed, or where it stood (in_progress) when partial
    QString input;    // the code, the command or the arguments it was given
    QString result;   // what it gave back (text content), capped
    QString decision; // the person's: "allowed once", "rejected: REASON", "cancelled"...

    // TurnEnd
    QString stopReason; // end_turn, cancelled...; empty when the turn failed (error says why)
    QString error;
    qint64 inputTokens = -1;
    qint64 outputTokens = -1;
    std::optional<double> cost;
    QString currency;

    // Texts longer than this are cut (and say so) so one answer cannot swell the journal.
    static constexpr int TextCap = 256 * 1024;

    static QString kindName(Kind kind); // "prompt", "answer", "thought", "tool-call", "turn-end", "notice"
    static std::optional<Kind> kindNamed(const QString &name);

    // The journal's fields of this record (beside "type": "chat", which the journal adds).
    QJsonObject toJson() const;
    // False for an object that is not a chat record of a kind this version knows.
    static bool fromJson(const QJsonObject &json, ChatRecord *record);

    // One line for a person: "You to Claude Code: ...", "Claude Code: ...", "Claude Code ran
    // evaluate-lisp (completed)", "Claude Code's turn ended (end_turn)".
    QString summary(int maxChars = 200) const;
    // "end_turn · 1,234 tokens in, 56 out · 0.0123 USD" for a turn's end.
    QString turnEndText() const;
};

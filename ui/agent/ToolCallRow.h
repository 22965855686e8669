#pragma once

#include "ChatTheme.h"
#include "ToolCallText.h"

#include "acp/AcpTypes.h"

#include <QTextCursor>

class RequestTrace;

// A tool call's row in the chat, drawn at a cursor inside its frame: the kind, the name (a Lisp
// Duet tool by its own name), its input or code, the status, "awaiting your approval" or what
// was chosen, then its content (text, a REPL result in the transcript's colours, diffs in the
// window's diff colours, a terminal named), and the request Lisp Duet served for it: its state,
// the REPL's result, a parked debugger with "Answer it in the Debugger".
namespace ToolCallRow {

inline constexpr int OutputLinesShown = 12; // beyond: behind "[+] Show all N lines"
inline constexpr int DiffLinesShown = 20;

// The request Lisp Duet served for the call, as it was when last told (the trace may go first).
struct Traced
{
    bool known = false;
    bool over = false;
    QString state;
    QString result; // the REPL's, without the [Debugger] block meant for the agent
    ToolCallText::Parked parked;
    QString follow;
    qint64 ms = 0;
    static Traced read(const RequestTrace &trace);
};

struct State
{
    bool expanded = false;     // long output and diffs shown whole
    QString foldHref;          // the link that toggles it
    QString permission;        // "awaiting your approval", "you allowed it once"
    bool permissionPending = false;
    Traced traced;
    QString interrupted;       // the agent went before the call finished
};

void draw(QTextCursor &cursor, const Acp::ToolCall &call, const State &state, const ChatTheme &theme);

// A REPL result's lines in the transcript's colours (values, errors, notes), cut after
// `maxLines` unless expanded, with the link that shows the rest.
void insertResult(QTextCursor &cursor, const QString &text, const ChatTheme &theme, int maxLines, const QString &moreHref, bool expanded);

} // namespace ToolCallRow

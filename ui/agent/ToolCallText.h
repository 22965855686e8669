#pragma once

#include "acp/AcpTypes.h"
#include "toolapi/RequestTrace.h"

#include <QJsonObject>
#include <QString>

// What a tool call's row says, in words, from what the agent told of it (widget-free). Claude
// Code names an MCP tool "mcp__SERVER__TOOL" and puts its input only in rawInput: the row shows
// "evaluate-lisp" and its code. The result of one of Lisp Duet's own tools is shown as the
// transcript shows it ("=> 3"), from the request Lisp Duet served (its RequestTrace) or, without
// it, from the structuredContent JSON the agent passed on.
namespace ToolCallText {

struct Shown
{
    QString name;   // "evaluate-lisp", "Edit square.lisp", "ToolSearch"
    QString server; // the MCP server of an "mcp__SERVER__TOOL" tool; empty otherwise
    QString code;   // rawInput.code: Lisp
    QString input;  // one line of another input: a command, a path, a query
};
Shown describe(const Acp::ToolCall &call);

QString kindLabel(const QString &kind);     // "run" for execute, "tool" for other...
QString statusLabel(const QString &status); // "waiting", "running", "done", "failed"

// Lisp Duet's structuredContent of an evaluation ({"status":"ok","values":["3"],...}) as the
// transcript reads it: output, "=> 3" lines, or "[ERROR] TYPE: message". Empty when `text` is
// not such JSON.
QString replResultFromJson(const QString &text);
// A served request's answer: its content texts, joined (seed 000's text: [stdout], => lines,
// [ERROR] and the [Debugger] block).
QString traceResultText(const RequestTrace &trace);
// "queued", "running in the session", "parked in the debugger"...
QString traceStateLabel(RequestTrace::State state);
// The debugger a parked evaluation waits in (structuredContent.debugger): its id (0: none),
// condition type and message.
struct Parked
{
    int debuggerId = 0;
    QString condition;
    QString message;
};
Parked parkedIn(const RequestTrace &trace);

} // namespace ToolCallText

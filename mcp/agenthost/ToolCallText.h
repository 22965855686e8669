#pragma once

#include "acp/AcpTypes.h"

#include <QString>

// What an agent's tool call is about and what came of it, as text for people: the approval
// bar, the journal and the export. Agents put a call's input in different places (Claude Code:
// `rawInput.code` for Lisp Duet's tools, `rawInput.command` for Bash, diffs as content), so
// this is the one place that knows where to look.
namespace ToolCallText {

// The code, the command, or the arguments as JSON (empty when it has none).
QString input(const Acp::ToolCall &call);
// Its text content, joined (empty when it has none), else its rawOutput as JSON.
QString result(const Acp::ToolCall &call);
// The Lisp Duet tool it calls ("evaluate-lisp") when it is one of ours: Claude Code names an MCP
// tool `mcp__SERVER__TOOL` in its title and in `_meta.claudeCode.toolName`. Empty otherwise.
QString lispDuetTool(const Acp::ToolCall &call, const QString &serverName);

} // namespace ToolCallText

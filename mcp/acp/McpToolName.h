#pragma once

#include <QString>

// Claude Code names an MCP tool "mcp__SERVER__TOOL" (a tool call's title, its
// _meta.claudeCode.toolName, a permission's title): which server's, and which tool. The one
// reading of that name for the chat, the approval bar and the journal.
struct McpToolName
{
    QString server; // empty: not such a name
    QString tool;

    bool isValid() const { return !server.isEmpty() && !tool.isEmpty(); }
    static McpToolName parse(const QString &qualified);
};

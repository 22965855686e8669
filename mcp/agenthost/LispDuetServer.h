#pragma once

#include "acp/AcpTypes.h"

#include <QByteArray>
#include <QString>

#include <optional>

// Lisp Duet's own MCP server as a hosted agent is handed it in session/new (issue 38), so what
// the agent evaluates lands in the one shared session, in its own lane, exactly as an agent
// started in a terminal: Streamable HTTP with the bearer token when the agent declares
// mcpCapabilities.http and HTTP listens, else lisp-duet-bridge (its absolute path) joined to
// this run's local socket, which every agent can start.
struct LispDuetServer
{
    QString name = QStringLiteral("lisp-duet"); // Claude Code names its tools mcp__lisp-duet__TOOL
    QString httpUrl;                             // empty: HTTP does not listen
    QByteArray token;                            // empty: --no-auth
    QString bridgePath;                          // absolute
    QString socketPath;                          // empty: the local socket does not listen

    // What to hand an agent of these capabilities; nullopt with *why in words when neither
    // endpoint can serve it.
    std::optional<Acp::McpServer> forAgent(const Acp::AgentCapabilities &capabilities, QString *why = nullptr) const;
};

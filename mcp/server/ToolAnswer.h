#pragma once

#include "digest/ActivityDigest.h"
#include "McpMessage.h"
#include "toolapi/RequestTrace.h"
#include "toolapi/Tool.h"

#include <QJsonValue>

class Session;

// The answer to a tools/call, for every revision: MCP's CallToolResult written once as text
// straight from the ToolResult, with what others did since the client's last call (its
// activity digest: a text block of its own, and structuredContent.session_activity). The one
// writer of it: McpServer sends what it writes as it is.
class ToolAnswer
{
public:
    explicit ToolAnswer(Session *session) : m_session(session) {}

    // The whole JSON-RPC response to request `id` of the client with this activity key;
    // `modern`: a 2026-07-28 answer (resultType, the server's info in _meta).
    McpMessage response(const QJsonValue &id, const QString &activityKey, const ToolResult &result, bool modern,
                        const QJsonObject &serverInfo);
    // How the call ended, for its trace (the window's Tool calls panel).
    static RequestTrace::State traceState(const ToolResult &result);

private:
    Session *m_session;
    ActivityDigest::EntryCache m_digestEntries; // each ended job as the digests show it, made once
};

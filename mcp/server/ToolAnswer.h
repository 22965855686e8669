#pragma once

#include "digest/ActivityDigest.h"
#include "McpMessage.h"
#include "toolapi/RequestTrace.h"
#include "toolapi/Tool.h"

#include <QJsonValue>

class JsonTextWriter;
class ModernAnswers;
class Session;

// The answer to a tools/call, every one of them and in every revision, written once as text
// straight from the ToolResult: MCP's CallToolResult with what others did since the client's
// last call (its activity digest: a text block of its own, and
// structuredContent.session_activity), or 2026-07-28's input_required (what the client must ask
// its user before it retries: no digest yet, the retry's answer has it). A 2026-07-28 answer
// ends as ModernAnswers writes it. McpServer sends what this writes as it is.
class ToolAnswer
{
public:
    ToolAnswer(Session *session, const ModernAnswers *modern) : m_session(session), m_modern(modern) {}

    // The whole JSON-RPC response to request `id` of the client with this activity key;
    // `modern`: a 2026-07-28 request.
    McpMessage response(const QJsonValue &id, const QString &activityKey, const ToolResult &result, bool modern);
    // How the call ended, for its trace (the window's Tool calls panel).
    static RequestTrace::State traceState(const ToolResult &result);

private:
    void writeCallToolResult(JsonTextWriter &json, const QString &activityKey, const ToolResult &result);

    Session *m_session;
    const ModernAnswers *m_modern;
    ActivityDigest::EntryCache m_digestEntries; // each ended job as the digests show it, made once
};

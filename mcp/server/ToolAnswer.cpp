#include "ToolAnswer.h"

#include "json/JsonTextWriter.h"
#include "ModernAnswers.h"
#include "session/Session.h"

McpMessage ToolAnswer::response(const QJsonValue &id, const QString &activityKey, const ToolResult &result, bool modern)
{
    static const QString Method = QStringLiteral("tools/call");
    JsonTextWriter json(512 + 3 * result.text.size());
    json.beginObject().key("jsonrpc").value(u"2.0").key("id").value(id).key("result").beginObject();
    const bool asksFirst = !result.inputRequired.isEmpty();
    if (asksFirst)
        json.members(JsonTextWriter::compact(result.inputRequired));
    else
        writeCallToolResult(json, activityKey, result);
    if (modern)
        m_modern->finishResult(json, Method, asksFirst ? u"input_required" : u"complete");
    json.endObject().endObject();
    return McpMessage::fromText(json.take());
}

void ToolAnswer::writeCallToolResult(JsonTextWriter &json, const QString &activityKey, const ToolResult &result)
{
    QList<JobPtr> activity = m_session->takeActivityFor(activityKey);
    // The job this very answer reports on is told here in full: not again in its digest.
    if (result.job != 0)
        activity.removeIf([&result](const JobPtr &job) { return job->id == result.job; });
    const QList<SessionNotice> notices = m_session->takeNoticesFor(activityKey);
    const auto textBlock = [&json](const QString &text) { json.beginObject().key("type").value(u"text").key("text").value(text).endObject(); };
    // content[0] is exactly the tool's text (a program may read it); the digest of what others
    // did comes as a block of its own.
    json.key("content").beginArray();
    textBlock(result.text);
    for (const QString &more : result.moreText)
        textBlock(more);
    const bool told = !activity.isEmpty() || !notices.isEmpty();
    if (told)
        textBlock(ActivityDigest::text(activity, &m_digestEntries, notices));
    json.endArray().key("isError").value(result.isError);
    if (!result.structured.isEmpty()) {
        json.key("structuredContent").beginObject().members(result.structured.text());
        if (told) {
            json.key("session_activity");
            ActivityDigest::writeJson(json, activity, &m_digestEntries, notices);
        }
        json.endObject();
    }
}

RequestTrace::State ToolAnswer::traceState(const ToolResult &result)
{
    switch (result.ending) {
    case ToolResult::Ending::HandedOff: return RequestTrace::State::HandedOff;
    case ToolResult::Ending::Parked: return RequestTrace::State::Parked;
    case ToolResult::Ending::Answered: break;
    }
    return result.isError ? RequestTrace::State::Error : RequestTrace::State::Done;
}

#include "Tools.h"

#include "digest/ActivityDigest.h"
#include "schema/JsonSchema.h"
#include "session/JobSummary.h"
#include "session/Session.h"
#include "session/TextLines.h"

#include <QJsonArray>

namespace {
const auto Limit = Arg::integer(QStringLiteral("limit"), QStringLiteral("How many (default 20)"), 1, 1000);
const auto ByOrigin = Arg::string(QStringLiteral("origin"),
                                QStringLiteral("Only \"person\", \"agent\", \"system\" or a client's name"));

QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject entry{{QStringLiteral("sequence"), integer(QStringLiteral("Order of completion in the session"), 0, 2147483647)},
                            {QStringLiteral("who"), string(QStringLiteral("Who ran it: \"You\" for the person, or the client's name"))},
                            {QStringLiteral("kind"), string(QStringLiteral("person, agent or system"))},
                            {QStringLiteral("operation"), string(QStringLiteral("eval, time, compile, load-system, macroexpand..."))},
                            {QStringLiteral("code"), string(QStringLiteral("The code (or system name) it ran"))},
                            {QStringLiteral("description"), string(QStringLiteral("The reason the agent gave, if any"))},
                            {QStringLiteral("status"), string(QStringLiteral("ok, error, interrupted, timed-out, engine-restarted, cancelled or failed"))},
                            {QStringLiteral("result"), string(QStringLiteral("The first value or the error, in one line"))},
                            {QStringLiteral("time"), string(QStringLiteral("When it finished (ISO 8601)"))},
                            {QStringLiteral("elapsed_ms"), integer(QStringLiteral("How long it ran"), 0, 2147483647)}};
    return {{QStringLiteral("entries"), objectArray(QStringLiteral("Newest last"), entry, {QStringLiteral("who"), QStringLiteral("code"), QStringLiteral("result")})},
            {QStringLiteral("total"), integer(QStringLiteral("Entries in the transcript that match, before the limit"), 0, 2147483647)}};
}

ToolResult transcript(const QList<JobPtr> &all, int limit, const QString &origin)
{
    QList<JobPtr> matching;
    for (const JobPtr &job : all) {
        const Origin &who = job->request.origin;
        if (origin.isEmpty() || who.kindName().compare(origin, Qt::CaseInsensitive) == 0
            || who.name.compare(origin, Qt::CaseInsensitive) == 0)
            matching.append(job);
    }
    const QList<JobPtr> shown = matching.size() > limit ? matching.mid(matching.size() - limit) : matching;
    QJsonArray entries;
    QStringList lines;
    for (const JobPtr &job : shown) {
        const JobRequest &request = job->request;
        const QString summary = ActivityDigest::summaryOf(*job);
        QJsonObject entry{{QStringLiteral("sequence"), double(job->sequence)},
                          {QStringLiteral("who"), request.origin.name},
                          {QStringLiteral("kind"), request.origin.kindName()},
                          {QStringLiteral("operation"), JobSummary::operation(request)},
                          {QStringLiteral("code"), JobSummary::subject(request)},
                          {QStringLiteral("status"), JobResult::statusName(job->result.status)},
                          {QStringLiteral("result"), summary},
                          {QStringLiteral("time"), job->finishedAt.toString(Qt::ISODateWithMs)},
                          {QStringLiteral("elapsed_ms"), double(job->elapsedMs())}};
        if (!request.description.isEmpty())
            entry.insert(QStringLiteral("description"), request.description);
        entries.append(entry);
        const QString code = JobSummary::subject(request).simplified();
        lines << QStringLiteral("- %1 %2 [%3]: %4\n  %5")
                     .arg(job->finishedAt.toString(QStringLiteral("HH:mm:ss")), request.origin.name,
                          JobSummary::operation(request), TextLines::shortened(code, 300), summary);
    }
    QString text;
    if (lines.isEmpty())
        text = origin.isEmpty() ? QStringLiteral("The transcript is empty: nothing has been evaluated yet.")
                                : QStringLiteral("No transcript entries by \"%1\".").arg(origin);
    else
        text = QStringLiteral("[Transcript: %1 of %2 entries, newest last]\n%3").arg(shown.size()).arg(matching.size()).arg(lines.join(QLatin1Char('\n')));
    return ToolResult{text, {{QStringLiteral("entries"), entries}, {QStringLiteral("total"), matching.size()}}, false};
}
} // namespace

Tool sessionTranscriptTool(Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("session-transcript"),
        .title = QStringLiteral("Session transcript"),
        .description = QStringLiteral(
            "The newest entries of the shared transcript, newest last: who ran what, and what came of it."),
        .arguments = {Limit, ByOrigin},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("entries"), QStringLiteral("total")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [session](const ToolCallPtr &call, const ToolArguments &arguments) {
        call->finish(transcript(session->transcript(), arguments.value(Limit, 20), arguments.text(ByOrigin).trimmed()));
    });
}

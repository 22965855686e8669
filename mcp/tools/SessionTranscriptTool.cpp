#include "SessionTranscriptTool.h"

#include "ActivityDigest.h"
#include "Session.h"
#include "ToolArguments.h"
#include "ToolKit.h"

#include <QJsonArray>

QJsonObject SessionTranscriptTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("limit"), integer(QStringLiteral("How many of the newest entries (default 20)"), 1, 1000)},
         {QStringLiteral("origin"), string(QStringLiteral("Only entries by this origin: \"person\", \"agent\", \"system\", or a client's name such as \"claude-code\""))}});
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
    const QJsonObject output = ToolKit::outputSchema(
        {{QStringLiteral("entries"), ToolKit::objectArray(QStringLiteral("Newest last"), entry, {QStringLiteral("who"), QStringLiteral("code"), QStringLiteral("result")})},
         {QStringLiteral("total"), integer(QStringLiteral("Entries in the transcript that match, before the limit"), 0, 2147483647)}},
        {QStringLiteral("entries"), QStringLiteral("total")});
    return ToolKit::descriptor(
        name(), QStringLiteral("Session transcript"),
        QStringLiteral("The newest entries of the shared session's transcript, newest last: who ran what (the person at the window, "
                       "this or another agent) and what came of it, so you can catch up with what the person did. Filter by "
                       "origin with \"person\", \"agent\" or a client name."),
        input, output, {});
}

void SessionTranscriptTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("limit"), QStringLiteral("origin")});
    const int limit = arguments.optionalInteger(QStringLiteral("limit"), 1, 1000).value_or(20);
    const QString origin = arguments.optionalString(QStringLiteral("origin")).value_or(QString()).trimmed();
    if (!arguments.ok()) {
        call->finish(ToolResult::error(arguments.error()));
        return;
    }
    QList<JobPtr> matching;
    for (const JobPtr &job : m_session->transcript()) {
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
                          {QStringLiteral("operation"), request.op},
                          {QStringLiteral("code"), request.code},
                          {QStringLiteral("status"), JobResult::statusName(job->result.status)},
                          {QStringLiteral("result"), summary},
                          {QStringLiteral("time"), job->finishedAt.toString(Qt::ISODateWithMs)},
                          {QStringLiteral("elapsed_ms"), double(job->elapsedMs())}};
        if (!request.description.isEmpty())
            entry.insert(QStringLiteral("description"), request.description);
        entries.append(entry);
        const QString code = request.code.simplified();
        lines << QStringLiteral("- %1 %2 [%3]: %4\n  %5")
                     .arg(job->finishedAt.toString(QStringLiteral("HH:mm:ss")), request.origin.name,
                          request.op, code.size() > 300 ? code.left(299) + QChar(0x2026) : code, summary);
    }
    QString text;
    if (lines.isEmpty())
        text = origin.isEmpty() ? QStringLiteral("The transcript is empty: nothing has been evaluated yet.")
                                : QStringLiteral("No transcript entries by \"%1\".").arg(origin);
    else
        text = QStringLiteral("[Transcript: %1 of %2 entries, newest last]\n%3").arg(shown.size()).arg(matching.size()).arg(lines.join(QLatin1Char('\n')));
    call->finish(ToolResult{text, {{QStringLiteral("entries"), entries}, {QStringLiteral("total"), matching.size()}}, false});
}

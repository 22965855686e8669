#include "ActivityDigest.h"

#include "json/JsonTextWriter.h"
#include "schema/JsonSchema.h"
#include "session/JobOutcome.h"
#include "session/JobSummary.h"
#include "session/TextLines.h"

#include <QJsonObject>

namespace {
using TextLines::oneLine;

QList<JobPtr> recent(const QList<JobPtr> &activity)
{
    return activity.size() > ActivityDigest::MaxEntries ? activity.mid(activity.size() - ActivityDigest::MaxEntries) : activity;
}

QString who(const Origin &origin)
{
    return origin.isPerson() ? QStringLiteral("the person") : origin.name;
}

QDateTime timeOf(const Job &job)
{
    return job.state == Job::State::Parked && job.debugger ? job.debugger->parkedAt : job.finishedAt;
}
} // namespace

namespace ActivityDigest {

QString summaryOf(const Job &job)
{
    const JobResult &result = job.result;
    if (job.state == Job::State::Parked && job.debugger) {
        const Debugger &d = *job.debugger;
        return QStringLiteral("is parked in debugger %1: [ERROR] %2: %3 (restarts: %4)")
            .arg(d.id).arg(d.conditionType, oneLine(d.message, 120), d.restartList());
    }
    if (job.request.kind == EngineJob::Kind::InvokeRestart && result.ok()) {
        // ABORT ends the evaluation with its error; any other restart lets it go on.
        return job.request.restart.compare(QStringLiteral("ABORT"), Qt::CaseInsensitive) == 0 ? QStringLiteral("(it ends the evaluation)")
                                                                                              : QStringLiteral("(the evaluation goes on)");
    }
    if (job.request.kind == EngineJob::Kind::FrameLook && result.ok())
        return result.values.value(0);
    return result.ok() ? JobOutcome::firstValueInOneLine(result.values, 120) : JobOutcome::failure(result, 120);
}

Entry entry(const Job &job)
{
    const QDateTime time = timeOf(job);
    const QString summary = summaryOf(job);
    const QString act = JobSummary::action(job.request, 200);
    // The description says what a job was for when its code alone does not: "revert GREET to
    // version 1", "staged by claude-code: ...".
    const QString why = job.request.description.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(oneLine(job.request.description, 200));
    Entry made;
    made.line = QStringLiteral("- %1 at %2%3: %4 %5").arg(who(job.request.origin), time.toString(QStringLiteral("HH:mm:ss")), why, act, summary);
    // An evaluation whose debugger somebody answered says who, and how. (One somebody else
    // interrupted says who did in its error: Session writes it.)
    if (job.state == Job::State::Done && job.debugger && !job.debugger->isOpen())
        made.line += QStringLiteral(" (after debugger %1: %2)").arg(job.debugger->id).arg(job.debugger->outcomeSentence());
    JsonTextWriter json;
    json.beginObject()
        .key("who").value(job.request.origin.name)
        .key("kind").value(job.request.origin.kindName())
        .key("operation").value(JobSummary::operation(job.request))
        .key("code").value(oneLine(JobSummary::subject(job.request), 2000))
        .key("description").value(job.request.description)
        .key("result").value(summary)
        .key("ok").value(job.result.ok())
        .key("time").value(time.toString(Qt::ISODateWithMs))
        .endObject();
    made.json = json.take();
    return made;
}

Entry entry(const SessionNotice &notice)
{
    Entry made;
    made.line = QStringLiteral("- %1 at %2: %3").arg(who(notice.by), notice.at.toString(QStringLiteral("HH:mm:ss")), notice.text);
    JsonTextWriter json;
    json.beginObject()
        .key("who").value(notice.by.name)
        .key("kind").value(notice.by.kindName())
        .key("operation").value(notice.operation)
        .key("code").value(notice.subject)
        .key("description").value(QString())
        .key("result").value(notice.text)
        .key("ok").value(true)
        .key("time").value(notice.at.toString(Qt::ISODateWithMs))
        .endObject();
    made.json = json.take();
    return made;
}

Entry EntryCache::of(const JobPtr &job)
{
    if (job->state != Job::State::Done || job->sequence == 0)
        return entry(*job);
    const auto found = m_entries.constFind(job->sequence);
    if (found != m_entries.constEnd())
        return *found;
    const Entry made = entry(*job);
    m_entries.insert(job->sequence, made);
    m_order.enqueue(job->sequence);
    while (m_order.size() > Kept)
        m_entries.remove(m_order.dequeue());
    return made;
}

QString text(const QList<JobPtr> &activity, EntryCache *cache, const QList<SessionNotice> &notices)
{
    if (activity.isEmpty() && notices.isEmpty())
        return {};
    QStringList lines{QStringLiteral("[Session activity since your last call]")};
    if (activity.size() > MaxEntries)
        lines << QStringLiteral("(%1 earlier entries not shown; the session-transcript tool lists them)").arg(activity.size() - MaxEntries);
    for (const JobPtr &job : recent(activity))
        lines << (cache ? cache->of(job) : entry(*job)).line;
    for (const SessionNotice &notice : notices)
        lines << entry(notice).line;
    return lines.join(QLatin1Char('\n'));
}

void writeJson(JsonTextWriter &out, const QList<JobPtr> &activity, EntryCache *cache, const QList<SessionNotice> &notices)
{
    out.beginArray();
    for (const JobPtr &job : recent(activity))
        out.raw((cache ? cache->of(job) : entry(*job)).json);
    for (const SessionNotice &notice : notices)
        out.raw(entry(notice).json);
    out.endArray();
}

QJsonObject schema()
{
    const QJsonObject string{{QStringLiteral("type"), QStringLiteral("string")}};
    return Schema::array(QStringLiteral("Evaluations by the person and other agents since this client's previous call"),
                         Schema::object({{QStringLiteral("who"), string}, {QStringLiteral("kind"), string},
                                         {QStringLiteral("operation"), string}, {QStringLiteral("code"), string},
                                         {QStringLiteral("description"), string},
                                         {QStringLiteral("result"), string},
                                         {QStringLiteral("ok"), QJsonObject{{QStringLiteral("type"), QStringLiteral("boolean")}}},
                                         {QStringLiteral("time"), string}},
                                        {}, false));
}

} // namespace ActivityDigest

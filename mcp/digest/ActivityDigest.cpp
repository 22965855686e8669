#include "ActivityDigest.h"

#include "initfile/InitFile.h"
#include "json/JsonTextWriter.h"
#include "schema/JsonSchema.h"
#include "session/JobOutcome.h"
#include "session/JobSummary.h"
#include "session/TextLines.h"

#include <QJsonObject>

#include <algorithm>

namespace {
using TextLines::oneLine;

QString who(const Origin &origin)
{
    return origin.isPerson() ? QStringLiteral("the person") : origin.name;
}

QDateTime timeOf(const Job &job)
{
    return job.state == Job::State::Parked && job.debugger ? job.debugger->parkedAt : job.finishedAt;
}

QByteArray json(const QString &who, const QString &kind, const QString &operation, const QString &code, const QString &description,
                const QString &result, bool ok, const QDateTime &time)
{
    JsonTextWriter json;
    json.beginObject()
        .key("who").value(who)
        .key("kind").value(kind)
        .key("operation").value(operation)
        .key("code").value(code)
        .key("description").value(description)
        .key("result").value(result)
        .key("ok").value(ok)
        .key("time").value(time.toString(Qt::ISODateWithMs))
        .endObject();
    return json.take();
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
    Entry made;
    made.at = time;
    if (job.request.purpose == JobPurpose::InitFile) {
        // The person's init file, loaded by a new engine: what came of it, in words; nothing
        // when there is nothing to tell (no such file, a load a reset cut short).
        const QString outcome = InitFile::outcome(job, InitFile::Reader::Agent);
        if (outcome.isEmpty())
            return made;
        made.line = QStringLiteral("- Lisp Duet at %1: %2").arg(time.toString(QStringLiteral("HH:mm:ss")), outcome);
        made.json = json(QStringLiteral("Lisp Duet"), QStringLiteral("system"), JobSummary::operation(job.request), job.request.file, {},
                         outcome, job.result.ok(), time);
        return made;
    }
    const QString summary = summaryOf(job);
    const QString act = JobSummary::action(job.request, 200);
    // The description says what a job was for when its code alone does not: "revert GREET to
    // version 1", "staged by claude-code: ...".
    const QString why = job.request.description.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(oneLine(job.request.description, 200));
    made.line = QStringLiteral("- %1 at %2%3: %4 %5").arg(who(job.request.origin), time.toString(QStringLiteral("HH:mm:ss")), why, act, summary);
    // An evaluation whose debugger somebody answered says who, and how. (One somebody else
    // interrupted says who did in its error: Session writes it.)
    if (job.state == Job::State::Done && job.debugger && !job.debugger->isOpen())
        made.line += QStringLiteral(" (after debugger %1: %2)").arg(job.debugger->id).arg(job.debugger->outcomeSentence());
    made.json = json(job.request.origin.name, job.request.origin.kindName(), JobSummary::operation(job.request),
                     oneLine(JobSummary::subject(job.request), 2000), job.request.description, summary, job.result.ok(), time);
    return made;
}

Entry entry(const SessionNotice &notice)
{
    Entry made;
    made.at = notice.at;
    made.line = QStringLiteral("- %1 at %2: %3").arg(who(notice.by), notice.at.toString(QStringLiteral("HH:mm:ss")), notice.text);
    made.json = json(notice.by.name, notice.by.kindName(), notice.operation, notice.subject, {}, notice.text, true, notice.at);
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

Told gather(const QList<JobPtr> &activity, EntryCache *cache, const QList<SessionNotice> &notices, quint64 answeredJob)
{
    Told told;
    for (const JobPtr &job : activity) {
        Entry made = cache ? cache->of(job) : entry(*job);
        if (!made.line.isEmpty())
            told.entries.append(std::move(made));
    }
    QList<Entry> others;
    for (const SessionNotice &notice : notices) {
        if (answeredJob == 0 || !notice.endedJobs.contains(answeredJob)) // that answer says it already
            others.append(entry(notice));
    }
    // In the order they happened: a reset comes before what the new engine did first.
    told.entries.append(others);
    std::stable_sort(told.entries.begin(), told.entries.end(), [](const Entry &a, const Entry &b) { return a.at < b.at; });
    if (told.entries.size() > MaxEntries) {
        told.left = told.entries.size() - MaxEntries;
        told.entries = told.entries.mid(told.left);
    }
    return told;
}

QString text(const Told &told)
{
    if (told.isEmpty())
        return {};
    QStringList lines{QString(Heading)};
    if (told.left > 0)
        lines << QStringLiteral("(%1 earlier entries not shown; the session-transcript tool lists them)").arg(told.left);
    for (const Entry &entry : told.entries)
        lines << entry.line;
    return lines.join(QLatin1Char('\n'));
}

void writeJson(JsonTextWriter &out, const Told &told)
{
    out.beginArray();
    for (const Entry &entry : told.entries)
        out.raw(entry.json);
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

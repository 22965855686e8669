// JournalEntry: one line of a journal as JSON and back (Journal.h declares it), apart from the
// file the Journal class keeps.
#include "Journal.h"

#include "client/EngineProtocol.h"
#include "DefinitionLedger.h"
#include "session/JobSummary.h"
#include "session/LocalClock.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {
QString stamp(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QDateTime parseStamp(const QJsonValue &value)
{
    QDateTime time = QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
    return time.isValid() ? time.toLocalTime() : time;
}

QJsonObject originJson(const Origin &origin)
{
    return {{QStringLiteral("kind"), origin.kindName()}, {QStringLiteral("name"), origin.name},
            {QStringLiteral("client"), origin.clientKey}};
}

Origin originFromJson(const QJsonObject &json)
{
    const QString kind = json.value(QStringLiteral("kind")).toString();
    Origin origin;
    origin.kind = kind == QStringLiteral("agent")    ? Origin::Kind::Agent
                  : kind == QStringLiteral("system") ? Origin::Kind::System
                  : kind == QStringLiteral("editor") ? Origin::Kind::Editor
                                                     : Origin::Kind::Person;
    origin.name = json.value(QStringLiteral("name")).toString();
    origin.clientKey = json.value(QStringLiteral("client")).toString();
    return origin;
}

QStringList strings(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list << item.toString();
    return list;
}

JobResult::Status statusFromName(const QString &name)
{
    using S = JobResult::Status;
    for (S status : {S::Ok, S::Error, S::Interrupted, S::TimedOut, S::EngineRestarted, S::Cancelled, S::Failed}) {
        if (JobResult::statusName(status) == name)
            return status;
    }
    return S::Failed;
}

// Keeps the first OutputCap characters; returns how many were left out.
qint64 capped(const QString &text, QString *kept)
{
    if (text.size() <= Journal::OutputCap) {
        *kept = text;
        return 0;
    }
    *kept = text.left(Journal::OutputCap);
    return text.size() - Journal::OutputCap;
}
} // namespace

QJsonObject JournalEntry::toJson() const
{
    if (kind == Kind::Chat) {
        QJsonObject json = chat.toJson();
        json.insert(QStringLiteral("type"), QStringLiteral("chat"));
        return json;
    }
    if (kind == Kind::FileChange) {
        QJsonObject json{{QStringLiteral("type"), QStringLiteral("file-change")},
                         {QStringLiteral("id"), double(file.id)},
                         {QStringLiteral("change"), ::FileChange::kindName(file.kind)},
                         {QStringLiteral("path"), file.path},
                         {QStringLiteral("absolute_path"), file.absolutePath},
                         {QStringLiteral("origin"), originJson(file.origin)},
                         {QStringLiteral("tool"), file.tool},
                         {QStringLiteral("description"), file.description},
                         {QStringLiteral("summary"), file.summary},
                         {QStringLiteral("created"), file.created},
                         {QStringLiteral("deleted"), file.deleted},
                         {QStringLiteral("digest_before"), QString::fromLatin1(file.beforeDigest)},
                         {QStringLiteral("digest_after"), QString::fromLatin1(file.afterDigest)},
                         {QStringLiteral("added"), file.diff.added},
                         {QStringLiteral("removed"), file.diff.removed},
                         {QStringLiteral("diff"), file.diff.text.left(JournalEntry::DiffCap)},
                         {QStringLiteral("diff_cut"), double(qMax<qsizetype>(0, file.diff.text.size() - JournalEntry::DiffCap))},
                         {QStringLiteral("first_line"), file.firstLine},
                         {QStringLiteral("last_line"), file.lastLine},
                         {QStringLiteral("at"), stamp(file.at)}};
        if (file.undoes != 0)
            json.insert(QStringLiteral("undoes"), double(file.undoes));
        return json;
    }
    if (kind == Kind::Definition) {
        const DefinitionVersion &d = definition;
        QJsonObject json{{QStringLiteral("type"), QStringLiteral("definition")},
                         {QStringLiteral("space"), d.key.space},
                         {QStringLiteral("package"), d.key.package},
                         {QStringLiteral("name"), d.key.name},
                         {QStringLiteral("version"), d.number},
                         {QStringLiteral("kind"), d.kind},
                         {QStringLiteral("operator"), d.operatorName},
                         {QStringLiteral("origin"), originJson(d.by)},
                         {QStringLiteral("via"), DefinitionVersion::viaName(d.via)},
                         {QStringLiteral("source"), d.source},
                         {QStringLiteral("read_package"), d.readPackage},
                         {QStringLiteral("at"), stamp(d.at)},
                         {QStringLiteral("job"), double(d.job)}};
        if (!d.key.qualifiers.isEmpty())
            json.insert(QStringLiteral("qualifiers"), QJsonArray::fromStringList(d.key.qualifiers));
        if (d.key.space == QStringLiteral("method"))
            json.insert(QStringLiteral("specializers"), QJsonArray::fromStringList(d.key.specializers));
        if (!d.detail.isEmpty())
            json.insert(QStringLiteral("description"), d.detail);
        if (!d.file.isEmpty()) {
            json.insert(QStringLiteral("file"), d.file);
            json.insert(QStringLiteral("line"), d.line);
        }
        if (d.restores > 0)
            json.insert(QStringLiteral("restores"), d.restores);
        return json;
    }
    if (kind == Kind::Event) {
        QJsonObject json{{QStringLiteral("type"), QStringLiteral("event")},
                         {QStringLiteral("event"), event},
                         {QStringLiteral("message"), message},
                         {QStringLiteral("at"), stamp(at)}};
        if (!by.name.isEmpty())
            json.insert(QStringLiteral("by"), originJson(by));
        return json;
    }
    const Job &e = job;
    const JobResult &r = e.result;
    QJsonObject json{{QStringLiteral("type"), QStringLiteral("evaluation")},
                     {QStringLiteral("id"), double(e.id)},
                     {QStringLiteral("seq"), double(e.sequence)},
                     {QStringLiteral("origin"), originJson(e.request.origin)},
                     {QStringLiteral("op"), JobSummary::operation(e.request)},
                     {QStringLiteral("code"), JobSummary::subject(e.request)},
                     {QStringLiteral("package"), e.request.package},
                     {QStringLiteral("description"), e.request.description},
                     {QStringLiteral("status"), JobResult::statusName(r.status)},
                     {QStringLiteral("values"), QJsonArray::fromStringList(r.values)},
                     {QStringLiteral("stdout"), r.stdoutText},
                     {QStringLiteral("stdout_cut"), double(stdoutCut)},
                     {QStringLiteral("stderr"), r.stderrText},
                     {QStringLiteral("stderr_cut"), double(stderrCut)},
                     {QStringLiteral("output_dropped"), double(r.outputDropped)},
                     {QStringLiteral("warnings"), QJsonArray::fromStringList(r.warnings)},
                     {QStringLiteral("result_package"), r.package},
                     {QStringLiteral("queued_at"), stamp(e.queuedAt)},
                     {QStringLiteral("started_at"), stamp(e.startedAt)},
                     {QStringLiteral("finished_at"), stamp(e.finishedAt)},
                     {QStringLiteral("real_us"), double(r.realMicroseconds)},
                     {QStringLiteral("run_us"), double(r.runMicroseconds)}};
    QJsonObject arguments = EngineProtocol::jobFields(e.request);
    if (e.request.debuggerId > 0)
        arguments.insert(QStringLiteral("debugger"), e.request.debuggerId);
    if (!arguments.isEmpty())
        json.insert(QStringLiteral("arguments"), arguments);
    if (!e.request.tool.isEmpty())
        json.insert(QStringLiteral("tool"), e.request.tool);
    if (!r.ok() || !r.error.type.isEmpty()) {
        json.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("type"), r.error.type},
                                                         {QStringLiteral("message"), r.error.message},
                                                         {QStringLiteral("phase"), r.error.phase},
                                                         {QStringLiteral("backtrace"), QJsonArray::fromStringList(r.error.backtrace)}});
    }
    return json;
}

bool JournalEntry::fromJson(const QJsonObject &json, JournalEntry *entry)
{
    const QString type = json.value(QStringLiteral("type")).toString();
    JournalEntry result;
    result.past = true;
    if (type == QStringLiteral("chat")) {
        result.kind = Kind::Chat;
        if (!ChatRecord::fromJson(json, &result.chat))
            return false;
        *entry = result;
        return true;
    }
    if (type == QStringLiteral("event")) {
        result.kind = Kind::Event;
        result.event = json.value(QStringLiteral("event")).toString();
        result.message = json.value(QStringLiteral("message")).toString();
        result.at = parseStamp(json.value(QStringLiteral("at")));
        if (json.contains(QStringLiteral("by")))
            result.by = originFromJson(json.value(QStringLiteral("by")).toObject());
        else
            result.by = Origin{Origin::Kind::System, QString(), QString()};
        if (result.event.isEmpty())
            return false;
        *entry = result;
        return true;
    }
    if (type == QStringLiteral("file-change")) {
        result.kind = Kind::FileChange;
        ::FileChange &f = result.file;
        f.id = quint64(json.value(QStringLiteral("id")).toDouble());
        const QString change = json.value(QStringLiteral("change")).toString();
        f.kind = change == QStringLiteral("edit") ? ::FileChange::Kind::Edit
                 : change == QStringLiteral("undo") ? ::FileChange::Kind::Undo
                                                    : ::FileChange::Kind::Write;
        f.path = json.value(QStringLiteral("path")).toString();
        f.absolutePath = json.value(QStringLiteral("absolute_path")).toString();
        f.origin = originFromJson(json.value(QStringLiteral("origin")).toObject());
        f.tool = json.value(QStringLiteral("tool")).toString();
        f.description = json.value(QStringLiteral("description")).toString();
        f.summary = json.value(QStringLiteral("summary")).toString();
        f.created = json.value(QStringLiteral("created")).toBool();
        f.deleted = json.value(QStringLiteral("deleted")).toBool();
        f.beforeDigest = json.value(QStringLiteral("digest_before")).toString().toLatin1();
        f.afterDigest = json.value(QStringLiteral("digest_after")).toString().toLatin1();
        f.diff.text = json.value(QStringLiteral("diff")).toString();
        f.diff.added = json.value(QStringLiteral("added")).toInt();
        f.diff.removed = json.value(QStringLiteral("removed")).toInt();
        f.firstLine = json.value(QStringLiteral("first_line")).toInt();
        f.lastLine = json.value(QStringLiteral("last_line")).toInt();
        f.at = parseStamp(json.value(QStringLiteral("at")));
        f.undoes = quint64(json.value(QStringLiteral("undoes")).toDouble());
        if (f.path.isEmpty())
            return false;
        *entry = result;
        return true;
    }
    if (type == QStringLiteral("definition")) {
        result.kind = Kind::Definition;
        DefinitionVersion &d = result.definition;
        d.key = {json.value(QStringLiteral("space")).toString(), json.value(QStringLiteral("package")).toString(),
                 json.value(QStringLiteral("name")).toString(), strings(json.value(QStringLiteral("qualifiers"))),
                 strings(json.value(QStringLiteral("specializers")))};
        d.number = json.value(QStringLiteral("version")).toInt();
        d.kind = json.value(QStringLiteral("kind")).toString();
        d.operatorName = json.value(QStringLiteral("operator")).toString();
        d.by = originFromJson(json.value(QStringLiteral("origin")).toObject());
        d.via = DefinitionVersion::viaNamed(json.value(QStringLiteral("via")).toString());
        d.detail = json.value(QStringLiteral("description")).toString();
        d.source = json.value(QStringLiteral("source")).toString();
        d.readPackage = json.value(QStringLiteral("read_package")).toString();
        d.file = json.value(QStringLiteral("file")).toString();
        d.line = json.value(QStringLiteral("line")).toInt();
        d.at = parseStamp(json.value(QStringLiteral("at")));
        d.job = quint64(json.value(QStringLiteral("job")).toDouble());
        d.restores = json.value(QStringLiteral("restores")).toInt();
        if (!d.key.isValid() || d.number <= 0)
            return false;
        *entry = result;
        return true;
    }
    if (type != QStringLiteral("evaluation"))
        return false;
    Job &e = result.job;
    e.id = quint64(json.value(QStringLiteral("id")).toDouble());
    e.sequence = quint64(json.value(QStringLiteral("seq")).toDouble());
    e.state = Job::State::Done;
    const QJsonObject arguments = json.value(QStringLiteral("arguments")).toObject();
    const std::optional<EngineJob> recorded = EngineProtocol::recordedJob(
        json.value(QStringLiteral("op")).toString(QStringLiteral("eval")), json.value(QStringLiteral("code")).toString(),
        json.value(QStringLiteral("package")).toString(), arguments);
    if (!recorded)
        return false; // an operation this version does not know
    e.request = *recorded;
    e.request.debuggerId = arguments.value(QStringLiteral("debugger")).toInt();
    e.request.origin = originFromJson(json.value(QStringLiteral("origin")).toObject());
    e.request.description = json.value(QStringLiteral("description")).toString();
    e.request.tool = json.value(QStringLiteral("tool")).toString();
    e.queuedAt = parseStamp(json.value(QStringLiteral("queued_at")));
    e.startedAt = parseStamp(json.value(QStringLiteral("started_at")));
    e.finishedAt = parseStamp(json.value(QStringLiteral("finished_at")));
    JobResult &r = e.result;
    r.status = statusFromName(json.value(QStringLiteral("status")).toString());
    r.values = strings(json.value(QStringLiteral("values")));
    r.warnings = strings(json.value(QStringLiteral("warnings")));
    r.stdoutText = json.value(QStringLiteral("stdout")).toString();
    r.stderrText = json.value(QStringLiteral("stderr")).toString();
    r.package = json.value(QStringLiteral("result_package")).toString();
    r.outputDropped = qint64(json.value(QStringLiteral("output_dropped")).toDouble());
    r.realMicroseconds = qint64(json.value(QStringLiteral("real_us")).toDouble());
    r.runMicroseconds = qint64(json.value(QStringLiteral("run_us")).toDouble());
    const QJsonObject error = json.value(QStringLiteral("error")).toObject();
    r.error = {error.value(QStringLiteral("type")).toString(), error.value(QStringLiteral("message")).toString(),
               error.value(QStringLiteral("phase")).toString(), strings(error.value(QStringLiteral("backtrace")))};
    result.stdoutCut = qint64(json.value(QStringLiteral("stdout_cut")).toDouble());
    result.stderrCut = qint64(json.value(QStringLiteral("stderr_cut")).toDouble());
    *entry = result;
    return true;
}

JournalEntry JournalEntry::fromJob(const Job &job, const QString &packageInEffect)
{
    JournalEntry entry;
    entry.kind = Kind::Job;
    entry.job = job;
    entry.job.result.reply = {}; // the engine's raw reply repeats what is already here
    if (entry.job.request.package.isEmpty())
        entry.job.request.package = packageInEffect;
    entry.stdoutCut = capped(job.result.stdoutText, &entry.job.result.stdoutText);
    entry.stderrCut = capped(job.result.stderrText, &entry.job.result.stderrText);
    return entry;
}

JournalEntry JournalEntry::fromChat(const ChatRecord &record)
{
    JournalEntry entry;
    entry.kind = Kind::Chat;
    entry.chat = record;
    return entry;
}

JournalEntry JournalEntry::makeEvent(const QString &event, const QString &message, const Origin &by)
{
    JournalEntry entry;
    entry.kind = Kind::Event;
    entry.event = event;
    entry.message = message;
    entry.by = by;
    entry.at = LocalClock::now();
    return entry;
}

JournalEntry JournalEntry::fromFileChange(const ::FileChange &change)
{
    JournalEntry entry;
    entry.kind = Kind::FileChange;
    entry.file = change;
    entry.file.before.clear(); // the digests and the diff tell the story; whole texts would bloat it
    entry.file.after.clear();
    entry.file.diff.lines.clear();
    return entry;
}

JournalEntry JournalEntry::fromDefinition(const DefinitionVersion &version)
{
    JournalEntry entry;
    entry.kind = Kind::Definition;
    entry.definition = version;
    return entry;
}

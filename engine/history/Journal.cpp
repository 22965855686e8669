#include "Journal.h"

#include "client/EngineProtocol.h"
#include "session/JobSummary.h"

#include "DefinitionLedger.h"
#include "json/JsonTextWriter.h"
#include "session/LocalClock.h"
#include "project/ProjectFiles.h"
#include "session/Session.h"
#include "session/TextLines.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcJournal, "duet.journal")

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

Journal::Journal(QObject *parent) : QObject(parent) {}

Journal::~Journal()
{
    close();
}

QString Journal::directory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/journals");
}

QString Journal::newPath()
{
    // ISO 8601 basic format: sorts by time and needs no ':' in a file name.
    const QString base = directory() + QLatin1Char('/')
        + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss.zzz'Z'"));
    QString path = base + QStringLiteral(".jsonl");
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = base + QStringLiteral("-%1.jsonl").arg(n);
    return path;
}

int Journal::prune(int keep, const QStringList &protect)
{
    QDir dir(directory());
    // Only the names newPath() makes ("20261123T081500.123Z.jsonl", "...-2.jsonl"): a file
    // somebody put there by hand is not ours to delete.
    static const QRegularExpression ours(QStringLiteral("^\\d{8}T\\d{6}\\.\\d{3}Z(-\\d+)?\\.jsonl$"));
    QStringList names = dir.entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name | QDir::Reversed);
    names.removeIf([](const QString &name) { return !ours.match(name).hasMatch(); });
    QStringList kept;
    for (const QString &path : protect)
        kept << QFileInfo(path).absoluteFilePath();
    int removed = 0;
    for (qsizetype i = qMax(0, keep); i < names.size(); ++i) {
        const QString path = dir.absoluteFilePath(names.at(i));
        if (!kept.contains(path) && QFile::remove(path))
            ++removed;
    }
    return removed;
}

QString Journal::latest(const QString &exclude)
{
    QDir dir(directory());
    const QStringList names = dir.entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name | QDir::Reversed);
    const QString excluded = exclude.isEmpty() ? QString() : QFileInfo(exclude).absoluteFilePath();
    int looked = 0;
    for (const QString &name : names) {
        const QString path = dir.absoluteFilePath(name);
        if (path == excluded)
            continue;
        if (++looked > 50) // sessions that evaluated nothing are not worth a long search
            break;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        // Cheaper than parsing: records are written compactly, so the key reads exactly so.
        while (!file.atEnd()) {
            if (file.readLine().contains("\"type\":\"evaluation\""))
                return path;
        }
    }
    return {};
}

JournalContents Journal::read(const QString &path)
{
    JournalContents contents;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        contents.error = QStringLiteral("Cannot read the journal %1: %2").arg(path, file.errorString());
        return contents;
    }
    const QByteArray data = file.readAll();
    const QList<QByteArray> lines = data.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray &line = lines.at(i);
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(line, &error);
        JournalEntry entry;
        if (error.error == QJsonParseError::NoError && document.isObject() && JournalEntry::fromJson(document.object(), &entry)) {
            contents.entries.append(entry);
            continue;
        }
        // The last piece (no newline after it) is a record the app did not finish writing.
        if (i == lines.size() - 1)
            contents.tornTail = true;
        else
            ++contents.badLines;
    }
    return contents;
}

bool Journal::open(const QString &path, QString *error)
{
    close();
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath())) {
        m_lastError = QStringLiteral("Cannot create the folder %1 for the journal.").arg(info.absolutePath());
        if (error)
            *error = m_lastError;
        return false;
    }
    QFile::setPermissions(info.absolutePath(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    const QByteArray native = QFile::encodeName(info.absoluteFilePath());
    const int fd = ::open(native.constData(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        m_lastError = QStringLiteral("Cannot open the journal %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        if (error)
            *error = m_lastError;
        return false;
    }
    ::fchmod(fd, 0600); // a file that existed keeps no wider permissions than ours
    m_fd = fd;
    m_path = info.absoluteFilePath();
    // A torn last line (the previous app died mid-write) must not swallow our first record.
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
        char last = '\n';
        if (::pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n')
            writeAll(QByteArrayLiteral("\n"));
    }
    return true;
}

void Journal::close()
{
    if (m_fd < 0)
        return;
    ::fdatasync(m_fd);
    ::close(m_fd);
    m_fd = -1;
}

bool Journal::writeAll(const QByteArray &bytes)
{
    const char *data = bytes.constData();
    qsizetype left = bytes.size();
    while (left > 0) {
        const ssize_t written = ::write(m_fd, data, size_t(left));
        if (written < 0) {
            if (errno == EINTR)
                continue;
            m_lastError = QStringLiteral("Writing the journal %1 failed: %2").arg(m_path, QString::fromLocal8Bit(std::strerror(errno)));
            qCWarning(lcJournal).noquote() << m_lastError;
            return false;
        }
        data += written;
        left -= written;
    }
    return true;
}

bool Journal::append(const JournalEntry &entry)
{
    if (m_fd < 0)
        return false;
    QByteArray line = JsonTextWriter::compact(entry.toJson());
    line.append('\n');
    // One write(2) of the whole line: after it returns the record is the kernel's, and a
    // killed app cannot lose it (only a crash of the machine could, unless m_sync).
    const bool ok = writeAll(line);
    if (ok && m_sync)
        ::fdatasync(m_fd);
    if (ok)
        ++m_records;
    return ok;
}

bool Journal::recordEvent(const QString &event, const QString &message, const Origin &by)
{
    return append(JournalEntry::makeEvent(event, message, by));
}

void Journal::attach(Session *session)
{
    connect(session, &Session::started, this, [this, session](JobPtr job) {
        m_packageAtStart.insert(job->id, job->request.package.isEmpty() ? session->currentPackage()
                                                                                       : job->request.package);
    });
    connect(session, &Session::finished, this, [this, session](JobPtr job) {
        const QString package = m_packageAtStart.take(job->id);
        append(JournalEntry::fromJob(*job, package.isEmpty() ? session->currentPackage() : package));
    });
    connect(session, &Session::sessionReset, this, [this](const Origin &origin, const QString &why) {
        const QString because = why.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(why);
        recordEvent(QStringLiteral("session-reset"), QStringLiteral("The session was reset by %1%2.").arg(origin.name, because), origin);
    });
    // The debugger's episodes: the choices and looks are jobs of their own (invoke-restart,
    // debugger-eval, debugger-frame), the outcome is the parked job's record when it ends.
    connect(session->debugger(), &SessionDebugger::parked, this, [this](JobPtr job) {
        const Debugger &d = *job->debugger;
        recordEvent(QStringLiteral("debugger-parked"),
                    QStringLiteral("%1's evaluation %2 parked in debugger %3 (level %4): %5: %6 Restarts: %7.")
                        .arg(d.owner.name, TextLines::oneLine(d.code, 200)).arg(d.id).arg(d.level)
                        .arg(d.conditionType, TextLines::oneLine(d.message, 300), d.restartList()),
                    d.owner);
    });
    connect(session->debugger(), &SessionDebugger::debuggerClosed, this, [this](DebuggerPtr debugger) {
        recordEvent(QStringLiteral("debugger-closed"),
                    QStringLiteral("Debugger %1: %2.").arg(debugger->id).arg(debugger->outcomeSentence()),
                    debugger->choice.by);
    });
    connect(session, &Session::engineStatus, this, [this](Session::EngineStatus state, const QString &message) {
        switch (state) {
        case Session::EngineStatus::Ready: recordEvent(QStringLiteral("engine-started"), message); break;
        case Session::EngineStatus::Restarting: recordEvent(QStringLiteral("engine-restarted"), message); break;
        case Session::EngineStatus::Failed: recordEvent(QStringLiteral("engine-failed"), message); break;
        case Session::EngineStatus::Starting: break;
        }
    });
}

void Journal::attach(ProjectFiles *files)
{
    connect(files, &ProjectFiles::changeApplied, this, [this](const FileChange &change) {
        append(JournalEntry::fromFileChange(change));
    });
    connect(files, &ProjectFiles::rootChanged, this, [this](const QString &root, const Origin &by) {
        recordEvent(QStringLiteral("project-root"), QStringLiteral("The project root is now %1.").arg(root), by);
    });
}

void Journal::attach(DefinitionLedger *ledger)
{
    connect(ledger, &DefinitionLedger::recorded, this, [this](const DefinitionVersion &version) {
        append(JournalEntry::fromDefinition(version));
    });
}

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
            const QByteArray line = file.readLine();
            if (line.contains("\"type\":\"evaluation\"") || line.contains("\"type\":\"chat\""))
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
        recordEvent(QStringLiteral("session-reset"),
                    QStringLiteral("The session was reset by %1%2.").arg(origin.isPerson() ? QStringLiteral("the person") : origin.name, because),
                    origin);
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

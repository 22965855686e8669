#include "InitFile.h"

#include "session/LocalClock.h"
#include "session/Session.h"
#include "session/TextLines.h"
#include "client/EditorMessages.h"
#include "client/EngineProtocol.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace {
// How long after its own time limit the host waits before it interrupts a load itself: the
// engine stops it at the limit; this is for code that ignores that (then the grace period,
// then the engine is killed).
constexpr int HostMarginMs = 5000;

QDateTime modified(const QString &file)
{
    return QFileInfo(file).lastModified();
}
} // namespace

QString InitFile::Status::stateName() const
{
    switch (state) {
    case State::Missing: return QStringLiteral("missing");
    case State::Queued: return QStringLiteral("queued");
    case State::Loaded: return QStringLiteral("loaded");
    case State::Failed: return QStringLiteral("failed");
    case State::TimedOut: return QStringLiteral("timed-out");
    case State::Stopped: return QStringLiteral("stopped");
    case State::Skipped: return QStringLiteral("skipped");
    }
    return {};
}

InitFile::InitFile(Session *session, QObject *parent) : QObject(parent)
{
    // A reset is the person's choice, not the file's fault: a load it cuts short is no reason
    // to skip the file in the next engine.
    connect(session, &Session::sessionReset, this, [this] {
        for (Status &status : m_status) {
            if (status.state == Status::State::Queued)
                status.job = 0;
        }
    });
}

QString InitFile::defaultPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)).filePath(QStringLiteral("lisp-duet/init.lisp"));
}

QString InitFile::eclrcPath()
{
    return QDir::home().filePath(QStringLiteral(".eclrc"));
}

QString InitFile::shortPath(const QString &path)
{
    const QString home = QDir::homePath();
    return path.startsWith(home + QLatin1Char('/')) ? QStringLiteral("~") + path.mid(home.size()) : path;
}

void InitFile::setFiles(const QStringList &files)
{
    m_files = files;
    for (auto it = m_status.begin(); it != m_status.end();)
        it = files.contains(it.key()) ? std::next(it) : m_status.erase(it);
}

QList<InitFile::Status> InitFile::statuses() const
{
    QList<Status> list;
    for (const QString &file : m_files)
        list.append(m_status.value(file, Status{file, Status::State::Missing, {}, {}, 0}));
    return list;
}

QString InitFile::problem(Reader reader) const
{
    // The person reads "Your init file"; an agent, to whom "your" would mean itself, reads
    // "The person's init file" (issue 40.8).
    const QString whose = reader == Reader::Person ? QStringLiteral("Your init file") : QStringLiteral("The person's init file");
    QStringList sentences;
    for (const Status &status : statuses()) {
        const QString file = shortPath(status.file);
        switch (status.state) {
        case Status::State::Failed:
            sentences << QStringLiteral("%1 %2 failed: %3 The session runs without the rest of it.").arg(whose, file, status.error);
            break;
        case Status::State::TimedOut:
        case Status::State::Stopped:
            sentences << QStringLiteral("%1 %2 %3 The session runs without the rest of it.").arg(whose, file, status.error);
            break;
        case Status::State::Skipped:
            sentences << QStringLiteral("%1 %2 was not loaded: %3").arg(whose, file, status.error);
            break;
        case Status::State::Missing:
        case Status::State::Queued:
        case Status::State::Loaded:
            break;
        }
    }
    return sentences.join(QLatin1Char(' '));
}

QList<EngineStartJob> InitFile::engineStarted(const EngineProtocol::ReadyEvent &)
{
    QList<EngineStartJob> jobs;
    for (const QString &file : std::as_const(m_files)) {
        Status &status = m_status[file];
        status = Status{file, Status::State::Missing, {}, LocalClock::now(), 0};
        if (!QFileInfo(file).isFile())
            continue;
        const auto stopped = m_stoppedAt.constFind(file);
        if (stopped != m_stoppedAt.constEnd() && *stopped == modified(file)) {
            status.state = Status::State::Skipped;
            status.error = QStringLiteral("it stopped the Lisp engine when it was loaded before, and it has not changed since. "
                                          "Change it (or touch it) to have it loaded by the next engine.");
            continue;
        }
        m_stoppedAt.remove(file);
        JobRequest request = EngineProtocol::initFileLoad(file, m_timeLimitMs);
        request.origin = Origin::system(QStringLiteral("init file"));
        request.purpose = JobPurpose::InitFile;
        // Read by the person in the window and by the agents in their digest: "your" would
        // mean each reader (issue 40.8).
        request.description = QStringLiteral("loading %1").arg(shortPath(file));
        request.timeoutMs = m_timeLimitMs + HostMarginMs;
        status.state = Status::State::Queued;
        status.job = quint64(-1); // set when it ends; 0 after a reset cut it short
        jobs.append({request, [this](JobPtr job) { onLoaded(job); }});
    }
    Q_EMIT changed();
    return jobs;
}

void InitFile::onLoaded(const JobPtr &job)
{
    const QString file = job->request.file;
    if (!m_status.contains(file))
        return; // the files changed meanwhile
    Status &status = m_status[file];
    const bool cutByReset = status.job == 0;
    status.job = job->id;
    status.at = LocalClock::now();
    const JobResult &result = job->result;
    const EngineProtocol::InitFileReply reply(result.reply);
    const QString limit = QStringLiteral("%1 s").arg(m_timeLimitMs / 1000.0, 0, 'g', 3);
    if (result.ok()) {
        status.state = reply.loaded() ? Status::State::Loaded : Status::State::Missing;
        status.error.clear();
    } else if (reply.timedOut() || result.status == JobResult::Status::TimedOut) {
        status.state = Status::State::TimedOut;
        status.error = QStringLiteral("did not finish within %1 and was interrupted.").arg(limit);
    } else if (result.status == JobResult::Status::EngineRestarted && !cutByReset) {
        status.state = Status::State::Stopped;
        status.error = QStringLiteral("stopped the Lisp engine while it loaded (it ran past %1 and ignored the interrupt, "
                                      "or it crashed the engine); the next engines skip it until it changes.").arg(limit);
        m_stoppedAt.insert(file, modified(file));
    } else if (result.status == JobResult::Status::EngineRestarted) {
        status.state = Status::State::Queued; // the next engine loads it again
        status.error.clear();
    } else if (result.error.type == QLatin1String("INIT-FILE-UNSAFE")) {
        // Another user's, or one others can change: the engine did not load it (issue 41).
        status.state = Status::State::Skipped;
        status.error = result.error.message.section(QStringLiteral("Not loaded: "), 1);
    } else {
        status.state = Status::State::Failed;
        status.error = TextLines::oneLine(QStringLiteral("%1: %2").arg(result.error.type, result.error.message), 400);
    }
    Q_EMIT changed();
}

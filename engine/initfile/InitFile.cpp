#include "InitFile.h"

#include "session/LocalClock.h"
#include "session/Session.h"
#include "session/TextLines.h"
#include "client/EditorMessages.h"
#include "client/EngineProtocol.h"

#include <QDir>
#include <algorithm>
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

// An error's message may end without a full stop ("boom"): a sentence follows it.
QString asSentence(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || trimmed.endsWith(QLatin1Char('.')) || trimmed.endsWith(QLatin1Char('!')) || trimmed.endsWith(QLatin1Char('?')))
        return trimmed;
    return trimmed + QLatin1Char('.');
}

QString seconds(int ms)
{
    return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'g', 3);
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
        m_resetting = true;
        for (Status &status : m_status) {
            if (status.state == Status::State::Queued)
                status.job = 0;
        }
    });
    connect(session, &Session::finished, this, &InitFile::onJobFinished);
}

void InitFile::onJobFinished(const JobPtr &job)
{
    // An evaluation after the init files stopped the engine (it was killed at its time limit,
    // or crashed): a file that changed how errors are handled is the likely cause, and the
    // next engines would stop the same way at their first error.
    if (job->result.status != JobResult::Status::EngineRestarted || job->request.purpose == JobPurpose::InitFile || m_resetting)
        return;
    bool named = false;
    for (auto it = m_debuggerSettings.cbegin(); it != m_debuggerSettings.cend(); ++it) {
        if (it.value().isEmpty() || !m_status.contains(it.key()) || m_status[it.key()].state != Status::State::Loaded)
            continue;
        const QString file = it.key();
        Status &status = m_status[file];
        status.state = Status::State::Stopped;
        status.at = LocalClock::now();
        status.error = QStringLiteral("set %1, and the Lisp engine stopped in an evaluation after it (job %2): it is the likely "
                                      "cause; the next engines skip it until it changes.").arg(it.value().join(QStringLiteral(", ")))
                           .arg(job->id);
        m_stoppedAt.insert(file, modified(file));
        m_stoppedWhy.insert(file, QStringLiteral("it set %1, and the Lisp engine stopped in an evaluation after it. Change it (or touch "
                                                 "it) to have it loaded by the next engine.").arg(it.value().join(QStringLiteral(", "))));
        named = true;
    }
    m_debuggerSettings.clear();
    if (named)
        Q_EMIT changed();
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
            sentences << QStringLiteral("%1 %2 failed: %3 The session runs without the rest of it.").arg(whose, file, asSentence(status.error));
            break;
        case Status::State::Stopped:
            if (m_stoppedWhy.contains(status.file)) { // it loaded whole; an evaluation after it stopped the engine
                sentences << QStringLiteral("%1 %2 %3").arg(whose, file, asSentence(status.error));
                break;
            }
            [[fallthrough]];
        case Status::State::TimedOut:
            sentences << QStringLiteral("%1 %2 %3 The session runs without the rest of it.").arg(whose, file, asSentence(status.error));
            break;
        case Status::State::Skipped:
            sentences << QStringLiteral("%1 %2 was not loaded: %3").arg(whose, file, asSentence(status.error));
            break;
        case Status::State::Missing:
        case Status::State::Queued:
        case Status::State::Loaded:
            break;
        }
    }
    return sentences.join(QLatin1Char(' '));
}

QString InitFile::outcome(const Job &job, Reader reader)
{
    const bool person = reader == Reader::Person;
    const QString file = shortPath(job.request.file);
    const JobResult &result = job.result;
    const EngineProtocol::InitFileReply reply(result.reply);
    if (result.ok() && reply.loaded())
        return person ? QStringLiteral("Loaded your init file %1.").arg(file)
                      : QStringLiteral("loaded the person's init file %1 in the new Lisp engine.").arg(file);
    if (result.ok())
        return person ? QStringLiteral("There is no init file at %1.").arg(file) : QString();
    if (result.status == JobResult::Status::EngineRestarted && job.resetBy)
        return {}; // the reset is told; the next engine loads the file again
    const QString limit = seconds(job.request.timeLimitMs);
    if (reply.timedOut() || result.status == JobResult::Status::TimedOut)
        return person ? QStringLiteral("Your init file %1 did not finish within %2 and was interrupted. The session runs without "
                                       "the rest of it.").arg(file, limit)
                      : QStringLiteral("the person's init file %1 did not finish within %2 and was interrupted: the session "
                                       "runs without the rest of it.").arg(file, limit);
    if (result.status == JobResult::Status::EngineRestarted)
        return person ? QStringLiteral("Your init file %1 stopped the Lisp engine while it loaded; the next engines skip it until it "
                                       "changes.").arg(file)
                      : QStringLiteral("the person's init file %1 stopped the Lisp engine while it loaded: the session runs "
                                       "without it.").arg(file);
    // The person reads the error above this; an agent reads it here.
    return person ? QStringLiteral("The session runs without the rest of your init file %1. Fix it and reset the session "
                                   "(Session \u25b8 Reset session), or turn it off in File \u25b8 Settings.").arg(file)
                  : QStringLiteral("the person's init file %1 failed: [ERROR] %2: %3 The session runs without the rest of it.")
                        .arg(file, result.error.type, asSentence(TextLines::oneLine(result.error.message, 300)));
}

QList<EngineStartJob> InitFile::engineStarted(const EngineProtocol::ReadyEvent &)
{
    QList<EngineStartJob> jobs;
    m_resetting = false;
    m_debuggerSettings.clear();
    for (const QString &file : std::as_const(m_files)) {
        Status &status = m_status[file];
        status = Status{file, Status::State::Missing, {}, LocalClock::now(), 0};
        if (!QFileInfo(file).isFile())
            continue;
        const auto stopped = m_stoppedAt.constFind(file);
        if (stopped != m_stoppedAt.constEnd() && *stopped == modified(file)) {
            status.state = Status::State::Skipped;
            status.error = m_stoppedWhy.value(file, QStringLiteral("it stopped the Lisp engine when it was loaded before, and it has not "
                                                                    "changed since. Change it (or touch it) to have it loaded by the next engine."));
            continue;
        }
        m_stoppedAt.remove(file);
        m_stoppedWhy.remove(file);
        JobRequest request = EngineProtocol::initFileLoad(file, m_timeLimitMs);
        request.origin = Origin::system(QStringLiteral("init file"));
        request.purpose = JobPurpose::InitFile;
        request.description = shortPath(file); // the person's or an agent's, whoever reads it
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
    const QString limit = seconds(m_timeLimitMs);
    if (result.ok()) {
        status.state = reply.loaded() ? Status::State::Loaded : Status::State::Missing;
        status.error.clear();
        QStringList debugger = reply.changedSettings();
        debugger.erase(std::remove_if(debugger.begin(), debugger.end(),
                                      [](const QString &s) { return !EngineProtocol::InitFileReply::isDebuggerSetting(s); }),
                       debugger.end());
        m_debuggerSettings.insert(file, debugger);
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

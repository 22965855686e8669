#include "Session.h"

#include "client/EngineClient.h"
#include "LocalClock.h"
#include "client/StageLog.h"

#include <algorithm>

namespace {
QString seconds(int ms)
{
    return ms % 1000 == 0 ? QStringLiteral("%1 s").arg(ms / 1000) : QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 1);
}
} // namespace

QString Session::engineStatusName(EngineStatus status)
{
    switch (status) {
    case EngineStatus::Starting: return QStringLiteral("starting");
    case EngineStatus::Ready: return QStringLiteral("ready");
    case EngineStatus::Restarting: return QStringLiteral("restarting");
    case EngineStatus::Failed: return QStringLiteral("failed");
    }
    return {};
}

Session::Session(EngineClient *engine, QObject *parent)
    : QObject(parent), m_engine(engine), m_debugger(new SessionDebugger(this))
{
    m_timeout.setSingleShot(true);
    m_timeout.setTimerType(Qt::PreciseTimer);
    m_queryWait.setInterval(250);
    connect(&m_queryWait, &QTimer::timeout, this, [this] {
        failWaitingQueries(QStringLiteral("The Lisp engine did not become ready within %1 s.").arg(QueryReadyWaitMs / 1000), true);
    });
    m_grace.setSingleShot(true);
    m_grace.setTimerType(Qt::PreciseTimer);
    connect(&m_timeout, &QTimer::timeout, this, &Session::onTimeout);
    connect(&m_grace, &QTimer::timeout, this, &Session::onGraceExpired);
    connect(engine, &EngineClient::reply, this, &Session::onReply);
    connect(engine, &EngineClient::parked, m_debugger, &SessionDebugger::onParked);
    connect(engine, &EngineClient::unparked, m_debugger, &SessionDebugger::onUnparked);
    connect(engine, &EngineClient::stillParked, m_debugger, &SessionDebugger::onStillParked);
    connect(engine, &EngineClient::output, this, &Session::onOutput);
    connect(engine, &EngineClient::otherEvent, this, [this](const QJsonObject &event) {
        if (EngineProtocol::eventName(event) != QStringLiteral("progress"))
            return;
        const EngineProtocol::ProgressEvent progressed(event);
        if (m_current && m_current->id == progressed.id() && !progressed.message().isEmpty())
            Q_EMIT progress(progressed.id(), progressed.message());
    });
    connect(engine, &EngineClient::ready, this, &Session::onEngineReady);
    connect(engine, &EngineClient::died, this, &Session::onEngineDied);
    connect(engine, &EngineClient::lineDropped, this, [this](qsizetype maxLineBytes) {
        failCurrent(JobResult::Status::Failed, QStringLiteral("REPLY-TOO-LARGE"),
                    QStringLiteral("The engine's reply was larger than %1 and was dropped. Lower max_output_chars or "
                                   "print_length, or return a smaller value (the session is intact).")
                        .arg(maxLineBytes >= 1024 * 1024 ? QStringLiteral("%1 MiB").arg(maxLineBytes / (1024 * 1024))
                                                         : QStringLiteral("%1 KiB").arg(maxLineBytes / 1024)));
    });
    connect(engine, &EngineClient::processOutput, this, [this](const QString &text) {
        // Output written straight to the process's descriptors belongs to whatever runs. It
        // bypasses the engine's output budget, so the host caps it (a child process writing
        // 100 MB to fd 1 must not cost 100 MB here) and counts the rest as dropped.
        if (!m_current) {
            Q_EMIT engineProcessOutput(text);
            return;
        }
        JobResult &result = m_current->result;
        const qsizetype room = qMax<qsizetype>(0, ProcessOutputCap - m_currentProcessOutput);
        const QString kept = text.left(room);
        m_currentProcessOutput += text.size();
        result.outputDropped += text.size() - kept.size();
        if (kept.isEmpty())
            return;
        result.stderrText += kept;
    });
}

bool Session::isEngineReady() const
{
    return m_engine->isReady();
}

qint64 Session::enginePid() const
{
    return m_engine->pid();
}

QString Session::enginePath() const
{
    return m_engine->enginePath();
}

JobPtr Session::newJob(const JobRequest &request)
{
    auto job = JobPtr::create();
    job->id = m_nextId++;
    job->request = request;
    // The defaults cover evaluations; a test run stops at its first failure only when asked
    // (the person's Run project tests wants the whole report).
    if (request.runsCode())
        job->request.debug = request.debug || m_debugger->debugsByDefault(request.origin);
    job->queuedAt = LocalClock::now();
    m_live.insert(job->id, job);
    return job;
}

quint64 Session::submit(const JobRequest &request)
{
    const JobPtr job = newJob(request);
    m_queue.enqueue(job);
    dispatchNext();
    return job->id;
}

void Session::queueEngineStartJobs(const EngineProtocol::ReadyEvent &ready)
{
    qsizetype position = 0; // ahead of the jobs that waited for this engine, in order
    for (EngineStartWork *work : std::as_const(m_engineStart)) {
        for (const EngineStartJob &start : work->engineStarted(ready)) {
            const JobPtr job = newJob(start.request);
            m_queue.insert(position++, job);
            if (start.finished)
                m_waiters.add(job->id, start.finished, -1, JobWaiters::Until::Done);
        }
    }
}

JobPtr Session::job(quint64 id) const
{
    return m_live.value(id);
}

bool Session::cancel(quint64 id, const QString &reason, const Origin &by)
{
    const JobPtr job = m_live.value(id);
    if (!job)
        return false;
    if (job->state == Job::State::Queued) {
        m_queue.removeOne(job);
        job->result.status = JobResult::Status::Cancelled;
        job->result.error = {QStringLiteral("CANCELLED"),
                                    reason.isEmpty() ? QStringLiteral("The evaluation was cancelled before it ran.") : reason,
                                    QStringLiteral("host"), {}};
        finish(job);
        return true;
    }
    if (job->state == Job::State::Parked) {
        // Cancelling a parked evaluation ends it, as its ABORT restart does.
        return m_debugger->invokeRestart(job->debugger->id, QStringLiteral("ABORT"), {}, by.name.isEmpty() ? Origin::system(QStringLiteral("Lisp Duet")) : by) != 0;
    }
    if (job != m_current)
        return false; // nested below a parked job? It is not running; nothing to interrupt
    job->cancelRequested = true;
    if (!by.name.isEmpty() && by.clientKey != job->request.origin.clientKey)
        job->interruptedBy = by; // its caller did not ask: the answer and its digest say who did
    // With debugging on, the job stops where it is, parked with a CONTINUE restart: a break.
    m_engine->send(EngineProtocol::interruptLine(id, job->request.debug, by.isPerson() ? QStringLiteral("The person") : by.name));
    if (!m_grace.isActive())
        m_grace.start(m_graceMs);
    return true;
}

void Session::interruptCurrent()
{
    if (m_current)
        cancel(m_current->id, {}, Origin::person());
}

void Session::query(const EngineProtocol::Query &query, QueryCallback callback)
{
    if (m_engine->state() == EngineClient::State::Starting) {
        m_waitingQueries.append({query, std::move(callback), QDeadlineTimer(QueryReadyWaitMs)});
        m_queryWait.start();
        return;
    }
    const quint64 id = m_nextId++;
    if (!m_engine->send(EngineProtocol::queryLine(id, query))) {
        callback(EngineProtocol::Reply::failure(QStringLiteral("The Lisp engine is not running right now.")));
        return;
    }
    m_queries.insert(id, std::move(callback));
}

void Session::changeLimits(const LimitsChange &change, QueryCallback done)
{
    if (change.timeoutMs)
        m_limits.timeoutMs = *change.timeoutMs;
    if (change.printLength)
        m_limits.printLength = *change.printLength;
    if (change.printLevel)
        m_limits.printLevel = *change.printLevel;
    if (change.maxOutputChars)
        m_limits.maxOutputChars = *change.maxOutputChars;
    if (change.heapLimitBytes)
        m_limits.heapLimitBytes = *change.heapLimitBytes;
    sendLimits(std::move(done));
}

void Session::sendLimits(QueryCallback done)
{
    query(EngineProtocol::limits(m_limits), [done = std::move(done)](const QJsonObject &reply) {
        if (done)
            done(reply);
    });
}

void Session::setProjectRoot(const QString &directory)
{
    if (directory == m_projectRoot)
        return;
    m_projectRoot = directory;
    if (m_engine->isReady())
        sendProjectRoot();
}

void Session::sendProjectRoot()
{
    if (m_projectRoot.isEmpty())
        return;
    const QString root = m_projectRoot;
    query(EngineProtocol::projectRoot(root), [this, root](const QJsonObject &reply) {
        // An engine that went away gets the root again when the next one is ready; a refusal
        // (the directory is gone) is worth a line where the person sees the engine's output.
        const EngineProtocol::Reply answer(reply);
        if (!answer.ok() && !answer.errorType().isEmpty())
            Q_EMIT engineProcessOutput(QStringLiteral("The engine did not take the project root %1: %2\n").arg(root, answer.errorMessage()));
    });
}

int Session::timeLimitOf(const Job &job) const
{
    return job.request.timeoutMs >= 0 ? job.request.timeoutMs : m_limits.timeoutMs;
}

void Session::startRunning(const JobPtr &job)
{
    job->state = Job::State::Running;
    job->runningFor.start();
    m_timedOut = false;
    const int timeout = timeLimitOf(*job);
    if (timeout > 0) // what is left of it: the time a job spent parked does not count
        m_timeout.start(int(qMax<qint64>(0, timeout - job->ranMs)));
}

void Session::dispatchNext()
{
    while (const JobPtr next = startNext())
        announceStarted(next);
    m_debugger->afterDispatch();
}

JobPtr Session::startNext()
{
    while (!m_current && !m_debugger->isHolding() && !m_queue.isEmpty() && m_engine->isReady()) {
        JobPtr next = m_queue.dequeue();
        if (!m_debugger->dispatchable(next))
            continue;
        m_current = next;
        m_current->startedAt = LocalClock::now();
        m_currentProcessOutput = 0;
        startRunning(m_current);
        const Origin &origin = m_current->request.origin;
        const QByteArray line = EngineProtocol::jobLine(m_current->id, m_current->request,
                                                        origin.isPerson() ? QStringLiteral("the person, in the window") : origin.name);
        if (StageLog::enabled())
            StageLog::mark("sent", qint64(m_current->id), StageLog::now());
        if (!m_engine->sendLine(line)) {
            m_timeout.stop();
            // Deferred: the submitter may not have connected to finished() yet.
            QTimer::singleShot(0, this, [this] {
                failCurrent(JobResult::Status::Failed, QStringLiteral("ENGINE-UNAVAILABLE"),
                            QStringLiteral("The Lisp engine could not take the request."));
            });
        }
        return next;
    }
    return {};
}

void Session::announceStarted(const JobPtr &job)
{
    if (m_current == job) // not ended meanwhile (an engine restart while the job before finished)
        Q_EMIT started(job);
}

void Session::onOutput(quint64 id, const QString &stream, const QString &text)
{
    if (!m_current || m_current->id != id)
        return;
    if (stream == QStringLiteral("stderr"))
        m_current->result.stderrText += text;
    else
        m_current->result.stdoutText += text;
    Q_EMIT output(id, stream, text);
}

void Session::onReply(quint64 id, const QJsonObject &reply)
{
    if (auto callback = m_queries.take(id)) {
        callback(reply);
        return;
    }
    if (!m_current || m_current->id != id)
        return;
    m_timeout.stop();
    m_grace.stop();
    if (EngineProtocol::leavesALevel(reply))
        m_debugger->onReplyLeavingLevel(*m_current, reply); // nothing is sent until "unparked"
    else
        m_debugger->onReplyAtItsLevel();
    JobResult result = EngineProtocol::jobResult(reply);
    // Streamed output arrived before the reply; keep it.
    result.stdoutText = m_current->result.stdoutText;
    result.stderrText = m_current->result.stderrText;
    result.outputDropped += m_current->result.outputDropped; // process output the host left out
    if (result.status == JobResult::Status::Interrupted) {
        if (m_timedOut && !m_current->cancelRequested) {
            result.status = JobResult::Status::TimedOut;
            result.error = {QStringLiteral("TIMEOUT"),
                            QStringLiteral("The evaluation did not finish within %1 and was interrupted. "
                                           "The session is intact: definitions made before the interrupt remain.")
                                .arg(seconds(timeLimitOf(*m_current))),
                            QStringLiteral("host"), {}};
        } else {
            const Origin &by = m_current->interruptedBy;
            result.error = {QStringLiteral("INTERRUPTED"),
                            by.name.isEmpty() ? QStringLiteral("The evaluation was interrupted. The session is intact.")
                                              : QStringLiteral("%1 interrupted the evaluation at %2. The session is intact.")
                                                    .arg(by.isPerson() ? QStringLiteral("The person") : by.name,
                                                         LocalClock::now().toString(QStringLiteral("HH:mm:ss"))),
                            QStringLiteral("host"), {}};
        }
    }
    if (!result.package.isEmpty() && result.package != m_package) {
        m_package = result.package;
        Q_EMIT packageChanged(m_package);
    }
    m_current->result = result;
    JobPtr done = m_current;
    m_current.reset();
    // The engine starts on the next job while this one's answer is made and sent: with several
    // clients at once, that work no longer stands between two evaluations. Its started() comes
    // after this one's finished(), as it always did.
    const JobPtr next = startNext();
    finish(done);
    if (next)
        announceStarted(next);
    dispatchNext();
}

void Session::onTimeout()
{
    if (!m_current)
        return;
    // The time limit ends a job with debugging on too: it is not a choice to look at it.
    m_timedOut = true;
    m_engine->interrupt(m_current->id);
    m_grace.start(m_graceMs);
}

void Session::onGraceExpired()
{
    if (!m_current)
        return;
    const int timeout = timeLimitOf(*m_current);
    m_restartReason = m_timedOut
        ? QStringLiteral("The evaluation did not finish within %1 and did not stop within %2 of being interrupted "
                         "(it may run inside WITHOUT-INTERRUPTS or a blocking foreign call), so the engine process was "
                         "killed and a fresh one started. Every definition of the session is gone; replay the journal "
                         "to restore them.").arg(seconds(timeout), seconds(m_graceMs))
        : QStringLiteral("The evaluation did not stop within %1 of being interrupted, so the engine process was killed "
                         "and a fresh one started. Every definition of the session is gone; replay the journal to "
                         "restore them.").arg(seconds(m_graceMs));
    m_engine->restart(QStringLiteral("the engine was killed because an evaluation ignored its interrupt"));
}

void Session::onEngineDied(const QString &reason)
{
    const auto queries = std::exchange(m_queries, {});
    for (const QueryCallback &callback : queries)
        callback(EngineProtocol::Reply::failure(reason));
    const QString message = m_restartReason.isEmpty()
        ? QStringLiteral("The Lisp engine stopped while this evaluation ran (%1). A fresh engine has been started; "
                         "every definition of the session is gone. Replay the journal to restore them.").arg(reason)
        : m_restartReason;
    m_restartReason.clear();
    if (m_current) {
        m_timeout.stop();
        m_grace.stop();
        failCurrent(JobResult::Status::EngineRestarted, QStringLiteral("ENGINE-RESTARTED"), message);
    }
    m_debugger->endAll(message);
    m_package = QStringLiteral("COMMON-LISP-USER");
    Q_EMIT packageChanged(m_package);
    const bool failed = m_engine->state() == EngineClient::State::Failed;
    Q_EMIT engineStatus(failed ? EngineStatus::Failed : EngineStatus::Restarting,
                        failed ? QStringLiteral("The Lisp engine cannot be started: %1").arg(reason)
                               : QStringLiteral("The Lisp engine stopped (%1); starting a fresh one.").arg(reason));
    if (failed) {
        failWaitingQueries(QStringLiteral("The Lisp engine cannot be started: %1").arg(reason), false);
        // Nothing will run: tell everyone waiting instead of leaving them queued forever.
        while (!m_queue.isEmpty()) {
            JobPtr job = m_queue.dequeue();
            job->result.status = JobResult::Status::Failed;
            job->result.error = {QStringLiteral("ENGINE-UNAVAILABLE"),
                                        QStringLiteral("The Lisp engine cannot be started: %1").arg(reason),
                                        QStringLiteral("host"), {}};
            finish(job);
        }
    }
}

void Session::failWaitingQueries(const QString &reason, bool onlyExpired)
{
    QList<WaitingQuery> failed;
    for (auto it = m_waitingQueries.begin(); it != m_waitingQueries.end();) {
        if (onlyExpired && !it->deadline.hasExpired()) {
            ++it;
            continue;
        }
        failed.append(std::move(*it));
        it = m_waitingQueries.erase(it);
    }
    if (m_waitingQueries.isEmpty())
        m_queryWait.stop();
    for (const WaitingQuery &waiting : failed)
        waiting.callback(EngineProtocol::Reply::failure(reason));
}

void Session::onEngineReady(const QJsonObject &info)
{
    const EngineProtocol::ReadyEvent ready(info);
    if (!ready.package().isEmpty())
        m_package = ready.package();
    // Before any job: the new engine knows nothing of the session's limits.
    sendLimits({});
    sendProjectRoot();
    // The questions asked while it started, in order.
    m_queryWait.stop();
    for (WaitingQuery &waiting : std::exchange(m_waitingQueries, {}))
        query(waiting.query, std::move(waiting.callback));
    queueEngineStartJobs(ready);
    Q_EMIT engineStatus(EngineStatus::Ready, QStringLiteral("%1 %2 is ready.").arg(ready.implementation(), ready.version()));
    dispatchNext();
}

void Session::whenAnswerable(quint64 id, std::function<void(JobPtr)> callback, int deadlineMs)
{
    const JobPtr job = m_live.value(id);
    if (!job) {
        whenFinished(id, std::move(callback)); // done already: answered at once, if it is known
        return;
    }
    if (job->state == Job::State::Parked && !m_debugger->isLeaving(*job)) {
        callback(job);
        return;
    }
    m_waiters.add(id, std::move(callback), deadlineMs);
}

JobPtr Session::stopCurrent()
{
    m_timeout.stop();
    m_grace.stop();
    m_timedOut = false;
    return std::exchange(m_current, {});
}

void Session::failCurrent(JobResult::Status status, const QString &type, const QString &message)
{
    if (!m_current)
        return;
    JobPtr done = m_current;
    m_current.reset();
    done->result.status = status;
    done->result.error = {type, message, QStringLiteral("host"), {}};
    finish(done);
    QTimer::singleShot(0, this, &Session::dispatchNext);
}

void Session::finish(const JobPtr &job)
{
    job->state = Job::State::Done;
    job->finishedAt = LocalClock::now();
    if (!job->startedAt.isValid())
        job->startedAt = job->finishedAt;
    job->sequence = m_nextSequence++;
    m_live.remove(job->id);
    m_transcript.append(job);
    while (m_transcript.size() > m_transcriptLimit)
        m_transcript.removeFirst();
    // Older entries keep only the start of their output: the transcript is for catching up,
    // and 5,000 entries of 100,000 characters each would hold half a gigabyte.
    constexpr qsizetype FullOutputEntries = 50;
    constexpr qsizetype KeptOutputChars = 4000;
    if (m_transcript.size() > FullOutputEntries) {
        JobResult &old = m_transcript[m_transcript.size() - 1 - FullOutputEntries]->result;
        for (QString *text : {&old.stdoutText, &old.stderrText}) {
            if (text->size() > KeptOutputChars) {
                old.outputDropped += text->size() - KeptOutputChars;
                text->truncate(KeptOutputChars);
            }
        }
    }
    Q_EMIT finished(job);
    m_waiters.answer(job);
}

void Session::whenFinished(quint64 id, std::function<void(JobPtr)> callback)
{
    if (m_live.contains(id)) {
        m_waiters.add(id, std::move(callback), -1, JobWaiters::Until::Done);
        return;
    }
    for (auto it = m_transcript.crbegin(); it != m_transcript.crend(); ++it) {
        if ((*it)->id == id) {
            callback(*it); // already done: answer at once rather than never
            return;
        }
    }
}

QList<JobPtr> Session::takeActivityFor(const QString &clientKey)
{
    const quint64 seen = m_seenBy.value(clientKey, 0);
    QList<JobPtr> activity;
    // The transcript is in sequence order: skip what this client was told of without walking
    // the whole transcript (up to 5,000 entries) on every tool call.
    const auto unseen = std::partition_point(m_transcript.cbegin(), m_transcript.cend(),
                                             [seen](const JobPtr &job) { return job->sequence <= seen; });
    for (auto it = unseen; it != m_transcript.cend(); ++it) {
        const JobPtr &job = *it;
        // The client's own evaluation counts too when somebody else chose how its debugger
        // went on: it learns the outcome here.
        const bool answeredByOthers = job->debugger && job->debugger->choice.isMade()
                                      && job->debugger->choice.by.clientKey != clientKey;
        // ... or when somebody else interrupted it (the person's Interrupt in the window).
        const bool interruptedByOthers = !job->interruptedBy.name.isEmpty() && job->interruptedBy.clientKey != clientKey;
        if ((job->request.origin.clientKey != clientKey || answeredByOthers || interruptedByOthers)
            && job->result.status != JobResult::Status::Cancelled)
            activity.append(job);
    }
    // Others' evaluations that parked since, and are still parked, say so.
    activity += m_debugger->parkedSinceLastTold(clientKey);
    m_seenBy.insert(clientKey, m_nextSequence - 1);
    return activity;
}

void Session::reset(const Origin &origin, const QString &why)
{
    const QString because = why.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(why);
    m_restartReason = QStringLiteral("The session was reset by %1%2 while this evaluation ran.").arg(origin.name, because);
    m_engine->restart(QStringLiteral("the session was reset by %1%2").arg(origin.name, because));
    Q_EMIT sessionReset(origin, why);
}

void Session::tell(const QString &clientKey, const SessionNotice &notice)
{
    QList<SessionNotice> &notices = m_notices[clientKey];
    notices.append(notice);
    while (notices.size() > MaxNotices)
        notices.removeFirst();
}

QList<SessionNotice> Session::takeNoticesFor(const QString &clientKey)
{
    return m_notices.take(clientKey);
}

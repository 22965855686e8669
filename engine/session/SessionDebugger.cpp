#include "SessionDebugger.h"

#include "Session.h"

#include "JobSummary.h"
#include "LocalClock.h"
#include "client/EngineClient.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcDebugger, "duet.debugger")

namespace {
constexpr int ClosedDebuggersKept = 100;

QString noSuchDebugger(int id)
{
    return QStringLiteral("There is no debugger %1: list-debuggers shows the open ones.").arg(id);
}

QString closedSentence(const Debugger &debugger)
{
    return QStringLiteral("Debugger %1 is no longer open: %2.").arg(debugger.id).arg(debugger.outcomeSentence());
}
} // namespace

SessionDebugger::SessionDebugger(Session *session) : QObject(session), m_session(session)
{
    m_abandon.setSingleShot(true);
    connect(&m_abandon, &QTimer::timeout, this, &SessionDebugger::onAbandoned);
}

bool SessionDebugger::debugsByDefault(const Origin &origin) const
{
    return origin.isPerson() ? m_debugPerson : origin.isAgent() && m_debugAgents;
}

void SessionDebugger::setDebugDefaults(bool person, bool agents)
{
    m_debugPerson = person;
    m_debugAgents = agents;
}

void SessionDebugger::setAbandonAfterMs(int ms)
{
    m_abandonMs = qMax(0, ms);
    m_abandon.stop();
    m_abandonTarget = 0;
    updateAbandonTimer();
}

QList<DebuggerPtr> SessionDebugger::openDebuggers() const
{
    QList<DebuggerPtr> open;
    for (const JobPtr &job : m_parked)
        open.append(job->debugger);
    return open;
}

DebuggerPtr SessionDebugger::debugger(int id) const
{
    return m_debuggers.value(id);
}

QList<DebuggerPtr> SessionDebugger::closedDebuggers(int count) const
{
    QList<DebuggerPtr> closed;
    for (auto it = m_closedDebuggers.crbegin(); it != m_closedDebuggers.crend() && closed.size() < count; ++it) {
        if (const DebuggerPtr debugger = m_debuggers.value(*it))
            closed.append(debugger);
    }
    return closed;
}

quint64 SessionDebugger::submitFor(const DebuggerPtr &debugger, JobRequest request)
{
    request.debuggerId = debugger->id;
    return m_session->submit(request);
}

// The open debugger `id`, or null with why not in *problem.
DebuggerPtr SessionDebugger::openDebugger(int id, QString *problem) const
{
    const DebuggerPtr debugger = m_debuggers.value(id);
    if (debugger && debugger->isOpen())
        return debugger;
    *problem = debugger ? closedSentence(*debugger) : noSuchDebugger(id);
    return {};
}

quint64 SessionDebugger::invokeRestart(int debuggerId, const QJsonValue &restart, const QStringList &arguments, const Origin &by,
                               QString *refusal, const QString &description)
{
    QString problem;
    const DebuggerPtr debugger = openDebugger(debuggerId, &problem);
    const DebuggerRestart *chosen = debugger ? debugger->restart(restart) : nullptr;
    if (debugger && !chosen)
        problem = QStringLiteral("Debugger %1 has no restart %2. Its restarts: %3.")
                      .arg(debuggerId)
                      .arg(restart.isDouble() ? QString::number(restart.toInt()) : restart.toString(), debugger->restartList());
    if (!chosen) {
        if (refusal)
            *refusal = problem;
        return 0;
    }
    JobRequest request = EngineProtocol::restartInvocation(debugger->jobId, debugger->level, chosen->name, arguments);
    request.origin = by;
    // The person's editor says who chose when its SLDB closes ("Lisp Duet: claude-code chose ABORT").
    request.by = by.isPerson() ? QStringLiteral("you, in the window") : by.name;
    request.description = description;
    return submitFor(debugger, request);
}

quint64 SessionDebugger::evaluateInFrame(int debuggerId, int frame, const QString &code, const Origin &by, const QString &description,
                                 QString *refusal, int timeoutMs)
{
    QString problem;
    const DebuggerPtr debugger = openDebugger(debuggerId, &problem);
    if (debugger && (frame >= debugger->frames.size() || (frame < 0 && frame != -1)))
        problem = debugger->frames.isEmpty()
            ? QStringLiteral("Debugger %1 shows no frames: leave out \"frame\" to evaluate in the parked thread's dynamic environment.").arg(debuggerId)
            : QStringLiteral("Debugger %1 has frames 0 to %2.").arg(debuggerId).arg(debugger->frames.size() - 1);
    if (!problem.isEmpty()) {
        if (refusal)
            *refusal = problem;
        return 0;
    }
    JobRequest request = EngineProtocol::frameEvaluation(debugger->jobId, debugger->level, frame, code);
    request.origin = by;
    request.description = description;
    request.timeoutMs = timeoutMs;
    return submitFor(debugger, request);
}

void SessionDebugger::inspectFrame(int debuggerId, int frame, const Origin &by, bool record, QueryCallback callback)
{
    QString problem;
    const DebuggerPtr debugger = openDebugger(debuggerId, &problem);
    if (!debugger) {
        callback(EngineProtocol::Reply::failure(problem));
        return;
    }
    if (m_abandon.isActive() && m_abandonTarget == debuggerId)
        m_abandon.start(m_abandonMs); // somebody is looking at it
    JobPtr look;
    if (record) {
        look = JobPtr::create();
        look->id = m_session->m_nextId++;
        look->request = EngineProtocol::frameLook(frame);
        look->request.origin = by;
        look->request.debuggerId = debuggerId;
        look->queuedAt = look->startedAt = LocalClock::now();
        look->state = Job::State::Running;
        m_session->m_live.insert(look->id, look);
    }
    m_session->query(EngineProtocol::frameInspection(debugger->jobId, debugger->level, frame), [this, look, callback](const QJsonObject &json) {
        if (look) {
            const EngineProtocol::FrameReply reply(json);
            look->result.reply = json;
            if (reply.ok()) {
                look->result.values = QStringList{reply.text()};
            } else {
                look->result.status = JobResult::Status::Failed;
                look->result.error = {reply.errorType(), reply.errorMessage(), QStringLiteral("kernel"), {}};
            }
            m_session->finish(look);
        }
        callback(json);
    });
}

bool SessionDebugger::isLeaving(const Job &job) const
{
    // After an invocation's reply the engine is leaving levels down to the one chosen (after
    // code's own exit, it is not known how far): a job parked there is about to go on.
    return job.state == Job::State::Parked && m_holding
           && (!m_choosing || job.debugger->level >= m_choosing->level);
}

bool SessionDebugger::dispatchable(const JobPtr &job)
{
    if (job->request.kind != EngineJob::Kind::InvokeRestart && job->request.kind != EngineJob::Kind::FrameEvaluation)
        return true;
    const int debuggerId = job->request.debuggerId;
    const DebuggerPtr debugger = m_debuggers.value(debuggerId);
    if (debugger && debugger->isOpen())
        return true;
    // It closed while this waited its turn: the first choice won, or the engine restarted.
    job->startedAt = LocalClock::now();
    job->result.status = JobResult::Status::Failed;
    job->result.error = {QStringLiteral("DEBUGGER-CLOSED"), debugger ? closedSentence(*debugger) : noSuchDebugger(debuggerId),
                         QStringLiteral("host"), {}};
    m_session->finish(job);
    return false;
}

void SessionDebugger::onParked(quint64 id, const QJsonObject &json)
{
    if (!m_session->m_current || m_session->m_current->id != id) {
        qCWarning(lcDebugger) << "the engine parked job" << id << "which is not the running one";
        return;
    }
    const EngineProtocol::ParkedEvent event(json);
    const JobPtr job = m_session->stopCurrent(); // a break asked for by an interrupt: it stopped, as asked
    m_lastUnwoundBy = {};
    job->ranMs += job->runningFor.elapsed();
    job->runningFor.invalidate();
    job->cancelRequested = false;

    auto debugger = DebuggerPtr::create();
    debugger->id = m_nextDebuggerId++;
    debugger->jobId = id;
    debugger->level = event.level();
    debugger->owner = job->request.origin;
    debugger->code = JobSummary::subject(job->request);
    debugger->conditionType = event.conditionType();
    debugger->message = event.message();
    debugger->package = event.package();
    debugger->isBreak = event.isBreak();
    debugger->restarts = event.restarts();
    debugger->frames = event.frames();
    debugger->parkedAt = LocalClock::now();
    m_debuggers.insert(debugger->id, debugger);

    job->debugger = debugger;
    job->state = Job::State::Parked;
    job->result.status = JobResult::Status::Parked;
    job->result.error = event.error();
    m_parked.append(job);
    Q_EMIT parked(job);
    m_session->m_waiters.answer(job);
    m_session->dispatchNext(); // the worker serves the queue from inside the level
}

void SessionDebugger::onReplyLeavingLevel(const Job &job, const QJsonObject &reply)
{
    // The worker is on its way out of a debugger level: nothing is sent until "unparked".
    m_holding = true;
    if (job.request.kind != EngineJob::Kind::InvokeRestart) {
        if (m_lastUnwoundBy.name.isEmpty()) // the first one cut short is the code that left
            m_lastUnwoundBy = job.request.origin;
        return;
    }
    const Job &invocation = job;
    const DebuggerPtr debugger = m_debuggers.value(invocation.request.debuggerId);
    if (!debugger)
        return;
    debugger->choice = {invocation.request.origin, EngineProtocol::RestartReply(reply).restart(), invocation.request.restartArguments,
                        LocalClock::now(), invocation.request.description};
    m_choosing = debugger;
}

void SessionDebugger::onUnparked(quint64 id, const QJsonObject &json)
{
    const EngineProtocol::UnparkedEvent event(json);
    const auto at = std::find_if(m_parked.begin(), m_parked.end(), [id](const JobPtr &job) { return job->id == id; });
    if (at == m_parked.end()) {
        qCWarning(lcDebugger) << "the engine unparked job" << id << "which is not parked";
        return;
    }
    if (at != m_parked.end() - 1 || m_session->m_current)
        qCWarning(lcDebugger) << "job" << id << "left its level out of order";
    const JobPtr job = *at;
    m_parked.erase(at);
    const DebuggerPtr debugger = job->debugger;
    if (m_choosing && m_choosing->id == debugger->id) {
        closeDebugger(debugger, Debugger::State::Continued);
        m_choosing.reset();
    } else if (m_choosing) {
        // A restart chosen for a level below this one: this one is unwound on the way there.
        debugger->choice = m_choosing->choice;
        closeDebugger(debugger, Debugger::State::Unwound, QStringLiteral("debugger %1 below it").arg(m_choosing->id));
    } else {
        // The code evaluated in the level left it (a restart of its own, a throw).
        debugger->choice = {m_lastUnwoundBy.name.isEmpty() ? debugger->owner : m_lastUnwoundBy, event.restart(), {},
                            LocalClock::now(), {}};
        closeDebugger(debugger, Debugger::State::Continued);
    }
    m_holding = false;
    m_session->m_current = job;
    m_session->startRunning(job);
    Q_EMIT resumed(job);
    updateAbandonTimer();
}

void SessionDebugger::onStillParked(quint64 id, const QJsonObject &json)
{
    const auto at = std::find_if(m_parked.cbegin(), m_parked.cend(), [id](const JobPtr &job) { return job->id == id; });
    if (at == m_parked.cend())
        return;
    const DebuggerPtr debugger = (*at)->debugger;
    debugger->choice = {};
    debugger->notice = json.value(QStringLiteral("message")).toString();
    m_choosing.reset();
    m_holding = false; // the worker serves the level again
    Q_EMIT restartDidNotLeave(debugger, json.value(QStringLiteral("message")).toString());
    m_session->dispatchNext();
}

void SessionDebugger::answerParkedWaiters()
{
    // Asked while the engine was leaving levels, they waited; the levels left are known now,
    // and those still parked are answered as they are.
    for (const JobPtr &job : std::as_const(m_parked)) {
        if (m_session->m_waiters.has(job->id))
            m_session->m_waiters.answer(job);
    }
}

void SessionDebugger::closeDebugger(const DebuggerPtr &debugger, Debugger::State state, const QString &note)
{
    debugger->state = state;
    debugger->endNote = note;
    debugger->endedAt = LocalClock::now();
    m_closedDebuggers.append(debugger->id);
    while (m_closedDebuggers.size() > ClosedDebuggersKept)
        m_debuggers.remove(m_closedDebuggers.takeFirst());
    Q_EMIT debuggerClosed(debugger);
}

void SessionDebugger::endAll(const QString &reason, const std::function<QString(Job &)> &ownWords)
{
    m_holding = false;
    m_choosing.reset();
    m_abandon.stop();
    m_abandonTarget = 0;
    // Innermost first, as the levels would have unwound.
    while (!m_parked.isEmpty()) {
        const JobPtr job = m_parked.takeLast();
        closeDebugger(job->debugger, Debugger::State::Ended, QStringLiteral("the engine restarted (%1)").arg(reason));
        job->result.status = JobResult::Status::EngineRestarted;
        job->result.error = {QStringLiteral("ENGINE-RESTARTED"),
                             QStringLiteral("The Lisp engine stopped while this evaluation was parked in debugger %1 (%2), so it "
                                            "ended there. A fresh engine has been started; every definition of the session is "
                                            "gone. Replay the journal to restore them.")
                                 .arg(job->debugger->id)
                                 .arg(reason),
                             QStringLiteral("host"), {}};
        if (ownWords)
            job->result.error.message = ownWords(*job);
        m_session->finish(job);
    }
}

void SessionDebugger::updateAbandonTimer()
{
    const bool waiting = !m_session->m_current && !m_holding && m_session->m_queue.isEmpty() && !m_parked.isEmpty() && m_abandonMs > 0;
    if (!waiting) {
        m_abandon.stop();
        m_abandonTarget = 0;
        return;
    }
    const int target = m_parked.last()->debugger->id;
    if (m_abandon.isActive() && m_abandonTarget == target)
        return;
    m_abandonTarget = target;
    m_abandon.start(m_abandonMs);
}

void SessionDebugger::onAbandoned()
{
    const DebuggerPtr debugger = m_debuggers.value(m_abandonTarget);
    if (!debugger || !debugger->isOpen())
        return;
    const int minutes = m_abandonMs / 60000;
    const QString why = minutes >= 1 ? QStringLiteral("nobody answered it for %1 min").arg(minutes)
                                     : QStringLiteral("nobody answered it for %1 s").arg(m_abandonMs / 1000.0);
    invokeRestart(debugger->id, QStringLiteral("ABORT"), {}, Origin::system(QStringLiteral("Lisp Duet")), nullptr, why);
}

QList<JobPtr> SessionDebugger::parkedSinceLastTold(const QString &clientKey)
{
    QList<JobPtr> parked;
    for (const JobPtr &job : std::as_const(m_parked)) {
        if (job->request.origin.clientKey != clientKey && job->debugger && job->debugger->id > m_debuggersSeenBy.value(clientKey, 0))
            parked.append(job);
    }
    if (!m_parked.isEmpty())
        m_debuggersSeenBy.insert(clientKey, m_parked.last()->debugger->id);
    return parked;
}

void SessionDebugger::afterDispatch()
{
    if (!m_holding)
        answerParkedWaiters();
    updateAbandonTimer();
}

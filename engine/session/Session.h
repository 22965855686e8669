#pragma once

#include "client/EngineProtocol.h"
#include "EngineStart.h"
#include "Job.h"
#include "JobWaiters.h"
#include "SessionNotice.h"
#include "SessionDebugger.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMultiHash>
#include <QList>
#include <QObject>
#include <QQueue>
#include <QDeadlineTimer>
#include <QTimer>
#include <functional>
#include <optional>

class EngineClient;

// The one queue of work for the shared Lisp session. Evaluations from the person and from
// every agent run one at a time, first come first served, each tagged with its origin.
// The session enforces time limits (interrupt, then kill the engine if the code does not
// stop), keeps the transcript, and tells each agent what the others did since its last call.
// Questions that run no user code (completion, lambda lists) bypass the queue.
class Session : public QObject
{
    Q_OBJECT
public:
    using QueryCallback = std::function<void(const QJsonObject &reply)>;
    // The engine's life as the session reports it; engineStatusName is its word in the journal
    // and in MCP log messages.
    enum class EngineStatus { Starting, Ready, Restarting, Failed };
    Q_ENUM(EngineStatus)
    static QString engineStatusName(EngineStatus status);

    explicit Session(EngineClient *engine, QObject *parent = nullptr);

    // The engine process behind the session, for those who show or report it.
    bool isEngineReady() const;
    qint64 enginePid() const;
    QString enginePath() const;

    // Queues work for the worker; the returned id names it in every signal.
    quint64 submit(const JobRequest &request);
    // What every new engine does first, before any job queued, in this order (the composition
    // root's list: native compilation's word, the person's init files, Swank for their
    // editor): at each engine start, after the limits and the project root are sent, each is
    // told (EngineStartWork::engineStarted) and the jobs it gives are queued ahead of everything
    // else, in order.
    void setEngineStart(const QList<EngineStartWork *> &inOrder) { m_engineStart = inOrder; }
    // Drops a queued evaluation or interrupts the running one (`by` asked). A running job with
    // debugging on parks where it is instead (a break: CONTINUE resumes it); a parked one is
    // ended as its ABORT restart does. False if it is done or unknown.
    bool cancel(quint64 id, const QString &reason = QString(), const Origin &by = {});
    // Interrupts whatever runs now (the person's Interrupt button).
    void interruptCurrent();
    // Asks the engine's service thread; the callback gets the reply, or a failed one
    // (EngineProtocol::Reply::failed()) if the engine is not running or went away first. A
    // question asked while the engine starts waits for it, up to QueryReadyWaitMs (clients often
    // begin with one right after initialize).
    void query(const EngineProtocol::Query &query, QueryCallback callback);
    static constexpr int QueryReadyWaitMs = 15000;

    // Calls `callback` once, right after finished() is emitted for this evaluation (so that
    // the journal and the window have seen it first); at once when it is done already and still
    // in the transcript. finished() is for those who watch every job; a caller waiting for its
    // own hears of it here, or through whenAnswerable (both are JobWaiters).
    void whenFinished(quint64 id, std::function<void(JobPtr)> callback);
    // Calls `callback` once, at the job's next answerable point: it finished, it parked in the
    // debugger, or `deadlineMs` passed (-1: no deadline) while it still runs or waits. The
    // job's state says which (Done, Parked, else still going); now if it is parked or done
    // already. One way to answer a call before its job ends and to fetch what happens next:
    // a parked evaluation's caller, a later invoke-restart's, a long job polled by id.
    void whenAnswerable(quint64 id, std::function<void(JobPtr)> callback, int deadlineMs = -1);

    JobPtr job(quint64 id) const;
    JobPtr current() const { return m_current; }
    int queuedCount() const { return int(m_queue.size()); }
    QString currentPackage() const { return m_package; }

    // The limits of every evaluation that does not set its own: the time limit is enforced
    // here, the others by the engine, which gets them again at every start.
    const EngineProtocol::Limits &limits() const { return m_limits; }
    struct LimitsChange
    {
        std::optional<int> timeoutMs, printLength, printLevel, maxOutputChars;
        std::optional<qint64> heapLimitBytes;
    };
    // `done` gets the engine's reply: the limits in force (EngineProtocol::LimitsReply), or a
    // failed one when no engine runs (the change is kept for the next one).
    void changeLimits(const LimitsChange &change, QueryCallback done = {});
    int defaultTimeoutMs() const { return m_limits.timeoutMs; }
    void setDefaultTimeoutMs(int ms) { m_limits.timeoutMs = ms; }
    // How long code may ignore an interrupt before the engine is killed.
    void setInterruptGraceMs(int ms) { m_graceMs = ms; }
    int interruptGraceMs() const { return m_graceMs; }

    // Finished evaluations, oldest first, capped at transcriptLimit().
    const QList<JobPtr> &transcript() const { return m_transcript; }
    int transcriptLimit() const { return m_transcriptLimit; }
    void setTranscriptLimit(int limit) { m_transcriptLimit = limit; }

    // What others did since this client's previous call; marks it as seen. Besides others'
    // jobs: the client's own jobs that somebody else answered in the debugger or interrupted.
    QList<JobPtr> takeActivityFor(const QString &clientKey);
    void forgetClient(const QString &clientKey)
    {
        m_seenBy.remove(clientKey);
        m_notices.remove(clientKey);
    }
    // What somebody did to a client's work that is no job of the session: the person undid its
    // file change. Told once, in the client's next answer (takeNoticesFor), oldest first; a
    // client holds at most MaxNotices.
    void tell(const QString &clientKey, const SessionNotice &notice);
    QList<SessionNotice> takeNoticesFor(const QString &clientKey);
    static constexpr int MaxNotices = 50;

    // The time limit that stops this job: its own, else the session's (0: none). It counts
    // running time only (Job::runningMs): time parked in the debugger does not count.
    int timeLimitOf(const Job &job) const;

    // The project's root directory: the engine's *default-pathname-defaults* and ASDF's source
    // registry follow it. Sent now (after the jobs queued before it) and to every new engine.
    void setProjectRoot(const QString &directory);
    QString projectRoot() const { return m_projectRoot; }

    // Ends the engine and starts a fresh one: every definition is gone. `why`: the caller's
    // reason (an agent's description), for the transcript and the journal.
    void reset(const Origin &origin, const QString &why = {});

    // The shared debugger (issue 20): the evaluations parked in it, their restarts and frames,
    // the choices made for them.
    SessionDebugger *debugger() const { return m_debugger; }

Q_SIGNALS:
    void started(JobPtr job);
    void output(quint64 id, const QString &stream, const QString &text);
    void finished(JobPtr job);
    void packageChanged(const QString &package);
    // Engine life, with a sentence for people.
    void engineStatus(Session::EngineStatus state, const QString &message);
    // What the engine process wrote to its own descriptors while no evaluation ran (a thread
    // the code left behind, a program it started), and the session's own notes about the
    // engine (a project root it refused): the window shows them. Output written while an
    // evaluation runs belongs to it (its stderr).
    void engineProcessOutput(const QString &text);
    void sessionReset(const Origin &origin, const QString &why);
    // The running job `id` reports how far it is, beside its output: a load's "compiling file
    // 3 of 12: lists.lisp" (the engine's "progress" events).
    void progress(quint64 id, const QString &message);

private:
    friend class SessionDebugger; // it parks and resumes the current job, and waits its turn
    void dispatchNext();
    // Sends the next queued job to the engine and makes it the current one; announceStarted
    // emits its started() (unless it ended meanwhile).
    JobPtr startNext();
    void announceStarted(const JobPtr &job);
    void startRunning(const JobPtr &job);
    void onReply(quint64 id, const QJsonObject &reply);
    void onOutput(quint64 id, const QString &stream, const QString &text);
    void onEngineReady(const QJsonObject &info);
    JobPtr newJob(const JobRequest &request);
    void queueEngineStartJobs(const EngineProtocol::ReadyEvent &ready);
    void onEngineDied(const QString &reason);
    void onTimeout();
    void onGraceExpired();
    void finish(const JobPtr &job);
    // Takes the running job off the worker (it parked): its time limit and grace stop.
    JobPtr stopCurrent();
    void failCurrent(JobResult::Status status, const QString &type, const QString &message);
    void sendLimits(QueryCallback done);
    void sendProjectRoot();

    EngineClient *m_engine;
    QQueue<JobPtr> m_queue;
    JobPtr m_current;
    QHash<quint64, JobPtr> m_live; // queued or running, by id
    QHash<quint64, QueryCallback> m_queries;
    struct WaitingQuery
    {
        EngineProtocol::Query query;
        QueryCallback callback;
        QDeadlineTimer deadline;
    };
    QList<WaitingQuery> m_waitingQueries; // asked while the engine was starting
    QTimer m_queryWait;                    // ends the waits that outlast QueryReadyWaitMs
    void failWaitingQueries(const QString &reason, bool onlyExpired);
    JobWaiters m_waiters{[this](quint64 id) { return m_live.value(id); }};
    QList<JobPtr> m_transcript;
    QHash<QString, quint64> m_seenBy; // client key -> last transcript sequence it was told of
    QHash<QString, QList<SessionNotice>> m_notices; // client key -> what it has not been told yet
    quint64 m_nextId = 1;
    quint64 m_nextSequence = 1;
    QString m_package = QStringLiteral("COMMON-LISP-USER");
    EngineProtocol::Limits m_limits;
    QString m_projectRoot; // empty: none
    int m_graceMs = 2000;
    int m_transcriptLimit = 5000;
    // Output an evaluation's code writes to the process's own descriptors, kept per evaluation:
    // the engine's budget never sees it, so the host caps it at the default budget.
    static constexpr qsizetype ProcessOutputCap = EngineProtocol::DefaultMaxOutputChars;
    qsizetype m_currentProcessOutput = 0;
    // Precise timers: a time limit is a promise, and a coarse QTimer may fire 5 % early.
    QTimer m_timeout;
    QTimer m_grace;
    bool m_timedOut = false;
    QString m_restartReason; // why the session itself restarted the engine

    SessionDebugger *m_debugger; // after m_waiters and m_live, which it uses
    QList<EngineStartWork *> m_engineStart;
};

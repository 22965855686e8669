#pragma once

#include "client/EngineProtocol.h"
#include "Job.h"
#include "JobWaiters.h"

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

    // What others did since this client's previous call; marks it as seen.
    QList<JobPtr> takeActivityFor(const QString &clientKey);
    void forgetClient(const QString &clientKey) { m_seenBy.remove(clientKey); }

    // The project's root directory: the engine's *default-pathname-defaults* and ASDF's source
    // registry follow it. Sent now (after the jobs queued before it) and to every new engine.
    void setProjectRoot(const QString &directory);
    QString projectRoot() const { return m_projectRoot; }

    // Ends the engine and starts a fresh one: every definition is gone.
    void reset(const Origin &origin);

    // ---- The shared debugger (issue 20; engine/client/README.md, "The debugger").
    // Debugging is on for every job whose request asks (JobRequest::debug), for the person's
    // own evaluations (eval, time) when `person`, and for every agent's when `agents`.
    void setDebugDefaults(bool person, bool agents);
    bool debugsPerson() const { return m_debugPerson; }
    bool debugsAgents() const { return m_debugAgents; }
    // A parked evaluation nobody touches for this long (while nothing runs above it) is
    // aborted, and its caller told. 0: never.
    void setAbandonAfterMs(int ms);
    int abandonAfterMs() const { return m_abandonMs; }

    // The open debuggers, outermost level first, and any debugger by id (open, or one of the
    // last ones closed).
    QList<DebuggerPtr> openDebuggers() const;
    DebuggerPtr debugger(int id) const;
    // The last `count` debuggers that closed, newest first.
    QList<DebuggerPtr> closedDebuggers(int count) const;
    // Chooses `restart` (an index or a name) of an open debugger, with `arguments` (Lisp texts)
    // for restarts that take values. Queued like all work, after whatever runs nested above
    // it; then the job goes on. The first choice wins: a later one is refused at its turn.
    // Returns the invocation's job id, or 0 with the reason in *refusal.
    quint64 invokeRestart(int debuggerId, const QJsonValue &restart, const QStringList &arguments, const Origin &by,
                          QString *refusal = nullptr, const QString &description = {});
    // Evaluates code in a frame of an open debugger (its lexical environment where ECL has one,
    // else the parked thread's dynamic one). Queued; 0 and *refusal when it cannot be.
    // `frame` -1: no frame, the dynamic environment only; `timeoutMs` -1: the session's limit.
    quint64 evaluateInFrame(int debuggerId, int frame, const QString &code, const Origin &by,
                            const QString &description = {}, QString *refusal = nullptr, int timeoutMs = -1);
    // One frame's function, arguments and locals, source: answered by the engine's service
    // thread at once, even while work runs nested. With `record`, the look is a transcript
    // entry (op "debugger-frame"), so the others see who looked at what.
    void inspectFrame(int debuggerId, int frame, const Origin &by, bool record, QueryCallback callback);

Q_SIGNALS:
    void queued(JobPtr job);
    void started(JobPtr job);
    void output(quint64 id, const QString &stream, const QString &text);
    void finished(JobPtr job);
    void packageChanged(const QString &package);
    // Engine life, with a sentence for people.
    void engineStatus(Session::EngineStatus state, const QString &message);
    void engineProcessOutput(const QString &text);
    void sessionReset(const Origin &origin);
    // The job stopped at an error and waits in job->debugger, an open Debugger.
    void parked(JobPtr job);
    // An open debugger stopped being open: its choice or endNote says how. Comes before the
    // job's resumed() or finished().
    void debuggerClosed(DebuggerPtr debugger);
    // A parked job runs again (its debugger closed by a restart of its own).
    void resumed(JobPtr job);
    // A restart was chosen but its function returned (or failed) without leaving the level:
    // the debugger stays open; `message` says what happened.
    void restartDidNotLeave(DebuggerPtr debugger, const QString &message);

private:
    void dispatchNext();
    // Sends the next queued job to the engine and makes it the current one; announceStarted
    // emits its started() (unless it ended meanwhile).
    JobPtr startNext();
    void announceStarted(const JobPtr &job);
    bool dispatchable(const JobPtr &job);
    void startRunning(const JobPtr &job);
    void onReply(quint64 id, const QJsonObject &reply);
    void onParked(quint64 id, const QJsonObject &event);
    void onUnparked(quint64 id, const QJsonObject &event);
    void onStillParked(quint64 id, const QJsonObject &event);
    void noteRestartChosen(const Job &invocation, const QJsonObject &reply);
    void closeDebugger(const DebuggerPtr &debugger, Debugger::State state, const QString &note = {});
    void endParkedJobs(const QString &reason);
    void updateAbandonTimer();
    void onAbandoned();
    void callAnswerable(const JobPtr &job);
    bool isLeaving(const Job &job) const;
    void answerParkedWaiters();
    quint64 submitForDebugger(const DebuggerPtr &debugger, JobRequest request);
    DebuggerPtr openDebugger(int id, QString *problem) const;
    void onOutput(quint64 id, const QString &stream, const QString &text);
    void onEngineReady(const QJsonObject &info);
    void onEngineDied(const QString &reason);
    void onTimeout();
    void onGraceExpired();
    void finish(const JobPtr &job);
    void failCurrent(JobResult::Status status, const QString &type, const QString &message);
    void sendLimits(QueryCallback done);
    void sendProjectRoot();
    int timeLimitOf(const Job &job) const;

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

    // The debugger. The engine's worker is a stack: parked jobs, outermost first, and at most
    // one running job (m_current) nested in the innermost of them. After a reply that leaves
    // a level (an invocation continuing a job, a job cut short) the worker is not waiting for
    // a request until the engine says which job runs again ("unparked"): nothing is sent
    // meanwhile (m_holding).
    QList<JobPtr> m_parked;
    bool m_holding = false;
    QHash<int, DebuggerPtr> m_debuggers; // open ones, and the newest closed ones
    QList<int> m_closedDebuggers;        // oldest first, to forget the oldest
    QHash<QString, int> m_debuggersSeenBy; // client key -> newest parking its digest told of
    int m_nextDebuggerId = 1;
    // The choice an invocation made, until the level it chose for is left: levels above it
    // are unwound on the way.
    DebuggerPtr m_choosing;
    // Who ran the job that was cut short last: a level left without an invocation was left
    // by that code (a restart it invoked, a throw).
    Origin m_lastUnwoundBy;
    bool m_debugPerson = false;
    bool m_debugAgents = false;
    int m_abandonMs = 10 * 60 * 1000;
    QTimer m_abandon;
    int m_abandonTarget = 0; // the debugger the abandon timer runs for
};

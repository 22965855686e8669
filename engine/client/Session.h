#pragma once

#include "EngineProtocol.h"
#include "Job.h"

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

    explicit Session(EngineClient *engine, QObject *parent = nullptr);

    // The engine process behind the session, for those who show or report it.
    bool isEngineReady() const;
    qint64 enginePid() const;
    QString enginePath() const;

    // Queues work for the worker; the returned id names it in every signal.
    quint64 submit(const JobRequest &request);
    // Drops a queued evaluation or interrupts the running one. False if it is done or unknown.
    bool cancel(quint64 id, const QString &reason = QString());
    // Interrupts whatever runs now (the person's Interrupt button).
    void interruptCurrent();
    // Asks the engine's service thread; the callback gets the reply, or a failed one
    // (EngineProtocol::Reply::failed()) if the engine is not running or went away first. A
    // question asked while the engine starts waits for it, up to QueryReadyWaitMs (clients often
    // begin with one right after initialize).
    void query(const EngineProtocol::Query &query, QueryCallback callback);
    static constexpr int QueryReadyWaitMs = 15000;

    // Calls `callback` once, right after finished() is emitted for this evaluation (so that
    // the journal and the window have seen it first). Cheaper than a connection to finished()
    // per caller: one lookup per evaluation instead of one call per waiting caller.
    void whenFinished(quint64 id, std::function<void(JobPtr)> callback);
    // Calls `callback` once, when the job finished or `deadlineMs` passed (-1: no deadline)
    // while it still runs or waits: its state says which; now if it is done already. Any
    // number of callers may wait on one job (a tool call, and later calls of `job` for it).
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

Q_SIGNALS:
    void queued(JobPtr job);
    void started(JobPtr job);
    void output(quint64 id, const QString &stream, const QString &text);
    void finished(JobPtr job);
    void packageChanged(const QString &package);
    // Engine life: "starting", "ready", "restarting", "failed", with a sentence for people.
    void engineStatus(const QString &state, const QString &message);
    void engineProcessOutput(const QString &text);
    void sessionReset(const Origin &origin);

private:
    void dispatchNext();
    void onReply(quint64 id, const QJsonObject &reply);
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
    QHash<quint64, std::function<void(JobPtr)>> m_finishCallbacks;
    QMultiHash<quint64, std::function<void(JobPtr)>> m_answerableCallbacks;
    void callAnswerable(const JobPtr &job);
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
};

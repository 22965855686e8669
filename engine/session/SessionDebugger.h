#pragma once

#include "Job.h"
#include "client/EngineProtocol.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QTimer>

#include <functional>

class Session;

// The shared debugger's part of the session (issue 20; engine/README.md, "The debugger"): the
// evaluations parked in the debugger, their Debugger records, the choices made for them, and
// the abandon timer. The engine's worker is a stack: parked jobs, outermost first, and at most
// one running job (the Session's current) nested in the innermost of them. After a reply that
// leaves a level (an invocation continuing a job, a job cut short) the worker is not waiting for
// a request until the engine says which job runs again ("unparked"): the Session sends nothing
// meanwhile (isHolding). Made and driven by its Session (Session::debugger()).
class SessionDebugger : public QObject
{
    Q_OBJECT
public:
    using QueryCallback = std::function<void(const QJsonObject &reply)>;

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
    // entry (a FrameLook job), so the others see who looked at what.
    void inspectFrame(int debuggerId, int frame, const Origin &by, bool record, QueryCallback callback);

Q_SIGNALS:
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
    friend class Session;
    explicit SessionDebugger(Session *session);

    // What the Session asks of it.
    bool debugsByDefault(const Origin &origin) const;
    bool isHolding() const { return m_holding; }
    bool isLeaving(const Job &job) const;
    // False (and the job finished as DEBUGGER-CLOSED) for a debugger step whose debugger
    // closed while it waited its turn.
    bool dispatchable(const JobPtr &job);
    // The running job's reply left a level (it leavesALevel) or did not.
    void onReplyLeavingLevel(const Job &job, const QJsonObject &reply);
    void onReplyAtItsLevel() { m_lastUnwoundBy = {}; }
    // The engine went away: every parked job ends, innermost first, with `reason`.
    // `ownWords`, when given, is each job's error message instead (a reset says who did it,
    // in words for the job's owner).
    void endAll(const QString &reason, const std::function<QString(Job &)> &ownWords = {});
    // Others' evaluations that parked since this client was last told, and are still parked.
    QList<JobPtr> parkedSinceLastTold(const QString &clientKey);
    void afterDispatch();

    void onParked(quint64 id, const QJsonObject &event);
    void onUnparked(quint64 id, const QJsonObject &event);
    void onStillParked(quint64 id, const QJsonObject &event);
    quint64 submitFor(const DebuggerPtr &debugger, JobRequest request);
    DebuggerPtr openDebugger(int id, QString *problem) const;
    void closeDebugger(const DebuggerPtr &debugger, Debugger::State state, const QString &note = {});
    void answerParkedWaiters();
    void updateAbandonTimer();
    void onAbandoned();

    Session *m_session;
    QList<JobPtr> m_parked; // outermost first
    bool m_holding = false;
    QHash<int, DebuggerPtr> m_debuggers;   // open ones, and the newest closed ones
    QList<int> m_closedDebuggers;          // oldest first, to forget the oldest
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

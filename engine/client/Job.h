#pragma once

#include "Debugger.h"
#include "Origin.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QSharedPointer>
#include <QStringList>

// A job: one request to the engine as the session queues it (evaluation of code, or another
// operation that runs on the engine's worker: compile, load a system...). The kernel calls it
// a job too (RUN-JOB, the "job" field of an interrupt). EngineProtocol builds them
// (EngineProtocol::evaluation...); the journal keeps op, code, package and arguments.
struct JobRequest
{
    QString op = QStringLiteral("eval");
    QString code;
    QString package;        // empty: the session's current package
    QJsonObject arguments;  // further fields of the engine request, as EngineProtocol wrote them
    Origin origin = Origin::person();
    QString description;    // why an agent runs it, shown to the person
    QString tool;           // the MCP tool that asked for it ("edit-form"), or the hand-off that
                            // did ("stage-form", "revert-definition"); empty for the REPL
    int timeoutMs = -1;     // -1: the session's default
    // An error parks it in the debugger instead of ending it (eval, time and run-tests). The
    // Session also turns it on for the person's own work and agents' when the person says so.
    bool debug = false;
};

struct JobError
{
    QString type;
    QString message;
    QString phase; // "read", "eval", "print", "setup", "kernel", "host"
    QStringList backtrace;
};

struct JobResult
{
    enum class Status {
        Ok,
        Error,          // the code signalled a condition
        Interrupted,    // stopped on request
        TimedOut,       // stopped by the time limit; the engine survived
        EngineRestarted,// the engine died or had to be killed; its state is gone
        Cancelled,      // dropped before it ran
        Failed,         // the request itself was refused (kernel or host)
        Parked          // not over: waiting in the debugger (Job::debugger); error says why
    };

    Status status = Status::Ok;
    QStringList values;
    QStringList warnings;
    QString stdoutText;
    QString stderrText;
    JobError error;
    QString package;
    qint64 outputDropped = 0;
    qint64 realMicroseconds = 0;
    qint64 runMicroseconds = 0;
    QJsonObject reply; // the engine's whole reply, for operations with fields of their own

    bool ok() const { return status == Status::Ok; }
    static QString statusName(Status status);
};

// An evaluation from the moment it is queued until it is done; shared between the session,
// the window and the MCP layer. Only the Session changes it.
struct Job
{
    // Parked: an error stopped it where it happened; it waits in the debugger (`debugger`)
    // while other work runs nested above it, and goes back to Running when it continues.
    enum class State { Queued, Running, Parked, Done };

    quint64 id = 0;
    quint64 sequence = 0; // order of completion in the transcript; 0 until done
    JobRequest request;
    JobResult result;
    State state = State::Queued;
    QDateTime queuedAt;
    QDateTime startedAt;
    QDateTime finishedAt;
    bool cancelRequested = false;
    // The debugger episode it is parked in, or the last one it had; null if it never parked.
    DebuggerPtr debugger;
    // Time it ran before its current stretch (it does not run while parked): its time limit
    // counts only running time.
    qint64 ranMs = 0;
    QElapsedTimer runningFor;

    qint64 runningMs() const { return ranMs + (state == State::Running && runningFor.isValid() ? runningFor.elapsed() : 0); }

    qint64 elapsedMs() const
    {
        return startedAt.isValid() && finishedAt.isValid() ? startedAt.msecsTo(finishedAt) : 0;
    }
};

using JobPtr = QSharedPointer<Job>;
Q_DECLARE_METATYPE(JobPtr)

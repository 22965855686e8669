#pragma once

#include "Origin.h"

#include <QDateTime>
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
        Failed          // the request itself was refused (kernel or host)
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
    enum class State { Queued, Running, Done };

    quint64 id = 0;
    quint64 sequence = 0; // order of completion in the transcript; 0 until done
    JobRequest request;
    JobResult result;
    State state = State::Queued;
    QDateTime queuedAt;
    QDateTime startedAt;
    QDateTime finishedAt;
    bool cancelRequested = false;

    qint64 elapsedMs() const
    {
        return startedAt.isValid() && finishedAt.isValid() ? startedAt.msecsTo(finishedAt) : 0;
    }
};

using JobPtr = QSharedPointer<Job>;
Q_DECLARE_METATYPE(JobPtr)

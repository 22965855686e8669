#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

// Work for the engine's worker thread, as the engine's client sends it and reads its outcome
// back: one job (the kernel's word too: RUN-JOB, the "job" field of an interrupt). Built only
// by EngineProtocol (EngineProtocol::evaluation...); the Session queues it with who asked
// (session/Job.h: JobRequest).
struct EngineJob
{
    QString op = QStringLiteral("eval");
    QString code;
    QString package;        // empty: the session's current package
    QJsonObject arguments;  // further fields of the engine request, as EngineProtocol wrote them
    int timeoutMs = -1;     // how long the host lets it run; -1: the session's default
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

// What a job came to: the engine's reply as the host reads it, or how the host ended it.
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
        Parked          // not over: waiting in the debugger; error says why
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

// Where a parked job waits, as the engine reports it: its restarts and its frames.
struct DebuggerRestart
{
    int index = 0;
    QString name;        // "USE-VALUE", "RETRY", "ABORT"...
    QString description; // the restart's report: "Supply a new value of X"
};

struct DebuggerFrame
{
    int index = 0;
    QString text;                 // "(FOO 3 0)", as in the [Backtrace]
    bool localsAvailable = false; // bytecoded (interpreted) code keeps its locals; native code does not
};

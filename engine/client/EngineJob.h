#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

// What one evaluation may set for itself; the session's limits decide the rest.
struct EvalOptions
{
    std::optional<int> printLength;
    std::optional<int> printLevel;
    std::optional<int> maxOutputChars;
};

// Work for the engine's worker thread, as the engine's client sends it and reads its outcome
// back: one job (the kernel's word too: RUN-JOB, the "job" field of an interrupt). Built only
// by EngineProtocol (EngineProtocol::evaluation...); the Session queues it with who asked
// (session/Job.h: JobRequest). Each kind uses the fields its comment names; the others stay
// empty.
struct EngineJob
{
    enum class Kind {
        Evaluate,        // code; options; editorRequest
        Time,            // code; asTyped
        Compile,         // code (compiled, not run)
        Macroexpand,     // code; fullExpansion
        LoadSystem,      // system; force, verbose
        RunTests,        // system; test (one test or suite; empty: all)
        InvokeRestart,   // target, level; restart, restartArguments; by
        FrameEvaluation, // target, level, frame; code; editorRequest
        EditorListen,    // port; file (the secret file; empty: ~/.slime-secret); descriptorToken
                         // (the listening socket the app holds, passed with that token): Swank
                         // for the person's editor
        EditorClose,     // Swank stops listening and closes every editor's connection
        LoadInit,        // file; timeLimitMs: the person's init file
        NativeSettle,    // timeLimitMs; sinceSerial: waits until the background compiler is done
        LibraryWarmUp,   // systems, dependenciesOf: compiled natively in the background, not loaded
        // Not sent as a job: a look at a parked job's frame (a query), which the session records
        // in the transcript so that the others see who looked (Session::inspectFrame).
        FrameLook        // frame
    };

    Kind kind = Kind::Evaluate;
    QString code;         // the Lisp text it reads
    QString package;      // where it is read; empty: the session's current package
    int timeoutMs = -1;   // how long the host lets it run; -1: the session's default
    // An error parks it in the debugger instead of ending it (Evaluate, Time, RunTests). The
    // Session also turns it on for the person's own work and agents' when the person says so.
    bool debug = false;

    EvalOptions options;
    bool fullExpansion = false;
    QString system;
    bool force = false;
    bool verbose = false;
    QString test;
    quint64 target = 0;   // the parked job
    int level = 0;        // the debugger level it waits at
    int frame = -1;       // -1: no frame, the parked thread's dynamic environment
    QString restart;      // the restart's name
    QStringList restartArguments; // Lisp texts, read in the package the job parked in
    QString by;           // who chose the restart, for the person's editor ("claude-code")
    qint64 editorRequest = 0; // the request of the person's editor this job serves (0: none)
    int port = 0;
    QString descriptorToken; // EditorListen: names the socket passed (EngineClient::passDescriptor)
    QString file;
    int timeLimitMs = 0;
    bool asTyped = false;     // Time: the code as typed (bytecodes), not its native version
    qint64 sinceSerial = 0;   // NativeSettle: the definitions from this serial on
    QStringList systems;        // LibraryWarmUp: these systems...
    QStringList dependenciesOf; // ...and the systems these depend on

    bool isDebuggerStep() const { return kind == Kind::InvokeRestart || kind == Kind::FrameEvaluation || kind == Kind::FrameLook; }
    bool runsCode() const { return kind == Kind::Evaluate || kind == Kind::Time; }
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

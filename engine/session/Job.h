#pragma once

#include "Debugger.h"
#include "Origin.h"
#include "client/EngineJob.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QSharedPointer>
#include <QStringList>

// What a job is for, as whoever submits it says, beside its kind: how what it defines comes to
// be. The history (engine/history) records a definition by it: an edited form, a staged one,
// a revert, a replay, or else an evaluation.
enum class JobPurpose {
    Unstated,   // nobody said (Lisp Duet's own steps, tests): what it defines was evaluated
    Repl,       // the person typed it at the window's REPL
    AgentTool,  // an agent's tool call (evaluate-lisp, load-system...: `tool` names it)
    FormEdit,   // the evaluation of a form just written into a file (edit-form with evaluate)
    StagedForm, // the person ran a form an agent staged in their input (as staged, or edited)
    Revert,     // puts an earlier version of a definition back (`restoresVersion`)
    Replay,     // re-evaluates a journal's definitions after a restart
    Editor,     // the person's editor asked for it (Swank)
    InitFile,   // the person's init file, loaded by a new engine
    Setup       // Lisp Duet's own work on the engine (Swank starting or stopping)
};

// A job as the session queues it: the engine's work (EngineJob, built by EngineProtocol) and
// who asked for it and why. The journal keeps both.
struct JobRequest : EngineJob
{
    JobRequest() = default;
    JobRequest(EngineJob job) : EngineJob(std::move(job)) {} // NOLINT: every builder's result is a request

    Origin origin = Origin::person();
    JobPurpose purpose = JobPurpose::Unstated;
    int restoresVersion = 0; // Revert: the number of the version it puts back
    QString description;    // why an agent runs it, shown to the person
    QString tool;           // the name shown for what asked: the MCP tool ("edit-form"), the
                            // hand-off ("stage-form", "revert-definition"), the editor's request
                            // kind; empty for the REPL. A name to show, never a purpose.
    int debuggerId = 0;     // a debugger step's (isDebuggerStep()): the debugger it acts in
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
    // Who interrupted it when that was not its own caller (the person's Interrupt of an
    // agent's job): its answer and its owner's digest say so. Empty name: nobody else did.
    Origin interruptedBy;
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

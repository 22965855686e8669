#pragma once

#include "Debugger.h"
#include "Origin.h"
#include "client/EngineJob.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QSharedPointer>
#include <QStringList>

// A job as the session queues it: the engine's work (EngineJob, built by EngineProtocol) and
// who asked for it and why. The journal keeps both.
struct JobRequest : EngineJob
{
    JobRequest() = default;
    JobRequest(EngineJob job) : EngineJob(std::move(job)) {} // NOLINT: every builder's result is a request

    Origin origin = Origin::person();
    QString description;    // why an agent runs it, shown to the person
    QString tool;           // the MCP tool that asked for it ("edit-form"), or the hand-off that
                            // did ("stage-form", "revert-definition"); empty for the REPL
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

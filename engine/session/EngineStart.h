#pragma once

#include "Job.h"
#include "client/EngineMessages.h"

#include <QList>

#include <functional>

// A job a new engine runs before any other, and the callback that hears how it ended (the
// Session's JobWaiters call it, as they call whenFinished's).
struct EngineStartJob
{
    JobRequest request;
    std::function<void(JobPtr)> finished;
};

// What a room does with every new engine (start, restart, reset) before the session serves
// anybody: native compilation takes its word on it, the person's init files load, Swank starts
// for their editor. The composition root (AppServices) gives the Session these in the order
// they run (Session::setEngineStart).
class EngineStartWork
{
public:
    virtual ~EngineStartWork() = default;
    // A new engine is ready: the session sent it its limits and the project root, nothing
    // else yet. The jobs returned run first, in order, ahead of everything queued; a question
    // asked here (Session::query) reaches the engine before any job.
    virtual QList<EngineStartJob> engineStarted(const EngineProtocol::ReadyEvent &ready) = 0;
};

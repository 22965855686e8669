#pragma once

#include "Job.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QTimer>

#include <functional>
#include <map>

// The callers waiting for a job (Session::whenAnswerable, Session::whenFinished): until its
// next answerable point (it finished or parked) or until it is done, each with an optional
// deadline. The one way a caller hears of its own job's end. One precise timer serves every deadline, and it is left running when a
// waiter is answered early: it wakes at the earliest deadline it was armed for and then arms
// itself for whatever is still waiting. A timer per waiter used to stay registered for the
// whole wait (100 s by default) after its call was answered, and Qt keeps timers in a sorted
// list, so every call paid for all the calls of the last 100 s.
class JobWaiters : public QObject
{
    Q_OBJECT
public:
    using Callback = std::function<void(JobPtr)>;
    // `liveJob` finds a job that is still queued, running or parked (null once it is done).
    explicit JobWaiters(std::function<JobPtr(quint64)> liveJob, QObject *parent = nullptr);

    // Answerable: the job finished or parked in the debugger; Done: it finished.
    enum class Until { Answerable, Done };
    // `deadlineMs` < 0: no deadline.
    void add(quint64 id, Callback callback, int deadlineMs = -1, Until until = Until::Answerable);
    // Whether somebody waits for the job's next answerable point.
    bool has(quint64 id) const;
    // Calls every waiter of the job that waits for what it reached (parked: only those that
    // wait for its next answerable point), in the order they came, and forgets them.
    void answer(const JobPtr &job);

private:
    struct Waiter
    {
        quint64 serial;
        Callback callback;
        qint64 deadline; // on m_clock, ms; -1: none
        Until until;
    };
    void onTimer();
    void arm();

    std::function<JobPtr(quint64)> m_liveJob;
    QHash<quint64, QList<Waiter>> m_waiters;          // by job id, oldest first
    std::map<std::pair<qint64, quint64>, quint64> m_deadlines; // (deadline, serial) -> job id
    QElapsedTimer m_clock;
    QTimer m_timer;
    qint64 m_armedFor = -1; // the deadline m_timer wakes for
    quint64 m_nextSerial = 1;
};

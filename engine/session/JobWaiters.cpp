#include "JobWaiters.h"

#include <algorithm>

JobWaiters::JobWaiters(std::function<JobPtr(quint64)> liveJob, QObject *parent)
    : QObject(parent), m_liveJob(std::move(liveJob))
{
    m_clock.start();
    m_timer.setSingleShot(true);
    // Precise: a coarse timer may be 5 % off, 5 s of a 100 s wait_seconds.
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &JobWaiters::onTimer);
}

void JobWaiters::add(quint64 id, Callback callback, int deadlineMs, Until until)
{
    const quint64 serial = m_nextSerial++;
    const qint64 deadline = deadlineMs < 0 ? -1 : m_clock.elapsed() + deadlineMs;
    m_waiters[id].append({serial, std::move(callback), deadline, until});
    if (deadline >= 0) {
        m_deadlines.emplace(std::make_pair(deadline, serial), id);
        arm();
    }
}

bool JobWaiters::has(quint64 id) const
{
    const auto found = m_waiters.constFind(id);
    return found != m_waiters.constEnd()
           && std::any_of(found->cbegin(), found->cend(), [](const Waiter &w) { return w.until == Until::Answerable; });
}

void JobWaiters::answer(const JobPtr &job)
{
    const auto found = m_waiters.find(job->id);
    if (found == m_waiters.end())
        return;
    QList<Waiter> waiters;
    if (job->state == Job::State::Done) {
        waiters = std::move(found.value());
        m_waiters.erase(found);
    } else {
        QList<Waiter> &list = found.value();
        for (qsizetype i = 0; i < list.size();) {
            if (list[i].until == Until::Answerable)
                waiters.append(list.takeAt(i));
            else
                ++i;
        }
        if (list.isEmpty())
            m_waiters.erase(found);
    }
    for (const Waiter &waiter : waiters) {
        if (waiter.deadline >= 0)
            m_deadlines.erase({waiter.deadline, waiter.serial});
    }
    // The timer stays armed: when it wakes with nothing due it arms itself for what is left.
    for (const Waiter &waiter : waiters)
        waiter.callback(job);
}

void JobWaiters::arm()
{
    if (m_deadlines.empty())
        return;
    const qint64 earliest = m_deadlines.begin()->first.first;
    if (m_timer.isActive() && m_armedFor <= earliest)
        return;
    m_armedFor = earliest;
    m_timer.start(int(qMax<qint64>(0, earliest - m_clock.elapsed())));
}

void JobWaiters::onTimer()
{
    const qint64 now = m_clock.elapsed();
    QList<std::pair<JobPtr, Callback>> due;
    while (!m_deadlines.empty() && m_deadlines.begin()->first.first <= now) {
        const auto [key, id] = *m_deadlines.begin();
        m_deadlines.erase(m_deadlines.begin());
        const auto waiters = m_waiters.find(id);
        if (waiters == m_waiters.end())
            continue;
        QList<Waiter> &list = waiters.value();
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (list[i].serial == key.second) {
                if (const JobPtr job = m_liveJob(id))
                    due.append({job, std::move(list[i].callback)});
                list.removeAt(i);
                break;
            }
        }
        if (list.isEmpty())
            m_waiters.erase(waiters);
    }
    m_armedFor = -1;
    arm();
    // Called last: a callback may wait again, or answer other waiters.
    for (const auto &[job, callback] : due)
        callback(job);
}

#include "JobHandles.h"

#include "EvalFormatter.h"
#include "session/Session.h"

namespace {
// Expired ids are remembered only to say "expired" rather than "unknown"; a day of them is
// plenty.
constexpr qint64 ExpiredRememberedMs = 24 * 60 * 60 * 1000;
} // namespace

JobHandles::JobHandles(Session *session, QObject *parent)
    : QObject(parent), m_session(session)
{
}

JobHandles::Handle &JobHandles::remember(const JobPtr &job, const QString &tool, Formatter formatter)
{
    Handle &handle = m_handles[job->id];
    handle.job = job;
    handle.tool = tool;
    handle.formatter = std::move(formatter);
    return handle;
}

void JobHandles::track(const JobPtr &job, const QString &tool, Formatter formatter)
{
    if (m_handles.contains(job->id))
        return;
    remember(job, tool, std::move(formatter));
    m_tracked.enqueue(job->id);
    while (m_tracked.size() > MaxTracked) {
        const quint64 oldest = m_tracked.dequeue();
        if (!m_handles.value(oldest).handedOut)
            m_handles.remove(oldest);
    }
}

void JobHandles::handOut(const JobPtr &job, const QString &tool, Formatter formatter)
{
    expire();
    remember(job, tool, std::move(formatter)).handedOut = true;
    // The session's transcript later cuts the output of older entries down; a result kept for
    // its caller keeps all of it.
    const quint64 id = job->id;
    m_session->whenFinished(id, [this, id](const JobPtr &done) {
        const auto it = m_handles.find(id);
        if (it != m_handles.end())
            it->job = JobPtr::create(*done);
    });
}

JobHandles::Formatter JobHandles::formatterOf(quint64 id) const
{
    const auto it = m_handles.constFind(id);
    if (it != m_handles.constEnd() && it->formatter)
        return it->formatter;
    return [](const Job &job) { return EvalFormatter::result(job.result); };
}

const JobHandles::Handle *JobHandles::find(quint64 id, Found *found)
{
    expire();
    const auto it = m_handles.constFind(id);
    if (it != m_handles.constEnd() && it->handedOut) {
        *found = Found::Known;
        return &*it;
    }
    *found = m_expired.contains(id) ? Found::Expired : Found::Unknown;
    return nullptr;
}

void JobHandles::noteFetched(quint64 id)
{
    const auto it = m_handles.find(id);
    if (it != m_handles.end() && it->handedOut && !it->fetchedAt.isValid())
        it->fetchedAt = m_now();
}

void JobHandles::expire()
{
    const QDateTime now = m_now();
    QList<quint64> ended;
    for (auto it = m_handles.begin(); it != m_handles.end();) {
        const Job &job = *it->job;
        const bool done = it->handedOut && job.state == Job::State::Done;
        if (done && it->fetchedAt.isValid() && it->fetchedAt.msecsTo(now) >= KeptMs && job.finishedAt.toUTC().msecsTo(now) >= KeptMs) {
            m_expired.insert(it.key(), now);
            it = m_handles.erase(it);
            continue;
        }
        if (done && !it->fetchedAt.isValid())
            ended << it.key();
        ++it;
    }
    if (ended.size() > MaxUnfetched) {
        std::sort(ended.begin(), ended.end(), [this](quint64 a, quint64 b) {
            return m_handles.value(a).job->finishedAt < m_handles.value(b).job->finishedAt;
        });
        for (qsizetype i = 0; i < ended.size() - MaxUnfetched; ++i) {
            m_handles.remove(ended.at(i));
            m_expired.insert(ended.at(i), now);
        }
    }
    for (auto it = m_expired.begin(); it != m_expired.end();)
        it = it.value().msecsTo(now) >= ExpiredRememberedMs ? m_expired.erase(it) : std::next(it);
}

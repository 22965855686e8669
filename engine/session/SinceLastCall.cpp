#include "SinceLastCall.h"

#include "Transcript.h"

#include <algorithm>

QList<JobPtr> SinceLastCall::takeJobsFor(const QString &clientKey)
{
    QList<JobPtr> jobs;
    for (const JobPtr &job : m_transcript.since(m_seenBy.value(clientKey, 0))) {
        // The client's own evaluation counts too when somebody else chose how its debugger
        // went on: it learns the outcome here.
        const bool answeredByOthers = job->debugger && job->debugger->choice.isMade()
                                      && job->debugger->choice.by.clientKey != clientKey;
        // ... or when somebody else interrupted it (the person's Interrupt in the window).
        const bool interruptedByOthers = !job->interruptedBy.name.isEmpty() && job->interruptedBy.clientKey != clientKey;
        // Lisp Duet's own setup (Swank for the person's editor) is nobody's doing.
        if ((job->request.origin.clientKey != clientKey || answeredByOthers || interruptedByOthers)
            && job->result.status != JobResult::Status::Cancelled && job->request.purpose != JobPurpose::Setup)
            jobs.append(job);
    }
    m_seenBy.insert(clientKey, m_transcript.lastSequence());
    return jobs;
}

void SinceLastCall::tell(const QString &clientKey, const SessionNotice &notice)
{
    QList<SessionNotice> &notices = m_notices[clientKey];
    notices.append(notice);
    while (notices.size() > MaxNotices)
        notices.removeFirst();
}

void SinceLastCall::announce(SessionNotice notice)
{
    // Numbered as the transcript's jobs are: its place among them in a digest.
    notice.sequence = m_transcript.takeSequence();
    m_announced.append(notice);
    while (m_announced.size() > MaxNotices)
        m_announced.removeFirst();
}

QList<SessionNotice> SinceLastCall::takeNoticesFor(const QString &clientKey)
{
    QList<SessionNotice> notices = m_notices.take(clientKey);
    const quint64 told = m_announcedTo.value(clientKey, 0);
    for (const SessionNotice &notice : std::as_const(m_announced)) {
        if (notice.sequence > told && notice.by.clientKey != clientKey)
            notices.append(notice);
    }
    if (!m_announced.isEmpty())
        m_announcedTo.insert(clientKey, m_announced.last().sequence);
    // The announcements in their order among the client's own notices.
    std::stable_sort(notices.begin(), notices.end(), [](const SessionNotice &a, const SessionNotice &b) { return a.at < b.at; });
    return notices;
}

void SinceLastCall::forget(const QString &clientKey)
{
    m_seenBy.remove(clientKey);
    m_notices.remove(clientKey);
    m_announcedTo.remove(clientKey);
}

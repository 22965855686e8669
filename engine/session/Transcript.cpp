#include "Transcript.h"

#include <algorithm>

void Transcript::record(const JobPtr &job)
{
    job->sequence = m_nextSequence++;
    m_jobs.append(job);
    while (m_jobs.size() > m_limit)
        m_jobs.removeFirst();
    if (m_jobs.size() > FullOutputEntries) {
        JobResult &old = m_jobs[m_jobs.size() - 1 - FullOutputEntries]->result;
        for (QString *text : {&old.stdoutText, &old.stderrText}) {
            if (text->size() > KeptOutputChars) {
                old.outputDropped += text->size() - KeptOutputChars;
                text->truncate(KeptOutputChars);
            }
        }
    }
}

JobPtr Transcript::find(quint64 id) const
{
    for (auto it = m_jobs.crbegin(); it != m_jobs.crend(); ++it) {
        if ((*it)->id == id)
            return *it;
    }
    return {};
}

QList<JobPtr> Transcript::since(quint64 sequence) const
{
    // In sequence order: what came after is found without walking the whole transcript (up to
    // 5,000 entries), as every tool call asks.
    const auto after = std::partition_point(m_jobs.cbegin(), m_jobs.cend(),
                                            [sequence](const JobPtr &job) { return job->sequence <= sequence; });
    return QList<JobPtr>(after, m_jobs.cend());
}

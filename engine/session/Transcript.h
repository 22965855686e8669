#pragma once

#include "Job.h"

#include <QList>

// The session's finished jobs, oldest first, numbered in the order they finished (Job::sequence);
// announcements (SessionNotice::sequence) are numbered in the same sequence, so that a digest
// places them among the jobs. It keeps the newest limit() jobs, and of those only the newest
// FullOutputEntries with their whole output: it is for catching up, and 5,000 entries of
// 100,000 characters each would hold half a gigabyte.
class Transcript
{
public:
    static constexpr qsizetype FullOutputEntries = 50;
    static constexpr qsizetype KeptOutputChars = 4000;

    const QList<JobPtr> &jobs() const { return m_jobs; }
    int limit() const { return m_limit; }
    void setLimit(int limit) { m_limit = limit; }

    // Numbers the finished job and keeps it; the oldest go beyond the limit.
    void record(const JobPtr &job);
    // The next number of the sequence, for something that is no job (an announcement).
    quint64 takeSequence() { return m_nextSequence++; }
    // The number of the newest job or announcement (0: none yet).
    quint64 lastSequence() const { return m_nextSequence - 1; }
    // A finished job still kept, by id; null if it is not.
    JobPtr find(quint64 id) const;
    // The kept jobs numbered after `sequence`, oldest first.
    QList<JobPtr> since(quint64 sequence) const;

private:
    QList<JobPtr> m_jobs;
    int m_limit = 5000;
    quint64 m_nextSequence = 1;
};

#pragma once

#include "Job.h"
#include "SessionNotice.h"

#include <QHash>
#include <QList>
#include <QString>

class Transcript;

// What each client (by its key) has not been told yet, for the "since your last call" part of
// its next answer: others' finished jobs, and its own that somebody else answered in the
// debugger or interrupted; what somebody did to its work that is no job (tell); what happened
// to the whole session (announce). Each is told once.
class SinceLastCall
{
public:
    static constexpr int MaxNotices = 50;

    explicit SinceLastCall(Transcript &transcript) : m_transcript(transcript) {}

    // The finished jobs the client was not told of; marks them as told. Cancelled jobs and Lisp
    // Duet's own setup are nobody's doing and are left out.
    QList<JobPtr> takeJobsFor(const QString &clientKey);
    // Told once, in the client's next answer, oldest first; a client holds at most MaxNotices.
    void tell(const QString &clientKey, const SessionNotice &notice);
    // Told once to every client but the one who did it (notice.by); the newest MaxNotices are
    // kept for clients that have not called since.
    void announce(SessionNotice notice);
    // The client's own notices and the announcements it was not told yet, oldest first.
    QList<SessionNotice> takeNoticesFor(const QString &clientKey);
    void forget(const QString &clientKey);

private:
    Transcript &m_transcript;
    QHash<QString, quint64> m_seenBy;               // client key -> last sequence it was told of
    QHash<QString, QList<SessionNotice>> m_notices; // client key -> what it has not been told yet
    QList<SessionNotice> m_announced;               // the newest announcements, oldest first
    QHash<QString, quint64> m_announcedTo;          // client key -> the last announcement it was told
};

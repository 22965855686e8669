#pragma once

#include "session/Job.h"
#include "Tool.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <functional>

class Session;

// The jobs whose tool call answered "running" before they ended (wait_seconds passed), kept
// so that the tool `job` can wait for them and answer in the starting tool's own format: the
// job, that tool's formatter, who started it. One per Session (JobHandles::of).
//
// A result is kept until it is fetched, and then at least KeptMs after its end and after its
// first fetch, so that a client that lost an answer may fetch it again. Results nobody
// fetches are kept too, at most MaxUnfetched of them (the oldest ended one goes first).
class JobHandles : public QObject
{
    Q_OBJECT
public:
    using Formatter = std::function<ToolResult(const Job &job)>;
    static constexpr qint64 KeptMs = 10 * 60 * 1000;
    static constexpr int MaxUnfetched = 200;

    struct Handle
    {
        JobPtr job;
        QString tool;        // the tool whose call started it ("run-tests")
        Formatter formatter; // that tool's: the final answer in its own format
        QDateTime fetchedAt; // the first time its final result was given out; invalid until then
    };
    enum class Found { Known, Expired, Unknown };

    // The session's handles, made on first use (a child of the session).
    static JobHandles *of(Session *session);

    // Remembers a job whose call is answered before its end.
    void handOut(const JobPtr &job, const QString &tool, Formatter formatter);
    // The handle of job `id` (null unless Known). Expired: it was handed out, and its result
    // was dropped after it had been fetched.
    const Handle *find(quint64 id, Found *found);
    // The final result was given out: it stays fetchable for KeptMs more.
    void noteFetched(quint64 id);

    // For tests: the time, instead of the clock's.
    void setClockForTest(std::function<QDateTime()> now) { m_now = std::move(now); }

private:
    explicit JobHandles(Session *session);
    void expire();

    QHash<quint64, Handle> m_handles;
    QHash<quint64, QDateTime> m_expired; // ids whose results were dropped, and when
    std::function<QDateTime()> m_now = [] { return QDateTime::currentDateTimeUtc(); };
};

#pragma once

#include "session/Job.h"
#include "toolapi/Tool.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QQueue>
#include <functional>

class Session;

// The jobs the tools started that may be answered later, each with the formatter of the tool
// that started it, so that a later answer reads as that tool's own:
// - jobs with debugging on (`track`): an invoke-restart formats the outcome of the job it
//   continues as evaluate-lisp, time-execution or run-tests would (formatterOf);
// - jobs whose call answered "running" before they ended (`handOut`: wait_seconds passed),
//   for the tool `job` to wait for and answer (find).
// AppServices makes one per session and hands it to the tools that start jobs.
//
// A handed-out result is kept until it is fetched, and then at least KeptMs after its end and
// after its first fetch, so that a client that lost an answer may fetch it again. Results
// nobody fetches are kept too, at most MaxUnfetched of them (the oldest ended one goes first).
// Of the jobs only tracked, the newest MaxTracked are kept (a choice comes minutes later, not
// days).
class JobHandles : public QObject
{
    Q_OBJECT
public:
    using Formatter = std::function<ToolResult(const Job &job)>;
    static constexpr qint64 KeptMs = 10 * 60 * 1000;
    static constexpr int MaxUnfetched = 200;
    static constexpr int MaxTracked = 500;

    struct Handle
    {
        JobPtr job;
        QString tool;        // the tool whose call started it ("run-tests")
        Formatter formatter; // that tool's: the final answer in its own format
        bool handedOut = false; // its call answered "running": the tool job gives its result
        QDateTime fetchedAt; // the first time its final result was given out; invalid until then
    };
    enum class Found { Known, Expired, Unknown };

    explicit JobHandles(Session *session, QObject *parent = nullptr);

    // Remembers the formatter of a job with debugging on.
    void track(const JobPtr &job, const QString &tool, Formatter formatter);
    // Remembers a job whose call is answered before its end.
    void handOut(const JobPtr &job, const QString &tool, Formatter formatter);
    // The formatter of the tool that started job `id`; evaluate-lisp's for a job no tool
    // started (the person's).
    Formatter formatterOf(quint64 id) const;
    // The handle of handed-out job `id` (null unless Known). Expired: it was handed out, and
    // its result was dropped after it had been fetched.
    const Handle *find(quint64 id, Found *found);
    // The final result was given out: it stays fetchable for KeptMs more.
    void noteFetched(quint64 id);

    // For tests: the time, instead of the clock's.
    void setClockForTest(std::function<QDateTime()> now) { m_now = std::move(now); }

private:
    Handle &remember(const JobPtr &job, const QString &tool, Formatter formatter);
    void expire();

    Session *m_session;
    QHash<quint64, Handle> m_handles;
    QQueue<quint64> m_tracked;           // ids only tracked, oldest first
    QHash<quint64, QDateTime> m_expired; // ids whose results were dropped, and when
    std::function<QDateTime()> m_now = [] { return QDateTime::currentDateTimeUtc(); };
};

#pragma once

#include "session/Job.h"
#include "session/SessionNotice.h"

#include <QHash>
#include <QQueue>

class JsonTextWriter;

// "What happened in the shared session since your last call": the person's and other
// agents' evaluations, one line each, for the end of every tool result.
namespace ActivityDigest {

constexpr int MaxEntries = 20;
// The digest's first line: what tells it apart from the result it follows.
constexpr QLatin1StringView Heading("[Session activity since your last call]");

QString summaryOf(const Job &job);

// One job as the digest shows it: its line of text and its JSON object (none: nothing to
// tell, such as a new engine that found no init file), and when it happened.
struct Entry
{
    QString line;
    QByteArray json;
    QDateTime at;
};
Entry entry(const Job &job);

// The entries of ended jobs, made once: with several agents each job is told to every other
// one, and making an entry (times printed, code and result cut to one line) cost more than the
// rest of a busy session's answers. The newest ones are kept; a parked job, which may still
// change, is made afresh each time.
class EntryCache
{
public:
    Entry of(const JobPtr &job);

private:
    static constexpr int Kept = 256;
    QHash<quint64, Entry> m_entries; // by the job's sequence in the transcript
    QQueue<quint64> m_order;
};

// A notice (what somebody did to the client's work that is no job: an undo of its change).
Entry entry(const SessionNotice &notice);

// What one answer tells: the entries of the jobs and notices in the order they happened, the
// newest MaxEntries of them, and how many older ones were left out.
struct Told
{
    QList<Entry> entries;
    qsizetype left = 0;
    bool isEmpty() const { return entries.isEmpty(); }
};
// `answeredJob`: the job the answer itself reports on (0: none); a notice that ended it (a
// reset, a crash) is left out, as its answer says so.
Told gather(const QList<JobPtr> &activity, EntryCache *cache, const QList<SessionNotice> &notices, quint64 answeredJob = 0);
QString text(const Told &told); // the text block; empty when there is nothing to tell
// The entries as a JSON array (structuredContent's session_activity).
void writeJson(JsonTextWriter &out, const Told &told);
QJsonObject schema(); // the outputSchema property that writeJson() fills

} // namespace ActivityDigest

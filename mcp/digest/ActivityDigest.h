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

QString summaryOf(const Job &job);

// One job as the digest shows it: its line of text and its JSON object.
struct Entry
{
    QString line;
    QByteArray json;
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

// The jobs' entries, then the notices'.
QString text(const QList<JobPtr> &activity, EntryCache *cache = nullptr, const QList<SessionNotice> &notices = {});
// The entries as a JSON array (structuredContent's session_activity).
void writeJson(JsonTextWriter &out, const QList<JobPtr> &activity, EntryCache *cache = nullptr, const QList<SessionNotice> &notices = {});
QJsonObject schema(); // the outputSchema property that writeJson() fills

} // namespace ActivityDigest

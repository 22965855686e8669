#pragma once

#include "history/Journal.h"
#include "session/Job.h"

#include <QHash>
#include <QObject>
#include <QSet>

class Session;
class TranscriptEntries;

// Each job of the Session as an entry of the console's transcript, in its owner's lane, in the
// order things ran: when it starts, its header (an agent's or editor's name, the operation, the
// description, "Copy to input"; the debugger's step, the system it loads or tests, or its code
// after its package's prompt); its output as it streams (a test run's waits for its block);
// when it ends, its result (warnings, values, [ERROR] with a collapsible backtrace, a test run's
// block, a setup job's note). And the previous session's jobs from its journal, greyed.
class JobEntries : public QObject
{
    Q_OBJECT
public:
    static constexpr int MaxRememberedCode = 500; // for "Copy to input"

    JobEntries(Session *session, TranscriptEntries *entries, QObject *parent = nullptr);

    // "CL-USER" for COMMON-LISP-USER, "CL" for COMMON-LISP: the prompt's package.
    static QString shortPackageName(const QString &package);
    // The lane of a job whose header is shown and that has not finished; 0 otherwise.
    int laneOf(quint64 jobId) const;
    // The code behind an agent's "Copy to input" link; null once no longer kept.
    QString codeOf(quint64 jobId) const;
    // The previous session's journal (AppServices::pastEntries()), greyed under a
    // "— previous session, <date> —" separator, before anything of this session.
    void showPast(const QList<JournalEntry> &entries);

private:
    void showHeader(const JobPtr &job);
    void showOutput(quint64 id, const QString &stream, const QString &text);
    void showResult(const JobPtr &job, int lane);

    Session *m_session;
    TranscriptEntries *m_entries;
    QHash<quint64, int> m_shown;    // jobs whose header is in the transcript -> lane
    QHash<quint64, QString> m_code; // for "Copy to input"
    QList<quint64> m_codeOrder;
    QHash<quint64, QString> m_packageAtStart;
    QSet<quint64> m_testRuns; // their output is shown once, in the test-run block
};

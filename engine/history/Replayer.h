#pragma once

#include "Journal.h"

#include <QObject>
#include <QPointer>

class Session;

// Restores a session's definitions after the engine lost them (crash, kill, reset, a new
// start of the app): the successful top-level forms of a journal that define or set
// something are evaluated again, in their order, one at a time through the Session (origin
// "replay"). A form that fails is reported and skipped; the replay goes on.
class Replayer : public QObject
{
    Q_OBJECT
public:
    // One step of a replay: a top-level form (or a load-system request) as it will be sent.
    // An evaluation of one defining form (its package empty: the session's, after an
    // in-package of the same entry), or a system's load.
    using Step = EngineJob;

    struct Failure
    {
        QString form;
        QString error;
    };

    struct Summary
    {
        int total = 0;     // steps planned
        int replayed = 0;  // steps that succeeded
        QList<Failure> failed;
        int skipped = 0;   // top-level forms of successful evaluations that define nothing
        bool aborted = false;
        QString abortReason; // why the replay stopped before the end

        QString text() const;  // "Replayed 12 definitions (1 failed: ...)"
        QJsonObject toJson() const; // {replayed, failed:[{form, error}], skipped, total, aborted}
    };

    explicit Replayer(Session *session, QObject *parent = nullptr);

    // True when a form would change the session's global state if evaluated at top level:
    // its leading symbol (case-insensitive, package prefix stripped) is a defining operator,
    // in-package, setf/setq, require, load or a system loader.
    static bool isDefiningForm(const QString &form);
    // The steps for a journal, and how many forms were left out because they define nothing.
    // Entries recorded by a replay are left out: they repeat older entries of the same journal.
    static QList<Step> plan(const QList<JournalEntry> &entries, int *skipped = nullptr);

    bool isRunning() const { return m_running; }
    // Starts replaying; false (and nothing happens) when a replay is already running.
    bool start(const QList<JournalEntry> &entries);
    // Stops after the step in flight; finished() reports what was done.
    void cancel();

Q_SIGNALS:
    void progress(int done, int total, const QString &form);
    void finished(const Replayer::Summary &summary);

private:
    void runNext();
    void onJobFinished(JobPtr job);
    void finish();

    QPointer<Session> m_session;
    QList<Step> m_steps;
    int m_next = 0;
    quint64 m_waitingFor = 0;
    bool m_running = false;
    bool m_cancelled = false;
    Summary m_summary;
};

Q_DECLARE_METATYPE(Replayer::Summary)

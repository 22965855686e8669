#pragma once

#include "session/EngineStart.h"
#include "session/Job.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>
#include <QStringList>

class Session;

// The person's init files (issue 31): $XDG_CONFIG_HOME/lisp-duet/init.lisp, and ~/.eclrc when
// the person asks, loaded by every new engine (start, restart, reset) before any job, each
// as a job of the session (origin "init file": the window shows it, the journal keeps it, the
// ledger records what it defines). One that signals, runs past its time limit or quits
// (refused) leaves the session serving without it, and says why (problem(): the window, the
// agents' project-info). One that stopped the engine (a crash, or a loop that ignored the
// interrupt until the engine was killed) is skipped by the next engines until it changes:
// loading it again would only stop them too. Made by the composition root (AppServices) and
// given the Session, in whose engine-start list it comes before Swank (an init file may set up
// what the editor uses); it loads nothing until setFiles names the files.
class InitFile : public QObject, public EngineStartWork
{
    Q_OBJECT
public:
    static constexpr int DefaultTimeLimitMs = 30000;

    explicit InitFile(Session *session, QObject *parent = nullptr);

    // A new engine: a load-init job for each file that exists (and did not stop an engine
    // before), each heard when it ends.
    QList<EngineStartJob> engineStarted(const EngineProtocol::ReadyEvent &ready) override;

    // Where each file stands since the newest engine started.
    struct Status
    {
        enum class State {
            Missing,  // no such file: nothing to load
            Queued,   // waits for its turn in the new engine (first in the queue)
            Loaded,
            Failed,   // it signalled an error; `error` says which
            TimedOut, // it ran past the time limit and was interrupted
            Stopped,  // the engine stopped while it loaded (killed at the time limit, crashed)
            Skipped   // it stopped an engine before and has not changed since
        };
        QString file;
        State state = State::Missing;
        QString error;    // "UNDEFINED-FUNCTION: The function FOO is undefined." and the like
        QDateTime at;     // when it reached this state
        quint64 job = 0;  // the job that loaded it
        QString stateName() const; // "missing", "queued", "loaded", "failed", "timed-out", "stopped", "skipped"
    };

    // The files to load, in order (absolute paths); none: the init files are off.
    void setFiles(const QStringList &files);
    QStringList files() const { return m_files; }
    void setTimeLimitMs(int ms) { m_timeLimitMs = ms; }
    int timeLimitMs() const { return m_timeLimitMs; }

    QList<Status> statuses() const;
    // A sentence for each file that did not load although it exists (empty when all is well):
    // "Your init file ~/.config/lisp-duet/init.lisp failed: ... The session runs without it.",
    // for the person; "The person's init file ..." for an agent.
    enum class Reader { Person, Agent };
    QString problem(Reader reader = Reader::Person) const;

    // $XDG_CONFIG_HOME/lisp-duet/init.lisp (~/.config/lisp-duet/init.lisp).
    static QString defaultPath();
    // ~/.eclrc, which ECL itself loads at its start (people keep Quicklisp's setup there).
    static QString eclrcPath();
    // The path with the home folder as "~".
    static QString shortPath(const QString &path);

Q_SIGNALS:
    // A status changed: a new engine queued the files, or one of them ended.
    void changed();

private:
    void onLoaded(const JobPtr &job);

    QStringList m_files;
    int m_timeLimitMs = DefaultTimeLimitMs;
    QHash<QString, Status> m_status;       // by file
    QHash<QString, QDateTime> m_stoppedAt; // file -> its modification time when it stopped an engine
};

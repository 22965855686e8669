#pragma once

#include "FileChange.h"
#include "ProjectRoot.h"
#include "TextFile.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QQueue>
#include <QSet>
#include <functional>
#include <optional>

// The one place that changes the project's files. Every change is computed from the file as it
// is when the change's turn comes (changes to one file wait for each other, first come first
// served: two agents editing a file at once never interleave), passes the change gate (the
// person's approval in Ask mode), and is written atomically only if the file still has the
// bytes the change was computed from. A client that read a file and finds it changed on disk
// (the person's editor saved it meanwhile) is refused instead of overwriting what it did not see.
class ProjectFiles : public QObject
{
    Q_OBJECT
public:
    explicit ProjectFiles(QObject *parent = nullptr);

    ProjectRoot &root() { return m_root; }
    const ProjectRoot &root() const { return m_root; }
    // Sets the project root (see ProjectRoot::setPath); rootChanged() tells the session.
    bool setRoot(const QString &directory, const Origin &by, QString *error = nullptr);

    // Decides whether a proposed change is written: call `decide` with an empty refusal to write
    // it, or with the sentence the agent should read. Without a gate every change is written.
    using ChangeGate = std::function<void(const FileChange &proposed, std::function<void(const QString &refusal)> decide)>;
    void setChangeGate(ChangeGate gate) { m_gate = std::move(gate); }

    // Computes a change from the file's current contents (`exists` false for a file that does not
    // exist yet); returns the change, or nullopt with a sentence in *error. Runs when the change's
    // turn comes, so it always sees what the previous change wrote.
    using Maker = std::function<std::optional<FileChange>(const TextFileContents &current, bool exists, QString *error)>;
    using Done = std::function<void(const FileChange &applied, const QString &error)>;
    // clientKey: who proposes (Origin::clientKey); their last read of the file must still match.
    // proposedBy: the request that proposes it, carried by the change (FileChange::proposedBy).
    void propose(const QString &absolutePath, const Origin &origin, Maker make, Done done, QObject *proposedBy = nullptr);

    // Takes back an agent's change, by its id (FileChange::id), as `by` (the person). Only the
    // newest change to its file can be undone, and only while the file still has the text that
    // change wrote; anything else is refused with the whole sentence a person reads ("Could not
    // undo claude's change to src/a.lisp: you already undid it."). Not gated: the person asks.
    void undo(quint64 changeId, const Origin &by, Done done);
    // The newest change to this file, if it is an agent's change that undo() would take.
    void undoLast(const QString &absolutePath, const Origin &by, Done done);
    bool canUndo(const QString &absolutePath) const;

    // What a client last read of a file (the digest of the bytes it saw). seenBy also counts
    // the client's own changes (it knows what it wrote); readBy only its reads, for requests
    // that name places in the file as it read them (line numbers move with its own edits).
    void noteSeen(const QString &clientKey, const QString &absolutePath, const QByteArray &digest);
    QByteArray seenBy(const QString &clientKey, const QString &absolutePath) const;
    QByteArray readBy(const QString &clientKey, const QString &absolutePath) const;

    // The changes applied this run, oldest first (the newest MaxHistory).
    const QList<FileChange> &history() const { return m_history; }
    static constexpr int MaxHistory = 200;

Q_SIGNALS:
    void rootChanged(const QString &root, const Origin &by);
    void changeApplied(const FileChange &change);
    // A change that was computed and then not made: the change gate refused it, or the file
    // changed on disk while it waited. The window shows an agent's.
    void changeRefused(const FileChange &proposed, const QString &reason);

private:
    struct Pending
    {
        Origin origin;
        Maker make;
        Done done;
        bool ungated = false;
        QPointer<QObject> proposedBy;
    };
    void enqueue(QString absolutePath, Pending pending);
    void runNext(QString absolutePath);
    void finish(const QString &absolutePath, const FileChange &change, const QString &error, const Done &done);
    bool write(FileChange &change, QString *error);
    const FileChange *change(quint64 id) const;
    const FileChange *newestChange(const QString &absolutePath) const;

    ProjectRoot m_root;
    ChangeGate m_gate;
    QHash<QString, QQueue<Pending>> m_queues; // per file: the change in progress first
    // Files whose head change is being made (maybe waiting at the gate): a runNext scheduled by
    // the previous change's finish must not start that change a second time.
    QSet<QString> m_inProgress;
    QHash<QString, QHash<QString, QByteArray>> m_seen; // client key -> path -> digest
    QHash<QString, QHash<QString, QByteArray>> m_read; // the same, reads only
    QList<FileChange> m_history;
    quint64 m_nextId = 1;
};

#pragma once

#include "DefinitionVersion.h"
#include "session/Job.h"
#include "project/UnifiedDiff.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QQueue>

#include <functional>

class Session;

// Who defined and redefined what in the shared session (issue 21): every definition's versions
// with who made each (the person, an agent, a file load, an edited form, a staged form, a revert),
// when, its text, and what it replaced; and the evaluation that puts an earlier version back.
//
// It lives on the host, not in the engine: it knows who asked for each job, survives engine
// restarts (a restart empties the image, not the history; a revert can put a version back
// into a fresh engine) and is journaled (Journal::attach). The engine supplies what only the
// image knows, in each job's reply (EngineProtocol::LedgerFacts): the names each top-level
// defining form defined, resolved as the reader interned them, where the definition it
// replaced was loaded from, and which source files a job loaded (LOAD, ASDF). Files are read
// here (LispFile: each defining form with its text and line) and their names resolved by one
// engine question (resolve-names) per job. Jobs are recorded in the order they finished.
class DefinitionLedger : public QObject
{
    Q_OBJECT
public:
    explicit DefinitionLedger(Session *session, QObject *parent = nullptr);

    struct History
    {
        DefinitionKey key;
        QList<DefinitionVersion> versions; // oldest first; the newest MaxVersions
        bool live = false; // the newest version is in the image (no engine restart since)
        const DefinitionVersion &latest() const { return versions.last(); }
        const DefinitionVersion *version(int number) const;
    };
    static constexpr int MaxVersions = 100;

    // Every definition with a history, in the order first seen.
    QList<DefinitionKey> keys() const;
    const History *history(const DefinitionKey &key) const;
    int versionCount() const { return m_versionCount; }
    // The histories a person or agent names: "area", "shapes:area", "area :around (circle)",
    // with a kind or not ("method", "function", "macro", "variable", "class", ...): a name
    // without a package matches in every package. An unreadable name gives *error.
    QList<const History *> find(const QString &name, const QString &kind = QString(), QString *error = nullptr) const;

    // The evaluation that puts version `number` back, as `by`'s job: its recorded text in the
    // package it was read in, or, for a version loaded from a file, that form as the file has
    // it now. An error sentence when there is no such version or the file no longer has it.
    // The request's purpose is a revert of `number` (JobPurpose::Revert, restoresVersion):
    // what it defines is recorded as restoring that version.
    struct RevertPlan
    {
        JobRequest request;
        QString summary; // what will be evaluated, for the person and the agent
        QString error;
        bool ok() const { return error.isEmpty(); }
    };
    RevertPlan planRevert(const DefinitionKey &key, int number, const Origin &by) const;

    // Definitions loaded from a file are recorded when it is the person's own code: under the
    // project root, or outside the folders ASDF finds libraries in (ProjectRoot::systemSourceFolders,
    // as they were when the ledger was made).
    bool isRecordedFile(const QString &path) const;
    // Jobs finished but not recorded yet (a file's names are being resolved).
    bool isBusy() const { return !m_pending.isEmpty(); }
    // Calls `then` once every job finished so far is recorded: now, or when the engine has
    // answered about the names of the files a job loaded. A question about the history asked
    // right after load-system answered must see what it loaded.
    void whenSettled(std::function<void()> then);

    // "--- version 1 / +++ version 2" and the changed lines; empty when the texts are equal.
    static FileDiff changes(const DefinitionVersion &before, const DefinitionVersion &after);
    static QString diff(const DefinitionVersion &before, const DefinitionVersion &after);

Q_SIGNALS:
    void recorded(const DefinitionVersion &version);
    // The histories or their liveness changed (a version recorded, the engine restarted).
    void changed();

private:
    struct FileForm
    {
        DefinitionVersion version;
        QString writtenPackage; // the package the name is read in
        QString condition;      // "#+ecl", or empty
    };
    void onFinished(const JobPtr &job);
    void processPending();
    // Returns false when it waits for the engine's answer about the files' names.
    bool recordFiles(const JobPtr &job);
    void recordFileForms(const JobPtr &job, QList<FileForm> forms, const QJsonObject &reply);
    void recordEvaluated(const Job &job);
    DefinitionVersion versionFrom(const Job &job) const;
    // Adds `version` to its history unless it repeats the newest one's text; true if added.
    bool add(DefinitionVersion version);
    QList<FileForm> formsOfFile(const QString &path, const Job &job) const;
    static QString sourceAt(const QString &file, int line, const DefinitionKey &key, QString *readPackage);

    Session *m_session;
    QStringList m_libraryFolders; // read once: ProjectRoot::systemSourceFolders() looks at the disk
    QHash<QString, History> m_histories; // by DefinitionKey::id()
    QList<DefinitionKey> m_order;
    QQueue<JobPtr> m_pending;
    bool m_waiting = false;
    QList<std::function<void()>> m_whenSettled;
    int m_versionCount = 0;
};

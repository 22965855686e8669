#pragma once

#include "DefinitionVersion.h"
#include "project/FileChange.h"
#include "session/Job.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QLoggingCategory>
#include <QObject>

Q_DECLARE_LOGGING_CATEGORY(lcJournal)

class DefinitionLedger;
class ProjectFiles;
class Session;

// One record of a journal: a finished evaluation, a change to a project file, a version of a
// definition the ledger recorded, or something that happened to the session (the app started
// or closed, the engine started or was restarted, somebody reset the session).
struct JournalEntry
{
    enum class Kind { Job, Event, FileChange, Definition };

    Kind kind = Kind::Job;
    bool past = false; // read from a journal file, not recorded by this run of the app

    // Kind::Job. request.package is the package the code ran in (the session's package
    // at the time when the request named none), so a replay can run it in the same place.
    Job job;
    qint64 stdoutCut = 0; // characters of output the journal left out (see Journal::OutputCap)
    qint64 stderrCut = 0;

    // Kind::FileChange: who changed which file, why, the digests before and after and the diff
    // (the texts themselves are not kept; the diff is cut at DiffCap characters).
    ::FileChange file;

    // Kind::Definition: who defined which name, how and when, its version number and text (cut
    // at DefinitionVersion::SourceCap), the file and line it was loaded from.
    DefinitionVersion definition;

    // Kind::Event: "app-started", "app-closed", "engine-started", "engine-restarted",
    // "engine-failed", "session-reset".
    QString event;
    QString message;
    Origin by; // who caused it (session-reset); empty name when nobody in particular
    QDateTime at;

    bool isJob() const { return kind == Kind::Job; }
    bool isFileChange() const { return kind == Kind::FileChange; }
    bool isDefinition() const { return kind == Kind::Definition; }
    // When it happened: the evaluation's end, the change, the definition, or the event's time.
    QDateTime time() const
    {
        return isJob() ? job.finishedAt : isFileChange() ? file.at : isDefinition() ? definition.at : at;
    }

    QJsonObject toJson() const;
    // False (and an invalid entry) for an object that is not a journal record.
    static bool fromJson(const QJsonObject &json, JournalEntry *entry);
    static JournalEntry fromJob(const Job &job, const QString &packageInEffect = {});
    static JournalEntry makeEvent(const QString &event, const QString &message, const Origin &by = {});
    static JournalEntry fromFileChange(const ::FileChange &change);
    static JournalEntry fromDefinition(const DefinitionVersion &version);
    static constexpr int DiffCap = 64 * 1024;
};

// What reading a journal file found.
struct JournalContents
{
    QList<JournalEntry> entries;
    QString error;       // the file could not be read at all
    int badLines = 0;    // lines in the middle that were not records (skipped)
    bool tornTail = false; // the last line was cut short (the app died while writing it)
    bool ok() const { return error.isEmpty(); }
};

// The session's journal: every finished evaluation and every session event, appended as one
// JSON line to a file as it happens, so that work survives the app being killed. Each record
// goes to the kernel with one write(2) before the next event is handled: a SIGKILLed app
// loses at most the evaluation in flight. (fdatasync per record is optional: it also survives
// a power cut, at a cost measured in tests/bench.)
class Journal : public QObject
{
    Q_OBJECT
public:
    // Output kept per stream and record; the rest is counted in stdout_cut / stderr_cut.
    static constexpr int OutputCap = 64 * 1024;

    explicit Journal(QObject *parent = nullptr);
    ~Journal() override;

    // <AppDataLocation>/journals, where one file per session lives.
    static QString directory();
    // A new file name in directory() for a session starting now (not created yet).
    static QString newPath();
    // The newest journal in directory() that holds at least one evaluation, other than
    // `exclude`; empty when there is none.
    static QString latest(const QString &exclude = QString());
    static JournalContents read(const QString &path);
    // Keeps the newest `keep` journals of directory() (by their time-stamped names) and removes
    // the older ones, except the files in `protect` (this run's journal, the previous session
    // shown in the window). Returns how many were removed.
    static int prune(int keep, const QStringList &protect = {});
    static constexpr int DefaultJournalsKept = 50;

    // Opens (creating with mode 0600, directories 0700) for appending. An existing file whose
    // last line was torn gets a newline first, so new records start on a line of their own.
    bool open(const QString &path, QString *error = nullptr);
    void close();
    bool isOpen() const { return m_fd >= 0; }
    QString path() const { return m_path; }
    void setSyncEachRecord(bool sync) { m_sync = sync; }

    // Records the session's evaluations and events from now on.
    void attach(Session *session);
    // Records every change written to the project's files from now on.
    void attach(ProjectFiles *files);
    // Records every version of a definition the ledger records from now on.
    void attach(DefinitionLedger *ledger);

    bool append(const JournalEntry &entry);
    bool recordEvent(const QString &event, const QString &message, const Origin &by = {});
    int recordsWritten() const { return m_records; }
    QString lastError() const { return m_lastError; }

private:
    bool writeAll(const QByteArray &bytes);

    int m_fd = -1;
    QString m_path;
    bool m_sync = false;
    int m_records = 0;
    QString m_lastError;
    QHash<quint64, QString> m_packageAtStart; // evaluation id -> package it runs in
};

Q_DECLARE_METATYPE(JournalEntry)

#pragma once

#include "access/AccessMode.h"
#include "AppOptions.h"
#include "history/Journal.h"

#include <QObject>

#include <optional>

class AccessGate;
struct Preferences;
class ClientRoots;
class DefinitionLedger;
class EditorBridge;
class EngineClient;
class FormStaging;
class InitFile;
class JobHandles;
class LibraryCompilation;
class NativeCompilation;
class ProjectWarmUp;
class ProjectFiles;
class Replayer;
class Session;
class ToolRegistry;
class McpPeer;
class McpServer;

// The objects every mode of the app shares, built and wired once: the engine, the session,
// the tools, the MCP server, the project's files and agent access. Transports and the window
// attach to them.
class AppServices : public QObject
{
    Q_OBJECT
public:
    explicit AppServices(const AppOptions &options = {}, QObject *parent = nullptr);
    ~AppServices() override;

    EngineClient *engine() const { return m_engine; }
    Session *session() const { return m_session; }
    // Native code for the session's definitions (issue 30): on or off, and what became of each
    // definition the background compiler was given.
    NativeCompilation *native() const { return m_native; }
    // Libraries at once (issue 39): what each library the session loaded runs as (bytecode at
    // once, native in the background), and the warm-up that compiles a project's ahead.
    LibraryCompilation *libraries() const { return m_libraries; }
    // The first time a project is open on this machine, its libraries are compiled ahead
    // (Preferences::libraryWarmUp; WindowSetup applies it again when it changes).
    void setLibraryWarmUp(bool on);
    // The person's own setup (issue 31): their init files, loaded by every new engine before
    // any job, and Swank for their editor (SLIME and the other Swank clients), whose requests
    // are jobs of the session. Both do nothing until applyEditorAndInitFile configures them.
    InitFile *initFile() const { return m_initFile; }
    EditorBridge *editors() const { return m_editors; }
    ToolRegistry *tools() const { return m_tools; }
    McpServer *server() const { return m_server; }
    // The person's project (issue 11): its root and the one way its files change. A client
    // that declares MCP roots sets the root to its first one while the root is not set, or
    // was set from that same client's roots (the person's or another client's choice stays).
    ProjectFiles *projectFiles() const { return m_projectFiles; }
    ClientRoots *clientRoots() const { return m_clientRoots; }
    // Agent access (issue 19): the call gate and the change gate of every mode, in the mode the
    // settings say (agents/accessMode), or the one --access gave. The window observes it and
    // sets its mode; without a window the person is asked through the agent's client.
    AccessGate *access() const { return m_access; }
    // Who defined and redefined what (issue 21): every mode keeps it, the journal records it.
    DefinitionLedger *ledger() const { return m_ledger; }
    // Where stage-form finds the person: the window sets its stager; headless there is none.
    FormStaging *formStaging() const { return m_formStaging; }

    // The jobs the tools started that are answered later (a parked evaluation's outcome, a job
    // that outlasted its call), with their tools' formatters.
    JobHandles *jobHandles() const { return m_jobHandles; }
    // The journal (issue 6). On unless the options say, in a new file of Journal::directory()
    // or the options' file; the previous run's journal is loaded as the past transcript.
    // How many journals the journals directory keeps; older ones are removed at start().
    void setJournalsKept(int count) { m_journalsKept = count; }
    Journal *journal() const { return m_journal; }
    // Entries of the previous journal (past == true), oldest first, read when AppServices is
    // made: for the window to show, greyed, after a "previous session, <date>" separator.
    const QList<JournalEntry> &pastEntries() const { return m_pastEntries; }
    QString pastJournalPath() const { return m_pastJournalPath; }
    // Re-evaluates the journal's definitions ("Replay definitions"): progress and finished
    // signals on replayer(). source: "journal" (this run's file) or "previous".
    Replayer *replayer() const { return m_replayer; }
    bool replayDefinitions(const QString &source = QStringLiteral("journal"), QString *error = nullptr);
    QList<JournalEntry> journalEntries(const QString &source, QString *error) const;

    void start();
    // Offers the optional tool groups the preferences keep on (Preferences::projectTools...).
    void applyToolGroups(const Preferences &preferences);
    // The person's own setup (issue 31) from the settings, where the command line does not
    // decide: Swank for their editor (--swank beats the setting) and the init files to load
    // (--no-init: none). Takes effect in the running engine for Swank, at the next engine
    // start for the init files.
    void applyEditorAndInitFile(const Preferences &preferences);

    // Issue 30: native code for the session's definitions, as the setting says (WindowSetup
    // applies it again when it changes); --no-native keeps it off for this run whatever it says.
    void setNativeCompilation(bool wanted);

Q_SIGNALS:
    // The journal cannot be written (start()): the session runs without one, and the window
    // says so.
    void journalError(const QString &message);

private:
    void loadPastJournal();
    void openJournal();
    void followClientRoots(McpPeer *peer, const QStringList &paths);

    EngineClient *m_engine;
    Session *m_session;
    NativeCompilation *m_native;
    LibraryCompilation *m_libraries;
    ProjectWarmUp *m_warmUp = nullptr;
    InitFile *m_initFile;
    EditorBridge *m_editors;
    JobHandles *m_jobHandles;
    ToolRegistry *m_tools;
    McpServer *m_server;
    ProjectFiles *m_projectFiles;
    ClientRoots *m_clientRoots;
    AccessGate *m_access;
    DefinitionLedger *m_ledger;
    FormStaging *m_formStaging;
    QString m_rootFromRootsOf; // the activity key of the client whose roots set the root, if they did
    Journal *m_journal;
    Replayer *m_replayer;
    bool m_journalEnabled;
    bool m_noNative;
    std::optional<int> m_swankPort; // --swank PORT
    bool m_noInit;                  // --no-init
    QString m_journalFile;
    int m_journalsKept;
    QString m_journalPath;
    QString m_pastJournalPath;
    QList<JournalEntry> m_pastEntries;
};

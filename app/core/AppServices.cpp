#include "AppServices.h"

#include "access/AccessGate.h"
#include "client/EngineClient.h"
#include "features/ClientRoots.h"
#include "features/CompletionProvider.h"
#include "features/LibraryNotices.h"
#include "features/PromptProvider.h"
#include "features/ResourceProvider.h"
#include "history/DefinitionLedger.h"
#include "history/Replayer.h"
#include "Preferences.h"
#include "editor/EditorBridge.h"
#include "initfile/InitFile.h"
#include "native/LibraryCompilation.h"
#include "native/NativeCompilation.h"
#include "project/ProjectFiles.h"
#include "ProjectWarmUp.h"
#include "server/McpServer.h"
#include "session/Session.h"
#include "toolapi/ToolRegistry.h"
#include "tools/FormStager.h"
#include "tools/JobHandles.h"
#include "tools/ToolSet.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcServices, "duet.services")

AppServices::AppServices(const AppOptions &options, QObject *parent)
    : QObject(parent),
      m_engine(new EngineClient(this)),
      m_session(new Session(m_engine, this)),
      m_native(new NativeCompilation(m_engine, m_session, this)),
      m_libraries(new LibraryCompilation(m_engine, m_session, m_native, this)),
      m_initFile(new InitFile(m_session, this)),
      m_editors(new EditorBridge(m_session, m_engine, this)),
      m_jobHandles(new JobHandles(m_session, this)),
      m_tools(new ToolRegistry(this)),
      m_server(new McpServer(m_session, m_tools, this)),
      m_projectFiles(new ProjectFiles(this)),
      m_clientRoots(new ClientRoots(m_server, this)),
      m_access(new AccessGate(this)),
      m_ledger(new DefinitionLedger(m_session, this)),
      m_formStaging(new FormStaging(this)),
      m_journal(new Journal(this)),
      m_replayer(new Replayer(m_session, this)),
      m_journalEnabled(options.journalEnabled),
      m_noNative(options.noNative),
      m_swankPort(options.swankPort),
      m_noInit(options.noInit),
      m_journalFile(options.journalFile),
      m_journalsKept(Preferences::load().journalsKept)
{
    const Preferences preferences = Preferences::load();
    // What every new engine does before the session serves anybody, in this order: native
    // compilation's word on it (off, for an engine launched before the setting changed, goes
    // out before any job), the person's init files, then Swank (an init file may set up what
    // the editor uses).
    m_session->setEngineStart({m_native, m_initFile, m_editors});
    // Before any transport exists: no call is ever served outside the mode the person chose.
    m_access->install(m_server);
    m_access->install(m_projectFiles);
    m_access->setMode(options.access.value_or(preferences.accessMode));
    // Without a window nobody evaluates as the person: only the agents' setting matters here
    // (WindowSetup applies all of them to a window's session).
    m_session->debugger()->setDebugDefaults(false, preferences.agentErrorsDebug);
    m_session->debugger()->setAbandonAfterMs(preferences.debuggerAbandonMinutes * 60 * 1000);
    setNativeCompilation(preferences.nativeCompilation); // before the engine starts: its arguments
    applyEditorAndInitFile(preferences);
    addAllTools(m_tools, m_session, m_jobHandles, m_projectFiles, m_ledger, m_formStaging, m_replayer,
                [this](const QString &source, QString *error) { return journalEntries(source, error); }, {m_native, m_editors, m_initFile, m_libraries});
    applyToolGroups(preferences);
    // Agents may read the sources of the systems the session can load, never write them.
    m_projectFiles->root().setReadOnlyRoots(ProjectRoot::systemSourceFolders());
    new ResourceProvider(m_server, m_session, this);
    // Clients that asked for logging hear when the engine restarts or fails (notifications/message).
    connect(m_session, &Session::engineStatus, m_server, [server = m_server](Session::EngineStatus state, const QString &message) {
        const QString level = state == Session::EngineStatus::Failed ? QStringLiteral("error")
            : state == Session::EngineStatus::Restarting             ? QStringLiteral("warning")
                                                                     : QStringLiteral("info");
        server->log(level, QStringLiteral("engine"), message.isEmpty() ? Session::engineStatusName(state) : message);
    });
    // ...and once when native code is off or unavailable (no gcc), as the window says it.
    connect(m_native, &NativeCompilation::notice, m_server, [server = m_server, native = m_native](const QString &sentence) {
        server->log(native->status().available ? QStringLiteral("info") : QStringLiteral("warning"), QStringLiteral("engine"), sentence);
    });
    // ...and when a library's background compile ends: native now, partly, or why not.
    LibraryNotices::follow(m_libraries, m_server);
    new PromptProvider(m_server, this);
    new CompletionProvider(m_server, m_session, this);
    connect(m_clientRoots, &ClientRoots::rootsChanged, this, &AppServices::followClientRoots);
    connect(m_projectFiles, &ProjectFiles::rootChanged, this, [this](const QString &root, const Origin &by) {
        if (by.clientKey != m_rootFromRootsOf)
            m_rootFromRootsOf.clear(); // someone else chose the root: client roots no longer move it
        m_session->setProjectRoot(root); // the engine's default directory and ASDF follow it
    });
    if (m_projectFiles->root().isSet())
        m_session->setProjectRoot(m_projectFiles->root().path());
    m_warmUp = new ProjectWarmUp(m_libraries, m_projectFiles, this);
    setLibraryWarmUp(preferences.libraryWarmUp);
    // The person's undo of an agent's change is news for that agent: its next answer says so,
    // so it no longer believes the file holds what it wrote.
    connect(m_projectFiles, &ProjectFiles::changeApplied, this, [this](const FileChange &change) {
        if (change.kind != FileChange::Kind::Undo)
            return;
        for (const FileChange &undone : m_projectFiles->history()) {
            if (undone.id != change.undoes || !undone.origin.isAgent() || undone.origin.clientKey == change.origin.clientKey)
                continue;
            const QString tool = undone.tool.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(undone.tool);
            m_session->tell(undone.origin.clientKey,
                            {change.origin, QStringLiteral("undo"), change.path,
                             QStringLiteral("undid your change to %1%2 made at %3: the file is back to what it was before it. "
                                            "Read it again before you edit it.")
                                 .arg(change.path, tool, undone.at.toString(QStringLiteral("HH:mm:ss"))),
                             change.at.isValid() ? change.at : QDateTime::currentDateTime()});
        }
    });
    loadPastJournal();
}

void AppServices::setLibraryWarmUp(bool on)
{
    m_warmUp->setEnabled(on);
}

void AppServices::applyToolGroups(const Preferences &preferences)
{
    m_tools->setGroupEnabled(ToolRegistry::Group::Project, preferences.projectTools);
    m_tools->setGroupEnabled(ToolRegistry::Group::Debugger, preferences.debuggerTools);
    m_tools->setGroupEnabled(ToolRegistry::Group::Handoffs, preferences.handoffTools);
}

void AppServices::applyEditorAndInitFile(const Preferences &preferences)
{
    QStringList initFiles;
    if (!m_noInit) {
        // ~/.eclrc first, as ECL itself would load it (people set up Quicklisp there), then
        // Lisp Duet's own, which may use what it set up.
        if (preferences.eclrcEnabled)
            initFiles << InitFile::eclrcPath();
        if (preferences.initFileEnabled)
            initFiles << InitFile::defaultPath();
    }
    m_initFile->setFiles(initFiles);
    m_initFile->setTimeLimitMs(preferences.initTimeLimitSeconds * 1000);
    m_editors->setListening(m_swankPort ? m_swankPort
                                       : preferences.swankEnabled ? std::optional<int>(preferences.swankPort)
                                                                  : std::nullopt);
}

void AppServices::followClientRoots(McpPeer *peer, const QStringList &paths)
{
    const Origin origin = peer->origin();
    if (paths.isEmpty() || (m_projectFiles->root().isSet() && m_rootFromRootsOf != origin.clientKey))
        return;
    const QString previous = std::exchange(m_rootFromRootsOf, origin.clientKey); // rootChanged is ours
    QString error;
    if (!m_projectFiles->setRoot(paths.first(), origin, &error)) {
        m_rootFromRootsOf = previous;
        qCWarning(lcServices).noquote() << "the first root of" << origin.name << "cannot be the project root:" << error;
    }
}

AppServices::~AppServices()
{
    m_journal->recordEvent(QStringLiteral("app-closed"), QStringLiteral("Lisp Duet was closed."));
    m_engine->stop();
}

void AppServices::start()
{
    openJournal();
    m_engine->start();
}

void AppServices::setNativeCompilation(bool wanted)
{
    if (m_noNative)
        m_native->setEnabled(false, QStringLiteral("Native compilation is off for this run (--no-native): the session's "
                                                              "definitions run interpreted."));
    else
        m_native->setEnabled(wanted, QStringLiteral("Native compilation is off (File \u25b8 Settings\u2026): the session's "
                                                               "definitions run interpreted."));
}

void AppServices::loadPastJournal()
{
    if (!m_journalEnabled)
        return;
    if (m_journalFile.isEmpty()) {
        m_journalPath = Journal::newPath();
        m_pastJournalPath = Journal::latest(m_journalPath);
    } else {
        m_journalPath = m_journalFile;
        m_pastJournalPath = QFileInfo::exists(m_journalFile) ? QFileInfo(m_journalFile).absoluteFilePath() : QString();
    }
    if (m_pastJournalPath.isEmpty())
        return;
    const JournalContents past = Journal::read(m_pastJournalPath);
    m_pastEntries = past.entries;
    if (!past.ok())
        qCWarning(lcJournal).noquote() << past.error;
}

void AppServices::openJournal()
{
    if (!m_journalEnabled || m_journal->isOpen())
        return;
    QString error;
    if (!m_journal->open(m_journalPath, &error)) {
        // Work goes on without a journal; the person is told why nothing is kept.
        qCWarning(lcJournal).noquote() << error;
        Q_EMIT journalError(error);
        return;
    }
    m_journal->attach(m_session);
    m_journal->attach(m_projectFiles);
    m_journal->attach(m_ledger);
    // The data directory must not grow forever; this run's journal and the previous session
    // (shown in the window, replayable) always stay.
    Journal::prune(m_journalsKept, {m_journalPath, m_pastJournalPath});
    m_journal->recordEvent(QStringLiteral("app-started"),
                           QStringLiteral("Lisp Duet %1 started (process %2).").arg(QCoreApplication::applicationVersion()).arg(QCoreApplication::applicationPid()));
}

QList<JournalEntry> AppServices::journalEntries(const QString &source, QString *error) const
{
    const QString path = source == QStringLiteral("previous") ? m_pastJournalPath : m_journal->path();
    if (path.isEmpty()) {
        *error = source == QStringLiteral("previous") ? QStringLiteral("There is no journal of a previous session to replay.")
                                                      : QStringLiteral("Journaling is off, so there is nothing to replay.");
        return {};
    }
    const JournalContents contents = Journal::read(path);
    if (!contents.ok())
        *error = contents.error;
    return contents.entries;
}

bool AppServices::replayDefinitions(const QString &source, QString *error)
{
    QString problem;
    const QList<JournalEntry> entries = journalEntries(source, &problem);
    if (problem.isEmpty() && m_replayer->isRunning())
        problem = QStringLiteral("A replay is already running.");
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    return m_replayer->start(entries);
}

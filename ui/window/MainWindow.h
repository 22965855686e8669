#pragma once

#include "session/Job.h"
#include "session/Session.h"

#include <QMainWindow>
#include <QStringList>

class AccessGate;
class AgentDock;
class AgentPanel;
class DebuggerPanel;
class DefinitionLedger;
class DefinitionsModel;
class DefinitionsPanel;
class EditorBridge;
class EditorStatus;
class LibrariesPanel;
class LibraryCompilation;
class LispConsole;
class McpServer;
class NativeCompilation;
class ProjectFiles;
class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QSystemTrayIcon;
class RunTestsAction;

class ToolCallLog;
class ToolCallsPanel;

// The window: the console in the middle, the definitions and tool calls docks, the toolbar
// (interrupt, agent access, zoom, presentation), the status bar and the tray icon. It only
// assembles; each part does its own job. Agent access is the app's (AppServices): the window
// observes the gate (the approval bar decides what waits in Ask mode) and sets its mode.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(Session *session, McpServer *server, AccessGate *access, QWidget *parent = nullptr);
    ~MainWindow() override;

    LispConsole *console() const { return m_console; }
    AccessGate *access() const { return m_access; }
    ToolCallLog *toolCallLog() const { return m_toolCalls; }
    ToolCallsPanel *toolCallsPanel() const { return m_toolCallsPanel; }
    DefinitionsModel *definitions() const { return m_definitions; }
    DefinitionsPanel *definitionsPanel() const { return m_definitionsPanel; }
    // Who defined what (the app's ledger): the Definitions panel's provenance, history and Revert.
    void setDefinitionLedger(DefinitionLedger *ledger);
    // Native code for the session's definitions (issue 30): the Definitions panel's Runs, and
    // the transcript's note, once, that it is off or unavailable.
    void setNativeCompilation(NativeCompilation *native);
    // Libraries at once (issue 39): the Libraries dock (tabbed with Definitions), the running-job
    // bar's line while they compile, and Session ▸ Compile the project's libraries natively.
    void setLibraryCompilation(LibraryCompilation *libraries);
    LibrariesPanel *librariesPanel() const { return m_librariesPanel; }
    QDockWidget *librariesDock() const { return m_librariesDock; }
    QAction *warmUpLibrariesAction() const { return m_warmUpLibraries; }
    // Compiles the project's libraries ahead, as the person; false (and the status bar says
    // why) without a project with .asd files, or when libraries stay bytecode here.
    bool warmUpLibraries(QString *why = nullptr);
    // The person's own editor (issue 31): where Swank listens, in the status bar
    // (editorStatus()), and the editors connected, beside the agents.
    void setEditorBridge(EditorBridge *editors);
    QSystemTrayIcon *trayIcon() const { return m_tray; }
    // The shared debugger (issue 20): shown and raised when an evaluation parks.
    DebuggerPanel *debuggerPanel() const { return m_debuggerPanel; }
    QDockWidget *debuggerDock() const { return m_debuggerDock; }
    // A coding agent in the window (issue 38): the Agent panel, in a dock tabbed with the
    // Definitions; View ▸ Agent (Ctrl+Shift+A) shows it with the keyboard in its prompt box.
    AgentPanel *agentPanel() const;
    AgentDock *agentDock() const { return m_agentDock; }

    // The person's project: its changes show in the transcript with Undo, File ▸ Open project…
    // sets its root, and the title and the status bar name it.
    void setProjectFiles(ProjectFiles *files);
    ProjectFiles *projectFiles() const { return m_projectFiles; }
    // Sets the root as the person (what File ▸ Open project… does after its dialog); on
    // success projectOpened() tells the app to remember it. False with a sentence in *error.
    bool openProject(const QString &directory, QString *error = nullptr);
    QAction *openProjectAction() const { return m_openProject; }
    // Session ▸ Run project tests…, enabled while a project is open.
    RunTestsAction *runTestsAction() const { return m_runTests; }
    QString projectText() const;

    // What the status bar and the tray offer to copy: "http://127.0.0.1:PORT/mcp", a socket path.
    void setEndpoints(const QStringList &addresses, const QString &note = QString());
    QStringList endpoints() const { return m_endpoints; }
    // Closing the window keeps the app in the tray (when a tray exists).
    void setKeepInTray(bool keep);
    bool keepInTray() const { return m_keepInTray; }

    bool isPresenting() const;
    void setPresenting(bool on);
    QString engineStateText() const;
    QString clientsText() const;
    QAction *interruptAction() const { return m_interrupt; }
    QAction *accessAction(int mode) const;
    // Where the person's editor connects (Swank), in the status bar, and its comings and goings.
    EditorStatus *editorStatus() const { return m_editorStatus; }

Q_SIGNALS:
    void projectOpened(const QString &root);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildActions();
    void buildDocks();
    void buildStatusBar();
    void buildTray();
    void updateEngineState();
    void updateClients();
    void exportToolCalls();
    void zoomBy(double step);
    void chooseProject();
    void showProjectRoot(const QString &root);

    Session *m_session;
    EditorBridge *m_editors = nullptr;
    McpServer *m_server;
    AccessGate *m_access;
    LispConsole *m_console;
    ToolCallLog *m_toolCalls;
    ToolCallsPanel *m_toolCallsPanel = nullptr;
    DefinitionsModel *m_definitions;
    DefinitionsPanel *m_definitionsPanel = nullptr;
    QDockWidget *m_definitionsDock = nullptr;
    QDockWidget *m_toolCallsDock = nullptr;
    DebuggerPanel *m_debuggerPanel = nullptr;
    QDockWidget *m_debuggerDock = nullptr;
    AgentDock *m_agentDock = nullptr;
    QMenu *m_viewMenu = nullptr;
    LibraryCompilation *m_libraries = nullptr;
    LibrariesPanel *m_librariesPanel = nullptr;
    QDockWidget *m_librariesDock = nullptr;
    QAction *m_warmUpLibraries = nullptr;
    bool m_librariesVisibleBefore = true;
    QAction *m_interrupt = nullptr;
    QAction *m_openProject = nullptr;
    RunTestsAction *m_runTests = nullptr;
    ProjectFiles *m_projectFiles = nullptr;
    QLabel *m_projectLabel = nullptr;
    QAction *m_presentation = nullptr;
    QAction *m_copyEndpoint = nullptr;
    QActionGroup *m_accessGroup = nullptr;
    QLabel *m_engineLabel = nullptr;
    QLabel *m_endpointLabel = nullptr;
    QLabel *m_clientsLabel = nullptr;
    QSystemTrayIcon *m_tray = nullptr;
    EditorStatus *m_editorStatus = nullptr;
    QStringList m_endpoints;
    Session::EngineStatus m_engineState = Session::EngineStatus::Starting;
    bool m_keepInTray = false;
    int m_sideWidthBeforeDebugger = 0; // the right docks' width before something parked
    bool m_docksVisibleBefore[4] = {true, true, true, true};
};

#include "MainWindow.h"

#include "AgentDock.h"
#include "agent/AgentPanel.h"
#include "console/LispConsole.h"
#include "debugger/DebuggerPanel.h"
#include "debugger/DebuggerTranscript.h"
#include "definitions/DefinitionsModel.h"
#include "definitions/DefinitionsPanel.h"
#include "EditorStatus.h"
#include "libraries/LibrariesPanel.h"
#include "libraries/LibraryProgress.h"
#include "RunTestsAction.h"
#include "toolcalls/ToolCallLog.h"
#include "toolcalls/ToolCallsPanel.h"

#include "access/AccessGate.h"
#include "project/ProjectFiles.h"
#include "editor/EditorBridge.h"
#include "native/LibraryCompilation.h"
#include "native/NativeCompilation.h"
#include "server/ClientPresence.h"
#include "server/McpPeer.h"
#include "server/McpServer.h"
#include "session/Session.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QSettings>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QToolBar>

MainWindow::MainWindow(Session *session, McpServer *server, AccessGate *access, QWidget *parent)
    : QMainWindow(parent), m_session(session), m_server(server), m_access(access),
      m_console(new LispConsole(session, this)), m_toolCalls(new ToolCallLog(this)), m_definitions(new DefinitionsModel(this))
{
    setWindowTitle(tr("Lisp Duet"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/lisp-duet.svg")));
    setObjectName(QStringLiteral("mainWindow"));
    m_access->setAsking(AccessGate::Asking::InTheWindow); // the person decides in the approval bar
    m_toolCalls->attach(server);
    m_definitions->attach(session);
    m_console->setAccessGate(m_access);
    setCentralWidget(m_console);

    buildActions();
    buildDocks();
    buildStatusBar();
    buildTray();
    resize(1280, 800);

    connect(session, &Session::engineStatus, this, [this](Session::EngineStatus state) {
        m_engineState = state;
        updateEngineState();
    });
    connect(session, &Session::started, this, &MainWindow::updateEngineState);
    connect(session, &Session::finished, this, &MainWindow::updateEngineState);
    connect(session->debugger(), &SessionDebugger::parked, this, [this] {
        statusBar()->clearMessage(); // "claude-code is evaluating" no longer holds
        updateEngineState();
    });
    connect(session->debugger(), &SessionDebugger::resumed, this, &MainWindow::updateEngineState);
    connect(server, &McpServer::peerCreated, this, &MainWindow::updateClients);
    // Clients that came, left (closed, or gone without a word) or came back.
    connect(server->presence(), &ClientPresence::changed, this, &MainWindow::updateClients);
    // The engine may have started before the window was made.
    m_engineState = session->isEngineReady() ? Session::EngineStatus::Ready : Session::EngineStatus::Starting;
    updateEngineState();
    updateClients();
    setEndpoints({});
    m_console->setFocus();
}

MainWindow::~MainWindow() = default;

void MainWindow::setDefinitionLedger(DefinitionLedger *ledger)
{
    m_definitions->setLedger(ledger);
}

void MainWindow::setNativeCompilation(NativeCompilation *native)
{
    m_definitions->setNativeCompilation(native);
    // Said once, when native code is off or unavailable (no gcc, no ECL headers).
    connect(native, &NativeCompilation::notice, m_console, [console = m_console, native](const QString &sentence) {
        console->showNote(sentence, native->status().known && !native->status().available);
    });
}

void MainWindow::setLibraryCompilation(LibraryCompilation *libraries)
{
    m_libraries = libraries;
    m_librariesPanel = new LibrariesPanel(libraries, this);
    m_librariesDock = new QDockWidget(tr("Libraries"), this);
    m_librariesDock->setObjectName(QStringLiteral("librariesDock"));
    m_librariesDock->setWidget(m_librariesPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_librariesDock);
    tabifyDockWidget(m_definitionsDock, m_librariesDock);
    m_definitionsDock->raise();
    m_viewMenu->addAction(m_librariesDock->toggleViewAction());
    connect(m_librariesPanel, &LibrariesPanel::warmUpRequested, this, [this] { warmUpLibraries(); });
    m_warmUpLibraries->setEnabled(true);
    LibraryProgress::follow(libraries, m_console->runningJobBar());
}

bool MainWindow::warmUpLibraries(QString *why)
{
    QString problem;
    const QStringList systems = m_projectFiles ? LibraryCompilation::projectSystems(m_projectFiles->root()) : QStringList();
    if (!m_libraries)
        problem = tr("Libraries are not followed in this window.");
    else if (m_libraries->isKnown() && !m_libraries->isAvailable())
        problem = tr("Libraries stay bytecode in this engine: %1").arg(m_libraries->reason());
    else if (systems.isEmpty())
        problem = tr("Open a project with .asd files first (File \u25b8 Open project\u2026): its libraries are what is compiled.");
    if (!problem.isEmpty()) {
        statusBar()->showMessage(problem, 10000);
        if (why)
            *why = problem;
        return false;
    }
    m_librariesDock->show();
    m_librariesDock->raise();
    statusBar()->showMessage(tr("Finding the libraries of %1\u2026").arg(systems.join(QStringLiteral(", "))), 5000);
    QPointer<MainWindow> window(this);
    m_libraries->warmUp({}, systems, Origin::person(), [window](const EngineProtocol::LibraryWarmUpReply &reply, const QString &error) {
        if (!window)
            return;
        QString text = !error.isEmpty() ? tr("The libraries could not be compiled ahead: %1").arg(error)
                     : reply.queued().isEmpty() ? tr("The project's libraries are native already (%n libraries).", nullptr, int(reply.native().size()))
                                                : tr("Compiling %n libraries natively in the background, at idle priority (%1).", nullptr,
                                                     int(reply.queued().size()))
                                                      .arg(reply.queued().join(QStringLiteral(", ")));
        if (error.isEmpty() && !reply.unknown().isEmpty())
            text += tr(" Not found: %1.").arg(reply.unknown().join(QStringLiteral(", ")));
        window->statusBar()->showMessage(text, 15000);
    });
    return true;
}

void MainWindow::setEditorBridge(EditorBridge *editors)
{
    m_editors = editors;
    connect(editors, &EditorBridge::editorsChanged, this, &MainWindow::updateClients);
    m_editorStatus = new EditorStatus(editors, m_console, statusBar(), this); // where the person's editor connects
    updateClients();
}

void MainWindow::buildActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_openProject = file->addAction(tr("&Open project\u2026"), this, &MainWindow::chooseProject);
    m_openProject->setObjectName(QStringLiteral("openProjectAction"));
    m_openProject->setShortcut(QKeySequence::Open);
    m_openProject->setToolTip(tr("Choose the folder of your Lisp project: agents' file tools work inside it"));
    m_openProject->setEnabled(false); // until setProjectFiles
    file->addSeparator();
    QAction *exportCalls = file->addAction(tr("&Export tool calls\u2026"), this, &MainWindow::exportToolCalls);
    exportCalls->setToolTip(tr("Save every MCP request and response as JSON lines"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *sessionMenu = menuBar()->addMenu(tr("&Session"));
    m_interrupt = sessionMenu->addAction(tr("&Interrupt"), m_console, &LispConsole::interrupt);
    m_interrupt->setToolTip(tr("Interrupt the running evaluation (Ctrl+C in an empty input)"));
    m_interrupt->setEnabled(false);
    m_runTests = new RunTestsAction(m_session, this);
    sessionMenu->addAction(m_runTests);
    m_warmUpLibraries = sessionMenu->addAction(tr("Compile the project's &libraries natively"), this, [this] { warmUpLibraries(); });
    m_warmUpLibraries->setObjectName(QStringLiteral("warmUpLibrariesAction"));
    m_warmUpLibraries->setToolTip(tr("Compile the libraries the project's .asd files depend on natively in the background, at idle "
                                     "priority, without loading them: their first load is then native"));
    m_warmUpLibraries->setEnabled(false); // until setLibraryCompilation
    sessionMenu->addAction(tr("&Reset session\u2026"), this, [this] {
        if (QMessageBox::question(this, tr("Reset session"),
                                  tr("Start a fresh Lisp engine? Every definition of the session is lost, for agents too."))
            == QMessageBox::Yes)
            m_session->reset(Origin::person());
    });

    QMenu *agents = menuBar()->addMenu(tr("&Agents"));
    m_accessGroup = new QActionGroup(this);
    for (AccessMode mode : AccessModes::all()) {
        QAction *action = agents->addAction(AccessModes::name(mode));
        action->setCheckable(true);
        action->setChecked(mode == m_access->mode());
        action->setToolTip(AccessModes::description(mode));
        action->setStatusTip(AccessModes::description(mode));
        action->setData(int(mode));
        m_accessGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, mode] { m_access->setMode(mode); });
    }
    connect(m_access, &AccessGate::modeChanged, this, [this](AccessMode mode) {
        if (QAction *action = accessAction(int(mode)))
            action->setChecked(true);
        QString message = tr("Agent access: %1. %2").arg(AccessModes::name(mode), AccessModes::description(mode));
        if (m_access->heldCount() > 0)
            message += m_access->heldCount() == 1 ? tr(" One file change waits until you resume.")
                                                  : tr(" %1 file changes wait until you resume.").arg(m_access->heldCount());
        statusBar()->showMessage(message, 6000);
    });

    QMenu *view = m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction *zoomIn = view->addAction(tr("Zoom &in"), this, [this] { zoomBy(0.1); });
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    QAction *zoomOut = view->addAction(tr("Zoom &out"), this, [this] { zoomBy(-0.1); });
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    QAction *zoomReset = view->addAction(tr("&Actual size"), this, [this] {
        m_console->setZoom(isPresenting() ? 2.0 : 1.0);
        agentPanel()->setZoom(m_console->zoom());
    });
    zoomReset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    m_presentation = view->addAction(tr("&Presentation mode"));
    m_presentation->setCheckable(true);
    m_presentation->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_presentation->setToolTip(tr("Large type for teaching; hides the side panels"));
    connect(m_presentation, &QAction::toggled, this, &MainWindow::setPresenting);
    view->addSeparator();

    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setMovable(false);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolbar->addAction(m_interrupt);
    toolbar->addSeparator();
    auto *label = new QLabel(tr("  Agent access: "), toolbar);
    toolbar->addWidget(label);
    for (QAction *action : m_accessGroup->actions())
        toolbar->addAction(action);
    toolbar->addSeparator();
    toolbar->addAction(zoomOut);
    toolbar->addAction(zoomIn);
    toolbar->addAction(m_presentation);
    zoomIn->setIconText(tr("A+"));
    zoomOut->setIconText(tr("A\u2212"));
    m_presentation->setIconText(tr("Present"));
}

void MainWindow::buildDocks()
{
    m_definitionsPanel = new DefinitionsPanel(m_definitions, this);
    m_definitionsPanel->setSession(m_session); // Revert runs as the person's job
    connect(m_definitionsPanel, &DefinitionsPanel::reverted, this, [this](quint64, const QString &summary) {
        statusBar()->showMessage(summary, 6000);
    });
    m_definitionsDock = new QDockWidget(tr("Definitions"), this);
    m_definitionsDock->setObjectName(QStringLiteral("definitionsDock"));
    m_definitionsDock->setWidget(m_definitionsPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_definitionsDock);

    m_toolCallsPanel = new ToolCallsPanel(m_toolCalls, this);
    m_toolCallsDock = new QDockWidget(tr("Tool calls"), this);
    m_toolCallsDock->setObjectName(QStringLiteral("toolCallsDock"));
    m_toolCallsDock->setWidget(m_toolCallsPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_toolCallsDock);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    // Wide enough for the names beside Kind, By, When and Runs (native code, issue 30).
    resizeDocks({m_definitionsDock}, {490}, Qt::Horizontal);
    resizeDocks({m_toolCallsDock}, {190}, Qt::Vertical);

    m_viewMenu->addAction(m_definitionsDock->toggleViewAction());
    m_viewMenu->addAction(m_toolCallsDock->toggleViewAction());

    // The debugger shares the right side with the definitions and comes forward when an
    // evaluation parks, the person's or an agent's.
    m_debuggerPanel = new DebuggerPanel(m_session, this);
    new DebuggerTranscript(m_session, m_console);
    m_debuggerDock = new QDockWidget(tr("Debugger"), this);
    m_debuggerDock->setObjectName(QStringLiteral("debuggerDock"));
    m_debuggerDock->setWidget(m_debuggerPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_debuggerDock);
    tabifyDockWidget(m_definitionsDock, m_debuggerDock);
    m_definitionsDock->raise();
    connect(m_debuggerPanel, &DebuggerPanel::allClosed, this, [this] {
        if (m_definitionsDock->isVisible())
            m_definitionsDock->raise(); // nothing waits in the debugger: the definitions come back
        // ... at the width they had: the transcript gets back what the debugger took.
        if (m_sideWidthBeforeDebugger > 0 && m_definitionsDock->isVisible())
            resizeDocks({m_definitionsDock}, {m_sideWidthBeforeDebugger}, Qt::Horizontal);
        m_sideWidthBeforeDebugger = 0;
    });
    connect(m_debuggerPanel, &DebuggerPanel::debuggerOpened, this, [this] {
        if (m_sideWidthBeforeDebugger == 0 && m_definitionsDock->isVisible())
            m_sideWidthBeforeDebugger = m_definitionsDock->width();
        m_debuggerDock->show();
        m_debuggerDock->raise();
    });
    m_viewMenu->addAction(m_debuggerDock->toggleViewAction());

    m_agentDock = new AgentDock(m_session, this);
    addDockWidget(Qt::RightDockWidgetArea, m_agentDock);
    tabifyDockWidget(m_debuggerDock, m_agentDock);
    m_definitionsDock->raise();
    m_agentDock->connectConsole(m_console);
    m_agentDock->connectDefinitions(m_definitionsPanel, m_definitions);
    m_agentDock->connectDebugger(m_debuggerPanel, m_debuggerDock);
    m_viewMenu->addAction(m_agentDock->showAction());
}

AgentPanel *MainWindow::agentPanel() const
{
    return m_agentDock->panel();
}

void MainWindow::buildStatusBar()
{
    m_projectLabel = new QLabel(this);
    m_projectLabel->setObjectName(QStringLiteral("projectLabel"));
    m_projectLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_projectLabel->setContentsMargins(6, 0, 6, 0);
    statusBar()->addPermanentWidget(m_projectLabel);
    showProjectRoot(QString());
    m_engineLabel = new QLabel(this);
    m_endpointLabel = new QLabel(this);
    m_clientsLabel = new QLabel(this);
    m_clientsLabel->setObjectName(QStringLiteral("clientsLabel"));
    m_endpointLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (QLabel *label : {m_engineLabel, m_endpointLabel, m_clientsLabel})
        label->setContentsMargins(6, 0, 6, 0);
    statusBar()->addPermanentWidget(m_clientsLabel);
    statusBar()->addPermanentWidget(m_endpointLabel);
    statusBar()->addPermanentWidget(m_engineLabel);
    connect(m_console, &LispConsole::statusMessage, this, [this](const QString &text) {
        if (text.isEmpty())
            statusBar()->clearMessage();
        else
            statusBar()->showMessage(text, 4000);
    });
}

void MainWindow::buildTray()
{
    m_copyEndpoint = new QAction(tr("&Copy endpoint address"), this);
    connect(m_copyEndpoint, &QAction::triggered, this, [this] {
        if (!m_endpoints.isEmpty())
            QGuiApplication::clipboard()->setText(m_endpoints.first());
    });
    if (!QSystemTrayIcon::isSystemTrayAvailable())
        return;
    m_tray = new QSystemTrayIcon(windowIcon(), this);
    auto *menu = new QMenu(this);
    menu->addAction(tr("&Show or hide the window"), this, [this] {
        if (isVisible() && !isMinimized()) {
            hide();
        } else {
            showNormal();
            raise();
            activateWindow();
        }
    });
    menu->addAction(m_copyEndpoint);
    QMenu *accessMenu = menu->addMenu(tr("Agent &access"));
    accessMenu->addActions(m_accessGroup->actions());
    menu->addSeparator();
    menu->addAction(tr("&Quit"), qApp, &QApplication::quit);
    m_tray->setContextMenu(menu);
    connect(m_tray, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger) {
            showNormal();
            raise();
            activateWindow();
        }
    });
    m_tray->show();
}

QAction *MainWindow::accessAction(int mode) const
{
    for (QAction *action : m_accessGroup->actions()) {
        if (action->data().toInt() == mode)
            return action;
    }
    return nullptr;
}

void MainWindow::setEndpoints(const QStringList &addresses, const QString &note)
{
    m_endpoints = addresses;
    // The first address, and how many more: the status bar's room is for its messages too
    // (the access mode's sentence was cut off); the tooltip and the tray's Copy have them all.
    QString text = addresses.isEmpty() && note.isEmpty() ? tr("MCP: stdio only")
                   : addresses.isEmpty()                 ? tr("MCP:")
                                                         : tr("MCP: %1").arg(addresses.first());
    if (addresses.size() > 1)
        text += tr(" +%1").arg(addresses.size() - 1);
    if (!note.isEmpty())
        text += QLatin1Char(' ') + tr("not listening: %1").arg(note);
    m_endpointLabel->setText(text);
    m_endpointLabel->setToolTip(addresses.isEmpty() && note.isEmpty()
                                    ? tr("No network endpoint is running; agents connect with lisp-duet --headless --stdio.")
                                    : tr("Where MCP clients connect to this window's session:\n%1").arg(addresses.join(QLatin1Char('\n'))));
    m_copyEndpoint->setEnabled(!addresses.isEmpty());
    if (m_tray)
        m_tray->setToolTip(tr("Lisp Duet \u2014 %1").arg(m_endpointLabel->text()));
}

void MainWindow::setKeepInTray(bool keep)
{
    m_keepInTray = keep;
    // Hidden in the tray is not "the last window closed": the app must go on serving agents.
    qApp->setQuitOnLastWindowClosed(!(keep && m_tray));
}

QString MainWindow::engineStateText() const
{
    return m_engineLabel->text();
}

QString MainWindow::clientsText() const
{
    return m_clientsLabel->text();
}

void MainWindow::updateEngineState()
{
    QString text;
    const JobPtr current = m_session->current();
    if (m_engineState == Session::EngineStatus::Restarting)
        text = tr("Engine: restarting");
    else if (m_engineState == Session::EngineStatus::Failed)
        text = tr("Engine: failed");
    else if (m_engineState == Session::EngineStatus::Starting)
        text = tr("Engine: starting");
    else if (current)
        text = current->request.origin.isPerson() ? tr("Engine: busy (your evaluation)")
            : current->request.origin.isEditor()  ? tr("Engine: busy (your evaluation, from your editor)")
                                                  : tr("Engine: busy (%1's call)").arg(current->request.origin.name);
    else
        text = tr("Engine: idle");
    if (const int parked = int(m_session->debugger()->openDebuggers().size()); parked > 0)
        text += parked == 1 ? tr(", 1 evaluation parked in the debugger") : tr(", %1 evaluations parked in the debugger").arg(parked);
    if (m_session->queuedCount() > 0)
        text += tr(", %1 queued").arg(m_session->queuedCount());
    m_engineLabel->setText(text);
    m_interrupt->setEnabled(current != nullptr);
}

void MainWindow::updateClients()
{
    const ClientPresence *presence = m_server->presence();
    QStringList names;
    if (const QString agents = presence->hereText(); !agents.isEmpty())
        names << agents;
    // The person's own editors, connected through Swank, beside the agents.
    for (const EditorBridge::Editor &editor : m_editors ? m_editors->editors() : QList<EditorBridge::Editor>())
        names << (editor.program().isEmpty() ? tr("your editor") : tr("%1 (your editor)").arg(editor.program()));
    const QString here = names.join(QStringLiteral(", "));
    m_clientsLabel->setText(here.isEmpty() ? tr("No clients") : tr("Clients: %1").arg(here));
    QStringList left;
    for (const ClientPresence::Departed &gone : presence->departed())
        left << tr("%1 (%2) left at %3").arg(gone.name, gone.transport, gone.leftAt.toString(QStringLiteral("HH:mm:ss")));
    m_clientsLabel->setToolTip(left.isEmpty() ? tr("The MCP clients connected now") : tr("Connected now: %1\n%2").arg(here.isEmpty() ? tr("none") : here, left.join(QLatin1Char('\n'))));
}

void MainWindow::exportToolCalls()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export tool calls"), QStringLiteral("tool-calls.jsonl"),
                                                      tr("JSON lines (*.jsonl);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!m_toolCallsPanel->exportTo(path, &error))
        QMessageBox::warning(this, tr("Export tool calls"), error);
    else
        statusBar()->showMessage(tr("Exported %1 tool calls to %2").arg(m_toolCalls->rowCount()).arg(path), 5000);
}

void MainWindow::setProjectFiles(ProjectFiles *files)
{
    if (m_projectFiles)
        return;
    m_projectFiles = files;
    m_console->setProjectFiles(files);
    m_runTests->setProjectFiles(files);
    m_definitions->setProjectRoot(files->root().path());
    connect(files, &ProjectFiles::rootChanged, this, [this](const QString &root) {
        showProjectRoot(root);
        m_definitions->setProjectRoot(root);
    });
    m_openProject->setEnabled(true);
    showProjectRoot(files->root().isSet() ? files->root().path() : QString());
}

bool MainWindow::openProject(const QString &directory, QString *error)
{
    QString problem;
    if (!m_projectFiles)
        problem = tr("This window has no project files to open a project with.");
    else if (!m_projectFiles->setRoot(directory, Origin::person(), &problem) && problem.isEmpty())
        problem = tr("%1 cannot be the project root.").arg(directory);
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    statusBar()->showMessage(tr("Project: %1").arg(m_projectFiles->root().path()), 5000);
    Q_EMIT projectOpened(m_projectFiles->root().path());
    return true;
}

void MainWindow::chooseProject()
{
    const QString start = m_projectFiles && m_projectFiles->root().isSet() ? m_projectFiles->root().path() : QDir::homePath();
    const QString directory = QFileDialog::getExistingDirectory(this, tr("Open project"), start);
    if (directory.isEmpty())
        return;
    QString error;
    if (!openProject(directory, &error))
        QMessageBox::warning(this, tr("Open project"), error);
}

void MainWindow::showProjectRoot(const QString &root)
{
    if (root.isEmpty()) {
        setWindowTitle(tr("Lisp Duet"));
        m_projectLabel->setText(tr("No project"));
        m_projectLabel->setToolTip(tr("File \u25b8 Open project\u2026 chooses the folder agents' file tools work in"));
        return;
    }
    const QString name = QFileInfo(root).fileName().isEmpty() ? root : QFileInfo(root).fileName();
    setWindowTitle(tr("%1 \u2014 Lisp Duet").arg(name));
    m_projectLabel->setText(tr("Project: %1").arg(name));
    m_projectLabel->setToolTip(QDir::toNativeSeparators(root));
}

QString MainWindow::projectText() const
{
    return m_projectLabel->text();
}

void MainWindow::zoomBy(double step)
{
    m_console->setZoom(m_console->zoom() + step);
    agentPanel()->setZoom(m_console->zoom());
}

bool MainWindow::isPresenting() const
{
    return m_presentation->isChecked();
}

void MainWindow::setPresenting(bool on)
{
    if (m_presentation->isChecked() != on) {
        m_presentation->setChecked(on); // re-enters through toggled
        return;
    }
    if (on) {
        m_docksVisibleBefore[0] = m_definitionsDock->isVisible();
        m_docksVisibleBefore[1] = m_toolCallsDock->isVisible();
        m_docksVisibleBefore[2] = m_debuggerDock->isVisible();
        m_docksVisibleBefore[3] = m_agentDock->isVisible();
        m_definitionsDock->hide();
        m_toolCallsDock->hide();
        m_debuggerDock->hide(); // it comes back by itself when an evaluation parks
        // The Agent panel stays while an agent runs: a teacher shows the conversation too.
        if (!agentPanel()->client())
            m_agentDock->hide();
        m_console->setZoom(2.0);
        agentPanel()->setZoom(2.0);
        m_librariesVisibleBefore = m_librariesDock && m_librariesDock->isVisible();
        if (m_librariesDock)
            m_librariesDock->hide();
    } else {
        if (m_librariesDock)
            m_librariesDock->setVisible(m_librariesVisibleBefore);
        m_definitionsDock->setVisible(m_docksVisibleBefore[0]);
        m_toolCallsDock->setVisible(m_docksVisibleBefore[1]);
        m_debuggerDock->setVisible(m_docksVisibleBefore[2]);
        m_agentDock->setVisible(m_docksVisibleBefore[3] || m_agentDock->isVisible());
        m_console->setZoom(1.0);
        agentPanel()->setZoom(1.0);
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_keepInTray && m_tray && m_tray->isVisible()) {
        hide();
        m_tray->showMessage(tr("Lisp Duet is still running"),
                            tr("Agents can keep using the session. Quit from the tray menu."), QSystemTrayIcon::Information, 3000);
        event->ignore();
        return;
    }
    event->accept();
    qApp->quit();
}

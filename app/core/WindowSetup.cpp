
#include "WindowSetup.h"

#include "AgentSetup.h"
#include "AppServices.h"
#include "console/LispConsole.h"
#include "console/StagedForms.h"
#include "console/TranscriptView.h"
#include "Preferences.h"
#include "SettingsDialog.h"
#include "window/MainWindow.h"
#include "window/WindowTheme.h"

#include "project/ProjectFiles.h"
#include "editor/EditorBridge.h"
#include "session/Session.h"
#include "tools/FormStager.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QUrl>

namespace {
// MainWindow builds its menus itself; ours go into the ones with these titles, or a new one.
QMenu *menuTitled(MainWindow *window, const QString &title)
{
    for (QAction *action : window->menuBar()->actions()) {
        if (action->menu() && action->text().remove(QLatin1Char('&')) == title)
            return action->menu();
    }
    return window->menuBar()->addMenu(title);
}

WindowTheme::Look lookOf(Preferences::Theme theme)
{
    switch (theme) {
    case Preferences::Theme::Light:
        return WindowTheme::Look::Light;
    case Preferences::Theme::Dark:
        return WindowTheme::Look::Dark;
    case Preferences::Theme::System:
        break;
    }
    return WindowTheme::Look::System;
}
} // namespace

WindowSetup::WindowSetup(MainWindow *window, AppServices *services, const ClientConfig::Target &target, bool keepInTray, QObject *parent)
    : QObject(parent), m_window(window), m_services(services), m_target(target), m_keepInTray(keepInTray),
      m_connect(new QAction(tr("&Connect an agent\u2026"), this)), m_settings(new QAction(tr("&Settings\u2026"), this)),
      m_agentSettings(new QAction(tr("Agents in the &window\u2026"), this))
{
    m_connect->setObjectName(QStringLiteral("connectAction"));
    m_connect->setToolTip(tr("How to connect Claude Code, Claude Desktop, Cursor or VS Code, and who is connected now"));
    m_settings->setObjectName(QStringLiteral("settingsAction"));
    m_settings->setShortcut(QKeySequence::Preferences);
    connect(m_connect, &QAction::triggered, this, &WindowSetup::openConnect);
    connect(m_settings, &QAction::triggered, this, &WindowSetup::openSettings);

    QMenu *agents = menuTitled(window, tr("Agents"));
    agents->addSeparator();
    agents->addAction(m_connect);
    m_agentSettings->setObjectName(QStringLiteral("agentSettingsAction"));
    m_agentSettings->setToolTip(tr("The coding agents the Agent panel can start: add one, change its command or environment"));
    connect(m_agentSettings, &QAction::triggered, this, [this] { openSettings()->showAgentsPage(); });
    agents->addAction(m_agentSettings);
    QMenu *file = menuTitled(window, tr("File"));
    // Above the separator before Quit, where a settings entry is expected.
    QAction *before = nullptr;
    for (QAction *action : file->actions()) {
        if (action->isSeparator())
            before = action;
    }
    file->insertAction(before, m_settings);

    // The journal keeps the session (issue 6): when it cannot be written, the person is told
    // that nothing is kept, and why.
    connect(services, &AppServices::journalError, this, [window](QString reason) {
        if (reason.endsWith(QLatin1Char('.')))
            reason.chop(1);
        window->console()->showNote(tr("This session is not being kept: %1. It goes on without a journal.").arg(reason), true);
    });
    window->setProjectFiles(services->projectFiles());
    // The hand-offs (issue 21): agents stage forms in this window's input; the Definitions
    // panel shows the app's ledger and reverts through it.
    services->formStaging()->setStager(window->console()->stagedForms());
    window->setDefinitionLedger(services->ledger());
    // Native code (issue 30) and the person's editor (issue 31), as the services made them.
    window->setNativeCompilation(services->native());
    window->setLibraryCompilation(services->libraries()); // issue 39
    window->setEditorBridge(services->editors());
    // Only the person's choice in the window is remembered: not --project, an agent's
    // set-project-root or a client's roots.
    connect(window, &MainWindow::projectOpened, this, [](const QString &root) { Preferences::rememberProjectRoot(root); });

    // The previous session's transcript (the journal), greyed, above this session's work.
    window->console()->showPast(services->pastEntries());
    apply(Preferences::load());
}

QList<ConnectDialog::Client> WindowSetup::clients() const
{
    QList<ConnectDialog::Client> list;
    for (const QString &id : ClientConfig::clients())
        list.append({id, ClientConfig::title(id), ClientConfig::where(id), ClientConfig::text(id, m_target)});
    list.append(editorClient());
    return list;
}

ConnectDialog::Client WindowSetup::editorClient() const
{
    // The person's own editor joins through Swank (issue 31), not MCP: what to type there.
    const EditorBridge *editors = m_services->editors();
    ConnectDialog::Client client{QStringLiteral("your-editor"), tr("Your editor"), {}, {}};
    if (editors->state() != EditorBridge::State::Listening) {
        client.where = tr("Emacs with SLIME (or Vim with slimv) joins this session through Swank, which is off now.");
        client.text = editors->state() == EditorBridge::State::Off
            ? tr("Turn on \u201cSwank for your editor\u201d in File \u25b8 Settings\u2026, or start lisp-duet --swank 4005.\n")
            : editors->message() + QLatin1Char('\n');
        return client;
    }
    const int port = editors->port();
    client.where = tr("Emacs with SLIME, or Vim with slimv, joins this session through Swank at 127.0.0.1:%1; both send "
                      "~/.slime-secret by themselves. What it evaluates runs here, in turn with the agents.").arg(port);
    client.text = tr(";; Emacs with SLIME (M-x is Alt+x)\n%1\n\n\" Vim with slimv: in a Lisp buffer\n:let g:swank_port = %2\n,c\n")
                      .arg(EditorBridge::connectLine(port))
                      .arg(port);
    return client;
}

void WindowSetup::apply(const Preferences &p)
{
    Session::LimitsChange change;
    change.timeoutMs = p.timeoutSeconds * 1000;
    change.maxOutputChars = p.maxOutputChars;
    // Before the engine runs this only records them; the Session sends them when it is ready.
    m_services->session()->changeLimits(change);
    m_services->session()->debugger()->setDebugDefaults(p.ownErrorsDebug, p.agentErrorsDebug);
    m_services->session()->debugger()->setAbandonAfterMs(p.debuggerAbandonMinutes * 60 * 1000);
    m_services->setNativeCompilation(p.nativeCompilation);
    m_services->setLibraryWarmUp(p.libraryWarmUp);
    m_services->applyEditorAndInitFile(p);
    LispConsole *console = m_window->console();
    console->transcript()->setScrollback(p.scrollbackLines);
    console->setFontFamily(p.fontFamily);
    console->setBasePointSize(p.fontSize);
    WindowTheme::apply(lookOf(p.theme), console);
    m_window->setKeepInTray(m_keepInTray || p.closeToTray);
    m_services->applyToolGroups(p);
    if (m_agents)
        m_agents->apply(p);
    // The access mode is only the one each start begins with: AppServices set it.
}

void WindowSetup::setAgentSetup(AgentSetup *agents)
{
    m_agents = agents;
}

QString WindowSetup::openStartProject(const QString &commandLineRoot)
{
    ProjectFiles *files = m_services->projectFiles();
    QString error;
    if (!commandLineRoot.isEmpty()) {
        if (!files->setRoot(commandLineRoot, Origin::person(), &error))
            return error.isEmpty() ? tr("%1 cannot be the project root.").arg(commandLineRoot) : error;
        return {};
    }
    const QString remembered = Preferences::load().projectRoot;
    if (!remembered.isEmpty() && !files->setRoot(remembered, Origin::person(), &error)) {
        m_window->console()->transcript()->appendText(
            tr("; The project you last opened, %1, cannot be opened now: %2 Use File \u25b8 Open project\u2026 to choose one.\n")
                .arg(remembered, error),
            TranscriptView::Style::Note);
    }
    return {};
}

void WindowSetup::showWelcome()
{
    TranscriptView *transcript = m_window->console()->transcript();
    transcript->appendText(ClientConfig::welcomeText() + QLatin1Char('\n'), TranscriptView::Style::Note);
}

ConnectDialog *WindowSetup::openConnect()
{
    if (!m_connectDialog) {
        m_connectDialog = new ConnectDialog(m_services->server(), clients(), m_window);
        m_connectDialog->showEditors(m_services->editors());
        m_connectDialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_connectDialog->show();
    m_connectDialog->raise();
    m_connectDialog->activateWindow();
    return m_connectDialog;
}

SettingsDialog *WindowSetup::openSettings()
{
    if (!m_settingsDialog) {
        m_settingsDialog = new SettingsDialog(Preferences::load(), m_window);
        if (const int port = QUrl(m_target.url).port(); port > 0)
            m_settingsDialog->setPortInUse(port); // --port may have given another than the saved one
        m_settingsDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_settingsDialog, &SettingsDialog::applied, this, [this](const Preferences &p) { apply(p); });
    }
    m_settingsDialog->show();
    m_settingsDialog->raise();
    m_settingsDialog->activateWindow();
    return m_settingsDialog;
}


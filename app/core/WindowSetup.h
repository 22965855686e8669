#pragma once


#include "ClientConfig.h"
#include "dialogs/ConnectDialog.h"

#include <QObject>
#include <QPointer>

class AgentSetup;
class AppServices;
class MainWindow;
class QAction;
class SettingsDialog;
struct Preferences;

// What the app layer adds to the window: Agents ▸ Connect an agent… (ClientConfig's text for
// each client), File ▸ Settings… (Preferences made to take effect on the session, the console,
// the theme and the tray), the project (File ▸ Open project…, remembered; --project for one
// run), and the first start's welcome in the transcript.
class WindowSetup : public QObject
{
    Q_OBJECT
public:
    // keepInTray: --tray was given, which the settings cannot turn off for this run.
    WindowSetup(MainWindow *window, AppServices *services, const ClientConfig::Target &target, bool keepInTray,
                QObject *parent = nullptr);

    // The project the window starts with: commandLineRoot (--project, for this run only) or
    // else the root the person last opened. Returns the sentence saying why --project cannot
    // be the root (empty when it is fine); a remembered root that is gone is only noted in the
    // transcript.
    QString openStartProject(const QString &commandLineRoot);

    // Applies the stored preferences (all but the agent access mode, which AppServices set at
    // start: a change in the dialog is for the next start).
    void apply(const Preferences &preferences);
    void showWelcome();
    QList<ConnectDialog::Client> clients() const;
    // "Your editor": how Emacs (SLIME) or Vim (slimv) joins through Swank, as it listens now.
    ConnectDialog::Client editorClient() const;

    // The hosted agent (issue 38): the settings' agents reach it when they change, and
    // Agents ▸ Agent settings… opens their page.
    void setAgentSetup(AgentSetup *agents);

    QAction *connectAction() const { return m_connect; }
    QAction *agentSettingsAction() const { return m_agentSettings; }
    QAction *settingsAction() const { return m_settings; }
    ConnectDialog *openConnect();
    SettingsDialog *openSettings();

private:
    MainWindow *m_window;
    AppServices *m_services;
    ClientConfig::Target m_target;
    bool m_keepInTray;
    QAction *m_connect;
    QAction *m_settings;
    QAction *m_agentSettings;
    AgentSetup *m_agents = nullptr;
    QPointer<ConnectDialog> m_connectDialog;
    QPointer<SettingsDialog> m_settingsDialog;
};


#pragma once

#include "Preferences.h"

#include <QDialog>

class AgentsPage;
class EditorSettings;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFontComboBox;
class QLabel;
class QSpinBox;

// File ▸ Settings: the Preferences in a form (General), and the agents the window hosts (Agents). OK and Apply store them with QSettings and emit
// applied(); whoever owns the window makes them take effect. The port only takes effect at the
// next start, and the dialog says so when it was changed, or when this run listens on another
// port (--port).
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(const Preferences &current, QWidget *parent = nullptr);

    Preferences preferences() const; // what the form shows now
    void setPreferences(const Preferences &preferences);
    QString restartNote() const;     // empty when nothing needs a restart
    // The port this run listens on, when --port gave another than the saved one: the dialog
    // says so beside the saved port it edits.
    void setPortInUse(int port);
    void apply();                    // store and emit applied()
    AgentsPage *agentsPage() const { return m_agents; }
    void showAgentsPage();

Q_SIGNALS:
    void applied(const Preferences &preferences);

private:
    void updateRestartNote();

    int m_portAtStart;
    int m_portInUse;
    QSpinBox *m_port;
    QComboBox *m_access;
    QSpinBox *m_timeout;
    QSpinBox *m_outputCap;
    QSpinBox *m_scrollback;
    QFontComboBox *m_font;
    QDoubleSpinBox *m_fontSize;
    QComboBox *m_theme;
    QCheckBox *m_closeToTray;
    QSpinBox *m_journalsKept;
    QCheckBox *m_ownErrorsDebug;
    QCheckBox *m_agentErrorsDebug;
    QSpinBox *m_abandonMinutes;
    QCheckBox *m_projectTools;
    QCheckBox *m_debuggerTools;
    QCheckBox *m_handoffTools;
    QLabel *m_restart;
    QCheckBox *m_nativeCompilation = nullptr; // issue 30
    QCheckBox *m_libraryWarmUp = nullptr;     // issue 39
    EditorSettings *m_editor; // Swank and the init files (issue 31)
    AgentsPage *m_agents;     // the hosted agents (issue 38)
    class QTabWidget *m_pages;
};

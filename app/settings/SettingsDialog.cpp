#include "SettingsDialog.h"

#include "AgentsPage.h"
#include "EditorSettings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace {
QSpinBox *spinBox(int low, int high, const QString &suffix, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setRange(low, high);
    box->setSuffix(suffix);
    box->setGroupSeparatorShown(true);
    return box;
}
} // namespace

SettingsDialog::SettingsDialog(const Preferences &current, QWidget *parent)
    : QDialog(parent), m_portAtStart(current.port), m_portInUse(current.port), m_port(spinBox(1, 65535, QString(), this)), m_access(new QComboBox(this)),
      m_timeout(spinBox(1, 24 * 3600, tr(" s"), this)), m_outputCap(spinBox(1000, 100000000, tr(" characters"), this)),
      m_scrollback(spinBox(100, 10000000, tr(" lines"), this)), m_font(new QFontComboBox(this)), m_fontSize(new QDoubleSpinBox(this)),
      m_theme(new QComboBox(this)), m_closeToTray(new QCheckBox(tr("Keep running in the tray when the window is closed"), this)),
      m_journalsKept(spinBox(1, 100000, tr(" journals"), this)),
      m_ownErrorsDebug(new QCheckBox(tr("My own errors open the debugger"), this)),
      m_agentErrorsDebug(new QCheckBox(tr("Agents' errors open the debugger"), this)),
      m_abandonMinutes(spinBox(0, 7 * 24 * 60, tr(" min"), this)),
      m_projectTools(new QCheckBox(tr("Project files (read, edit, search)"), this)),
      m_debuggerTools(new QCheckBox(tr("Debugger (look into and continue parked evaluations)"), this)),
      m_handoffTools(new QCheckBox(tr("Hand-offs (stage forms for you, definition history, revert)"), this)), m_restart(new QLabel(this)),
      m_editor(new EditorSettings(this)), m_agents(new AgentsPage(this)), m_pages(new QTabWidget(this))
{
    setWindowTitle(tr("Settings"));
    setObjectName(QStringLiteral("settingsDialog"));
    m_port->setGroupSeparatorShown(false);
    for (AccessMode mode : AccessModes::all())
        m_access->addItem(AccessModes::name(mode), int(mode));
    m_font->setFontFilters(QFontComboBox::MonospacedFonts);
    m_fontSize->setRange(4, 96);
    m_fontSize->setDecimals(1);
    m_fontSize->setSuffix(tr(" pt"));
    m_theme->addItem(tr("As the system"), int(Preferences::Theme::System));
    m_theme->addItem(tr("Light"), int(Preferences::Theme::Light));
    m_theme->addItem(tr("Dark"), int(Preferences::Theme::Dark));
    const QList<QWidget *> named{m_port, m_access, m_timeout, m_outputCap, m_scrollback, m_font, m_fontSize, m_theme, m_closeToTray, m_journalsKept,
                                 m_ownErrorsDebug, m_agentErrorsDebug, m_abandonMinutes, m_projectTools, m_debuggerTools, m_handoffTools};
    const QStringList names{QStringLiteral("port"), QStringLiteral("access"), QStringLiteral("timeout"), QStringLiteral("outputCap"),
                            QStringLiteral("scrollback"), QStringLiteral("font"), QStringLiteral("fontSize"), QStringLiteral("theme"),
                            QStringLiteral("closeToTray"), QStringLiteral("journalsKept"), QStringLiteral("ownErrorsDebug"),
                            QStringLiteral("agentErrorsDebug"), QStringLiteral("abandonMinutes"), QStringLiteral("projectTools"),
                            QStringLiteral("debuggerTools"), QStringLiteral("handoffTools")};
    for (int i = 0; i < named.size(); ++i)
        named[i]->setObjectName(names[i]);

    auto *form = new QFormLayout;
    form->addRow(tr("HTTP &port:"), m_port);
    form->addRow(tr("Agent &access at start:"), m_access);
    form->addRow(tr("&Time limit per evaluation:"), m_timeout);
    form->addRow(tr("&Output cap per evaluation:"), m_outputCap);
    form->addRow(tr("&Scrollback:"), m_scrollback);
    form->addRow(tr("Console &font:"), m_font);
    form->addRow(tr("Font si&ze:"), m_fontSize);
    form->addRow(tr("T&heme:"), m_theme);
    form->addRow(QString(), m_closeToTray);
    form->addRow(tr("&Keep the newest:"), m_journalsKept);
    form->addRow(tr("Debugger:"), m_ownErrorsDebug);
    form->addRow(QString(), m_agentErrorsDebug);
    form->addRow(tr("Abort a parked evaluation &after:"), m_abandonMinutes);
    form->addRow(tr("Agents' tools:"), m_projectTools);
    form->addRow(QString(), m_debuggerTools);
    form->addRow(QString(), m_handoffTools);
    for (QCheckBox *group : {m_projectTools, m_debuggerTools, m_handoffTools})
        group->setToolTip(tr("Off: agents no longer see these tools (their clients are told at once) and calls to them are refused. "
                             "Evaluating, loading, testing and looking up are always on."));
    m_nativeCompilation = new QCheckBox(tr("Compile the session's definitions to &native code in the background"), this);
    m_nativeCompilation->setObjectName(QStringLiteral("nativeCompilation"));
    m_nativeCompilation->setToolTip(tr("What you and the agents define runs at once, interpreted, and is compiled with gcc in the "
                                       "background, then swapped in (10-20 times faster for calls and loops). Off: it stays "
                                       "interpreted. Definitions already native stay native."));
    form->addRow(tr("Speed:"), m_nativeCompilation);
    m_libraryWarmUp = new QCheckBox(tr("Compile a project's &libraries natively when it is first opened here"), this);
    m_libraryWarmUp->setObjectName(QStringLiteral("libraryWarmUp"));
    m_libraryWarmUp->setToolTip(tr("The libraries its .asd files depend on are compiled in the background at idle priority, "
                                   "without loading them, so that their first load is native. Session \u25b8 Compile the "
                                   "project's libraries natively does it any time."));
    form->addRow(QString(), m_libraryWarmUp);
    m_editor->addRows(form);
    m_abandonMinutes->setSpecialValueText(tr("never"));
    m_ownErrorsDebug->setToolTip(tr("An error in your evaluation stops it where it happened, with its restarts and frames, instead of unwinding."));
    m_agentErrorsDebug->setToolTip(tr("Every agent's evaluation parks on an error, as if it had asked with debug: true."));
    m_abandonMinutes->setToolTip(tr("An evaluation parked in the debugger that nobody answers is aborted after this long, and its caller told."));
    m_journalsKept->setToolTip(tr("Each run keeps a journal of the session; older ones are removed when Lisp Duet starts."));
    m_access->setToolTip(tr("The toolbar changes agent access for this run; this is the mode each start begins with."));
    m_timeout->setToolTip(tr("An evaluation running longer is interrupted (agents may ask for another limit per call)."));

    auto *note = new QLabel(tr("Limits, scrollback, font, theme, the tray, the debugger, native code, agents' tools and Swank take effect "
                               "at once; the init files at the next engine start (Session \u25b8 Reset session). The port, the agent "
                               "access at start and the journals kept take effect at the next start."),
                            this);
    note->setWordWrap(true);
    m_restart->setObjectName(QStringLiteral("restartNote"));
    m_restart->setWordWrap(true);
    m_restart->setStyleSheet(QStringLiteral("color: #b35c00;"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &SettingsDialog::apply);
    connect(m_port, &QSpinBox::valueChanged, this, &SettingsDialog::updateRestartNote);

    auto *general = new QWidget(m_pages);
    auto *generalLayout = new QVBoxLayout(general);
    generalLayout->addLayout(form);
    generalLayout->addWidget(note);
    generalLayout->addWidget(m_restart);
    m_pages->setObjectName(QStringLiteral("settingsPages"));
    m_pages->addTab(general, tr("&General"));
    m_pages->addTab(m_agents, tr("A&gents"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_pages);
    layout->addWidget(buttons);
    setPreferences(current);
}

Preferences SettingsDialog::preferences() const
{
    Preferences p;
    p.port = m_port->value();
    p.accessMode = AccessMode(m_access->currentData().toInt());
    p.timeoutSeconds = m_timeout->value();
    p.maxOutputChars = m_outputCap->value();
    p.scrollbackLines = m_scrollback->value();
    p.fontFamily = m_font->currentFont().family();
    p.fontSize = m_fontSize->value();
    p.theme = Preferences::Theme(m_theme->currentData().toInt());
    p.closeToTray = m_closeToTray->isChecked();
    p.journalsKept = m_journalsKept->value();
    p.ownErrorsDebug = m_ownErrorsDebug->isChecked();
    p.agentErrorsDebug = m_agentErrorsDebug->isChecked();
    p.debuggerAbandonMinutes = m_abandonMinutes->value();
    p.projectTools = m_projectTools->isChecked();
    p.debuggerTools = m_debuggerTools->isChecked();
    p.handoffTools = m_handoffTools->isChecked();
    p.nativeCompilation = m_nativeCompilation->isChecked();
    p.libraryWarmUp = m_libraryWarmUp->isChecked();
    m_editor->read(p);
    p.agents = m_agents->agents();
    return p;
}

void SettingsDialog::setPreferences(const Preferences &p)
{
    m_port->setValue(p.port);
    m_access->setCurrentIndex(qMax(0, m_access->findData(int(p.accessMode))));
    m_timeout->setValue(p.timeoutSeconds);
    m_outputCap->setValue(p.maxOutputChars);
    m_scrollback->setValue(p.scrollbackLines);
    QFont font = p.fontFamily.isEmpty() ? QFont(QStringLiteral("DejaVu Sans Mono")) : QFont(p.fontFamily);
    m_font->setCurrentFont(font);
    m_fontSize->setValue(p.fontSize);
    m_theme->setCurrentIndex(qMax(0, m_theme->findData(int(p.theme))));
    m_closeToTray->setChecked(p.closeToTray);
    m_journalsKept->setValue(p.journalsKept);
    m_ownErrorsDebug->setChecked(p.ownErrorsDebug);
    m_agentErrorsDebug->setChecked(p.agentErrorsDebug);
    m_abandonMinutes->setValue(p.debuggerAbandonMinutes);
    m_projectTools->setChecked(p.projectTools);
    m_debuggerTools->setChecked(p.debuggerTools);
    m_handoffTools->setChecked(p.handoffTools);
    m_nativeCompilation->setChecked(p.nativeCompilation);
    m_libraryWarmUp->setChecked(p.libraryWarmUp);
    m_editor->show(p);
    m_agents->setAgents(p.agents.isEmpty() ? AgentSettings::builtIns() : p.agents);
    updateRestartNote();
}

QString SettingsDialog::restartNote() const
{
    return m_restart->text();
}

void SettingsDialog::apply()
{
    const Preferences p = preferences();
    p.save();
    Q_EMIT applied(p);
}

void SettingsDialog::setPortInUse(int port)
{
    m_portInUse = port;
    updateRestartNote();
}

void SettingsDialog::updateRestartNote()
{
    if (m_port->value() != m_portAtStart)
        m_restart->setText(tr("Restart Lisp Duet to listen on port %1, then give your agents the new configuration "
                              "(Agents \u25b8 Connect an agent).")
                               .arg(m_port->value()));
    else if (m_portInUse != m_portAtStart)
        m_restart->setText(tr("This run listens on port %1, as --port asked; the port here is the one Lisp Duet uses when it "
                              "starts without --port.")
                               .arg(m_portInUse));
    else
        m_restart->clear();
    m_restart->setVisible(!m_restart->text().isEmpty());
}

void SettingsDialog::showAgentsPage()
{
    m_pages->setCurrentWidget(m_agents);
}

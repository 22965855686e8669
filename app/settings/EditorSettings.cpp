#include "EditorSettings.h"

#include "Preferences.h"
#include "initfile/InitFile.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QSpinBox>

EditorSettings::EditorSettings(QWidget *parent)
    : QObject(parent),
      m_swank(new QCheckBox(tr("Swank for my editor (SLIME, slimv) on 127.0.0.1"), parent)),
      m_swankPort(new QSpinBox(parent)),
      m_initFile(new QCheckBox(tr("Load my init file (%1)").arg(InitFile::shortPath(InitFile::defaultPath())), parent)),
      m_eclrc(new QCheckBox(tr("Also load ~/.eclrc, before it"), parent)),
      m_initTimeLimit(new QSpinBox(parent))
{
    m_swank->setObjectName(QStringLiteral("swank"));
    m_swankPort->setObjectName(QStringLiteral("swankPort"));
    m_initFile->setObjectName(QStringLiteral("initFile"));
    m_eclrc->setObjectName(QStringLiteral("eclrc"));
    m_initTimeLimit->setObjectName(QStringLiteral("initTimeLimit"));
    m_swankPort->setRange(0, 65535);
    m_swankPort->setSpecialValueText(tr("any free port"));
    m_initTimeLimit->setRange(1, 3600);
    m_initTimeLimit->setSuffix(tr(" s"));
    m_swank->setToolTip(tr("Emacs (M-x slime-connect) or Vim (slimv) joins this session: what it evaluates runs here, in "
                           "turn with the agents. Only programs that send ~/.slime-secret are let in."));
    m_initFile->setToolTip(tr("Loaded by every new engine (start, restart, reset) before anything else runs."));
    m_eclrc->setToolTip(tr("ECL's own init file, where people often load Quicklisp's setup.lisp."));
    m_initTimeLimit->setToolTip(tr("An init file still running after this long is interrupted; the session starts without the rest of it."));
    connect(m_swank, &QCheckBox::toggled, m_swankPort, &QWidget::setEnabled);
}

void EditorSettings::addRows(QFormLayout *form)
{
    form->addRow(tr("Your editor:"), m_swank);
    form->addRow(tr("Swank p&ort:"), m_swankPort);
    form->addRow(tr("Init file:"), m_initFile);
    form->addRow(QString(), m_eclrc);
    form->addRow(tr("Init file time &limit:"), m_initTimeLimit);
}

void EditorSettings::read(Preferences &p) const
{
    p.swankEnabled = m_swank->isChecked();
    p.swankPort = m_swankPort->value();
    p.initFileEnabled = m_initFile->isChecked();
    p.eclrcEnabled = m_eclrc->isChecked();
    p.initTimeLimitSeconds = m_initTimeLimit->value();
}

void EditorSettings::show(const Preferences &p)
{
    m_swank->setChecked(p.swankEnabled);
    m_swankPort->setValue(p.swankPort);
    m_swankPort->setEnabled(p.swankEnabled);
    m_initFile->setChecked(p.initFileEnabled);
    m_eclrc->setChecked(p.eclrcEnabled);
    m_initTimeLimit->setValue(p.initTimeLimitSeconds);
}

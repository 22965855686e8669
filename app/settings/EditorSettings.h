#pragma once

#include <QObject>

class QCheckBox;
class QFormLayout;
class QSpinBox;
class QWidget;
struct Preferences;

// The Settings dialog's rows for the person's own setup (issue 31): Swank for their editor
// and its port, their init file, ~/.eclrc, and the init files' time limit. Its own object so
// that the dialog only adds the rows and passes the Preferences through.
class EditorSettings : public QObject
{
    Q_OBJECT
public:
    explicit EditorSettings(QWidget *parent);

    void addRows(QFormLayout *form);
    void read(Preferences &preferences) const;
    void show(const Preferences &preferences);

private:
    QCheckBox *m_swank;
    QSpinBox *m_swankPort;
    QCheckBox *m_initFile;
    QCheckBox *m_eclrc;
    QSpinBox *m_initTimeLimit;
};

#pragma once

#include "acp/AcpTypes.h"

#include <QWidget>

class QHBoxLayout;
class QToolButton;

// The context waiting to go with the next prompt, as chips above the prompt box: each shows its
// label ("REPL #12: (square 12)"), its text as a tooltip, and goes away when clicked (or with
// Space or Delete when it has the focus). The prompt takes them all when it is sent.
class ContextChips : public QWidget
{
    Q_OBJECT
public:
    explicit ContextChips(QWidget *parent = nullptr);

    // A resource already there (the same URI) is replaced, not added twice.
    void add(const Acp::ContentBlock &resource, const QString &label);
    QList<Acp::ContentBlock> resources() const;
    QStringList labels() const;
    int count() const { return int(m_chips.size()); }
    void clear();
    QToolButton *chip(int index) const { return m_chips.value(index).button; }

Q_SIGNALS:
    void changed();

private:
    void remove(QToolButton *button);

    struct Chip
    {
        Acp::ContentBlock resource;
        QString label;
        QToolButton *button = nullptr;
    };
    QList<Chip> m_chips;
    QHBoxLayout *m_layout;
};

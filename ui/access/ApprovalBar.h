#pragma once

#include "project/FileChange.h"

#include <QFrame>

class AccessGate;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

// The non-modal bar above the input in Ask mode: which client wants to run what and why, or
// which file it wants to change and how (the summary and the coloured diff), with Approve and
// Deny, and a line for why not (optional: the agent reads it with the denial); "1 of 3" when
// several wait. Hidden while nothing waits.
class ApprovalBar : public QFrame
{
    Q_OBJECT
public:
    explicit ApprovalBar(AccessGate *access, QWidget *parent = nullptr);

    QPushButton *approveButton() const { return m_approve; }
    QPushButton *denyButton() const { return m_deny; }
    QLineEdit *reasonEdit() const { return m_reason; }
    QString headline() const;
    QString summary() const;
    // The diff shown for a file change (empty for a call).
    QString diffText() const;
    bool showsDiff() const;
    void setCodeFont(const QFont &font);

Q_SIGNALS:
    // Nothing waits any more and the bar had the focus: it goes back to the input.
    void returnToInput();

private:
    void refresh();
    void showChange(const FileChange &change);

    AccessGate *m_access;
    QLabel *m_title;
    QLabel *m_count;
    QLabel *m_summary;
    QPlainTextEdit *m_code;
    QPlainTextEdit *m_diff;
    QPushButton *m_approve;
    QPushButton *m_deny;
    QLineEdit *m_reason;
};

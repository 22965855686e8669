#pragma once

#include <QFrame>

class AccessController;
class QLabel;
class QPlainTextEdit;
class QPushButton;

// The non-modal bar above the input in Ask mode: which client wants to run what and why, with
// Approve and Deny; "1 of 3" when several wait. Hidden while nothing waits.
class ApprovalBar : public QFrame
{
    Q_OBJECT
public:
    explicit ApprovalBar(AccessController *access, QWidget *parent = nullptr);

    QPushButton *approveButton() const { return m_approve; }
    QPushButton *denyButton() const { return m_deny; }
    QString headline() const;
    void setCodeFont(const QFont &font);

private:
    void refresh();

    AccessController *m_access;
    QLabel *m_title;
    QLabel *m_count;
    QPlainTextEdit *m_code;
    QPushButton *m_approve;
    QPushButton *m_deny;
};

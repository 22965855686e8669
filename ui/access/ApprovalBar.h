#pragma once

#include "access/AccessGate.h"
#include "project/FileChange.h"

#include <QFrame>

class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

// The non-modal bar above the input in Ask mode: which client wants to run what and why, or
// which file it wants to change and how (the summary and the coloured diff), with Approve and
// Deny, and a line for why not (optional: the agent reads it with the denial); "1 of 3" when
// several wait. An agent hosted in the window that asks before a tool call (in any mode but
// Read-only and Paused, which decide for it) shows here too: the call's title and kind, its
// code or the diffs of the files it would change, and one button per option the agent offers.
// Hidden while nothing waits.
class ApprovalBar : public QFrame
{
    Q_OBJECT
public:
    explicit ApprovalBar(AccessGate *access, QWidget *parent = nullptr);

    QPushButton *approveButton() const { return m_approve; }
    QPushButton *denyButton() const { return m_deny; }
    // An agent's permission request (issue 38): one button per option it offers, in its order
    // and words (Approve and Deny are hidden then). Empty for a call or a file change.
    QList<QPushButton *> optionButtons() const { return m_optionButtons; }
    QLineEdit *reasonEdit() const { return m_reason; }
    QString headline() const;
    QString summary() const;
    // The code shown for a call (empty when none is shown).
    QString codeText() const;
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
    void showPermission(const AccessGate::Pending &pending);
    void showDiffs(const QList<FileChange> &changes);
    void setOptions(const QList<AccessGate::AgentPermission::Option> &options);

    AccessGate *m_access;
    QLabel *m_title;
    QLabel *m_count;
    QLabel *m_summary;
    QPlainTextEdit *m_code;
    QPlainTextEdit *m_diff;
    QPushButton *m_approve;
    QPushButton *m_deny;
    QLineEdit *m_reason;
    QHBoxLayout *m_options;
    QList<QPushButton *> m_optionButtons;
};

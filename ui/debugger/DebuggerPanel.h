#pragma once

#include "session/Debugger.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QTreeWidget;
class QTreeWidgetItem;
class QVBoxLayout;
class Session;

// The shared debugger in the window, in the spirit of SLIME's SLDB: whose evaluation is parked
// and where, the condition, its restarts as buttons (digit keys choose them), the frames
// (expanding one shows its arguments and locals), and an input that evaluates in the selected
// frame. The person answers the person's own parked evaluations and the agents' alike; the
// first choice wins, and a line says who chose what. Everything comes from the Session: the
// panel keeps no state of the debugger's own.
class DebuggerPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DebuggerPanel(Session *session, QWidget *parent = nullptr);

    // The debugger shown: the innermost open one unless the person picked another; null when
    // nothing is parked.
    DebuggerPtr shown() const { return m_shown; }
    void showDebugger(int debuggerId);

    // The person's actions, as the buttons and inputs do them. chooseRestart takes the values
    // typed in the arguments line (Lisp texts, one per line or separated by ";"). False when
    // the Session refused at once; the notice says why.
    bool chooseRestart(int index);
    void setArguments(const QString &text);
    void selectFrame(int index); // -1: none (the dynamic environment only)
    int selectedFrame() const;
    bool evaluateInFrame(const QString &code);
    // Expands frame `index` (asks the engine for its variables).
    void expandFrame(int index);

    QString notice() const;       // the last thing said: who chose what, a refusal, a result
    QString headerText() const;   // whose evaluation, where, since when
    QString conditionText() const;
    QStringList restartTexts() const;
    QStringList frameLines(int index) const; // a frame's variable lines once it was expanded
    // The panel's context menu: "Send this debugger to the agent" while one is shown.
    QMenu *contextMenu();

Q_SIGNALS:
    // A debugger opened (the window raises the panel), or the last one closed (the window
    // brings back the panel it shared the place with).
    void debuggerOpened(DebuggerPtr debugger);
    void allClosed();
    // The person sent the debugger shown to the agent's prompt (the Agent panel's context).
    void sendToAgentRequested(DebuggerPtr debugger);

protected:
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    void followTheme();
    void rebuildRestarts();
    void rebuildFrames();
    void fillFrame(QTreeWidgetItem *item);
    void say(const QString &text, bool problem = false);
    void onClosed(const DebuggerPtr &debugger);

    Session *m_session;
    DebuggerPtr m_shown;
    bool m_picked = false; // the person chose which one to see
    QComboBox *m_levels;
    QLabel *m_header;
    QLabel *m_condition;
    QWidget *m_restartBox;
    QVBoxLayout *m_restartLayout;
    QLineEdit *m_arguments;
    QTreeWidget *m_frames;
    QLabel *m_frameLabel;
    QLineEdit *m_evalInput;
    QLabel *m_notice;
    QWidget *m_body;
    QLabel *m_empty;
};

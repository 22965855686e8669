#pragma once

#include <QDockWidget>
#include <QPointer>

class AgentPanel;
class DebuggerPanel;
class DefinitionsModel;
class DefinitionsPanel;
class LispConsole;
class QAction;
class Session;

// The Agent panel's dock (issue 38) and its ties to the rest of the window: View ▸ Agent
// (Ctrl+Shift+A) shows it with the keyboard in the prompt box (and, pressed there again, goes
// back to the REPL); the context menus of the transcript (an entry, the selection), the
// Definitions panel (a definition) and the Debugger panel (the debugger shown) send context to
// its prompt; its links raise the Debugger dock on a parked call and copy a Lisp block into the
// REPL's input.
class AgentDock : public QDockWidget
{
    Q_OBJECT
public:
    AgentDock(Session *session, QWidget *parent = nullptr);

    AgentPanel *panel() const { return m_panel; }
    QAction *showAction() const { return m_show; }
    void showPanel();

    void connectConsole(LispConsole *console);
    void connectDefinitions(DefinitionsPanel *panel, DefinitionsModel *model);
    void connectDebugger(DebuggerPanel *panel, QDockWidget *dock);

private:
    Session *m_session;
    QPointer<LispConsole> m_console;
    AgentPanel *m_panel;
    QAction *m_show;
};

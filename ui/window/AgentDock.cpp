#include "AgentDock.h"

#include "agent/AgentContext.h"
#include "agent/AgentPanel.h"
#include "console/ConsoleWidget.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "debugger/DebuggerPanel.h"
#include "definitions/DefinitionsModel.h"
#include "definitions/DefinitionsPanel.h"

#include "session/Session.h"

#include <QAction>
#include <QApplication>
#include <QMenu>

namespace {
// A finished job of the session by its id (the transcript marks its entries with it).
JobPtr finishedJob(const Session *session, quint64 id)
{
    for (auto it = session->transcript().crbegin(); it != session->transcript().crend(); ++it) {
        if ((*it)->id == id)
            return *it;
    }
    return session->job(id);
}
} // namespace

AgentDock::AgentDock(Session *session, QWidget *parent)
    : QDockWidget(tr("Agent"), parent), m_session(session), m_panel(new AgentPanel(this)), m_show(new QAction(tr("&Agent"), this))
{
    setObjectName(QStringLiteral("agentDock"));
    setWidget(m_panel);
    m_show->setObjectName(QStringLiteral("showAgentAction"));
    m_show->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_show->setToolTip(tr("Show the Agent panel, the keyboard in its prompt box (again: back to the REPL)"));
    connect(m_show, &QAction::triggered, this, [this] {
        if (isVisible() && m_console && m_panel->isAncestorOf(QApplication::focusWidget()))
            m_console->input()->setFocus(Qt::ShortcutFocusReason); // the way back to the REPL
        else
            showPanel();
    });
}

void AgentDock::showPanel()
{
    show();
    raise();
    m_panel->focusPrompt();
}

void AgentDock::connectConsole(LispConsole *console)
{
    m_console = console;
    connect(m_panel, &AgentPanel::codeToInputRequested, console, &LispConsole::copyToInput);
    TranscriptView *transcript = console->transcript();
    connect(transcript, &TranscriptView::contextMenuAbout, this, [this, transcript](QMenu *menu, quint64 entry) {
        menu->addSeparator();
        const JobPtr job = entry ? finishedJob(m_session, entry) : JobPtr();
        QAction *sendEntry = menu->addAction(tr("Send this entry to the agent"));
        sendEntry->setObjectName(QStringLiteral("sendEntryToAgent"));
        sendEntry->setEnabled(!job.isNull());
        connect(sendEntry, &QAction::triggered, this, [this, job] {
            const AgentContext::Context context = AgentContext::forEntry(*job);
            m_panel->addContext(context.resource, context.label);
            showPanel();
        });
        const QString selected = transcript->textCursor().selectedText().replace(QChar::ParagraphSeparator, u'\n');
        QAction *sendSelection = menu->addAction(tr("Send the selection to the agent"));
        sendSelection->setObjectName(QStringLiteral("sendSelectionToAgent"));
        sendSelection->setEnabled(!selected.trimmed().isEmpty());
        connect(sendSelection, &QAction::triggered, this, [this, selected, job] {
            const AgentContext::Context context = AgentContext::forSelection(selected, job.data());
            m_panel->addContext(context.resource, context.label);
            showPanel();
        });
    });
}

void AgentDock::connectDefinitions(DefinitionsPanel *panel, DefinitionsModel *model)
{
    connect(panel, &DefinitionsPanel::sendToAgentRequested, this, [this, model](const DefinitionsModel::Definition &definition) {
        const AgentContext::Context context = AgentContext::forDefinition(definition, model->location(definition));
        m_panel->addContext(context.resource, context.label);
        showPanel();
    });
}

void AgentDock::connectDebugger(DebuggerPanel *panel, QDockWidget *dock)
{
    connect(panel, &DebuggerPanel::sendToAgentRequested, this, [this](const DebuggerPtr &debugger) {
        const AgentContext::Context context = AgentContext::forDebugger(*debugger, m_session);
        m_panel->addContext(context.resource, context.label);
        showPanel();
    });
    connect(m_panel, &AgentPanel::debuggerRequested, this, [panel, dock](int debuggerId) {
        dock->show();
        dock->raise();
        panel->showDebugger(debuggerId);
        panel->setFocus(Qt::OtherFocusReason);
    });
}

#pragma once

#include "AgentSettings.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

// File ▸ Settings ▸ Agents (issue 38): the coding agents the window can host, one row each —
// name, command line (program and arguments), environment (KEY=value; separated by ";"), the
// mode its conversations start in — edited in place. Claude Code, Gemini CLI and Codex are
// built in: their command shows what was found (installer/agents.sh's launcher, or the program
// on PATH) until the person gives another; they cannot be removed. Add makes a row for any other
// ACP agent; Remove takes the person's own away. Below, whether the selected agent can start,
// and if not, the command that fixes it.
class AgentsPage : public QWidget
{
    Q_OBJECT
public:
    enum Column { NameColumn, CommandColumn, EnvironmentColumn, ModeColumn, ColumnCount };

    explicit AgentsPage(QWidget *parent = nullptr);

    void setAgents(const QList<ConfiguredAgent> &agents);
    // The table as the person left it; a row of their own without a name or a command is left out.
    QList<ConfiguredAgent> agents() const;

    QTableWidget *table() const { return m_table; }
    QPushButton *addButton() const { return m_add; }
    QPushButton *editButton() const { return m_edit; }
    QPushButton *removeButton() const { return m_remove; }
    QString status() const; // what the line under the table says of the selected agent

private:
    void addRow(const ConfiguredAgent &agent);
    ConfiguredAgent rowAgent(int row) const;
    void updateButtons();

    QTableWidget *m_table;
    QPushButton *m_add;
    QPushButton *m_edit;
    QPushButton *m_remove;
    QLabel *m_status;
    QList<ConfiguredAgent> m_builtIns; // their keys and what was found for them
};

#pragma once

#include "SlashCommands.h"

#include "inputhistory/HistoryEdit.h"

class QCompleter;
class QStringListModel;

// The Agent panel's prompt box: Enter sends, Shift+Enter opens a new line, Up on the first line
// and Down on the last walk the history (CommandHistory, as the REPL's input does, in a file of
// its own), Esc asks to stop the turn, and "/" at the start offers the agent's slash commands
// (Tab or Enter takes the one chosen).
class AgentPromptEdit : public HistoryEdit
{
    Q_OBJECT
public:
    explicit AgentPromptEdit(QWidget *parent = nullptr);

    void setCommands(const QList<Acp::AvailableCommand> &commands);
    const SlashCommands &commands() const { return m_commands; }
    QCompleter *completer() const { return m_completer; }
    // The commands offered now, as the popup lists them ("/explain — ...").
    QStringList offered() const;

    // What Enter does: the text goes to the history and out through submitted(); the box empties.
    void submit();

Q_SIGNALS:
    void submitted(const QString &text);
    void escapePressed();

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void offerCommands();
    void takeCommand(int row);

    SlashCommands m_commands;
    QList<Acp::AvailableCommand> m_offered;
    QCompleter *m_completer;
    QStringListModel *m_model;
};

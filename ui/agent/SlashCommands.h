#pragma once

#include "acp/AcpTypes.h"

#include <QList>
#include <QString>

// The slash commands an agent announced (available_commands_update), as the prompt box offers
// them: typing "/" at the start of the prompt lists them, the letters after it narrow the list
// (names that start with them first, then names that contain them). Widget-free.
class SlashCommands
{
public:
    void setCommands(const QList<Acp::AvailableCommand> &commands) { m_commands = commands; }
    const QList<Acp::AvailableCommand> &commands() const { return m_commands; }

    // Whether the person is typing a command's name: the text starts with "/" and the cursor
    // is in its first word. `prefix` gets what follows the "/" up to the cursor.
    static bool typingCommand(const QString &text, int cursor, QString *prefix = nullptr);
    QList<Acp::AvailableCommand> matching(const QString &prefix) const;
    // What choosing it puts in the prompt: "/name " (with a space when it takes input).
    static QString completion(const Acp::AvailableCommand &command);
    // "/explain — Explains the selection (what to explain)"
    static QString describe(const Acp::AvailableCommand &command);

private:
    QList<Acp::AvailableCommand> m_commands;
};

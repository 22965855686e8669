#include "SlashCommands.h"

bool SlashCommands::typingCommand(const QString &text, int cursor, QString *prefix)
{
    if (!text.startsWith(u'/') || cursor < 1 || cursor > text.size())
        return false;
    const QString typed = text.mid(1, cursor - 1);
    for (const QChar c : typed) {
        if (c.isSpace())
            return false;
    }
    if (prefix)
        *prefix = typed;
    return true;
}

QList<Acp::AvailableCommand> SlashCommands::matching(const QString &prefix) const
{
    QList<Acp::AvailableCommand> starting, containing;
    for (const Acp::AvailableCommand &command : m_commands) {
        if (command.name.startsWith(prefix, Qt::CaseInsensitive))
            starting << command;
        else if (!prefix.isEmpty() && command.name.contains(prefix, Qt::CaseInsensitive))
            containing << command;
    }
    return starting + containing;
}

QString SlashCommands::completion(const Acp::AvailableCommand &command)
{
    return QLatin1Char('/') + command.name + QLatin1Char(' ');
}

QString SlashCommands::describe(const Acp::AvailableCommand &command)
{
    QString text = QLatin1Char('/') + command.name;
    if (!command.description.isEmpty()) {
        QString description = command.description.section(u'\n', 0, 0);
        if (description.size() > 90)
            description = description.left(89) + QChar(0x2026);
        text += QStringLiteral(" \u2014 ") + description;
    }
    if (!command.inputHint.isEmpty())
        text += QStringLiteral(" (%1)").arg(command.inputHint);
    return text;
}

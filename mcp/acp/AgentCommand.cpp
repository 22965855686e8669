#include "AgentCommand.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

#include <unistd.h>

// Written here: QProcess::splitCommand knows double quotes only, and people paste command lines
// with single quotes from shell documentation.
AgentCommand AgentCommand::parse(const QString &commandLine, QString *error)
{
    QStringList words;
    QString word;
    bool inWord = false;
    QChar quote;
    for (qsizetype i = 0; i < commandLine.size(); ++i) {
        const QChar c = commandLine.at(i);
        if (quote == u'\'') {
            if (c == u'\'')
                quote = QChar();
            else
                word += c;
        } else if (quote == u'"') {
            if (c == u'"') {
                quote = QChar();
            } else if (c == u'\\' && i + 1 < commandLine.size()
                       && QStringView(u"\"\\$`").contains(commandLine.at(i + 1))) {
                word += commandLine.at(++i);
            } else {
                word += c;
            }
        } else if (c == u'\'' || c == u'"') {
            quote = c;
            inWord = true;
        } else if (c == u'\\' && i + 1 < commandLine.size()) {
            word += commandLine.at(++i);
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words.append(std::exchange(word, {}));
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (!quote.isNull()) {
        if (error)
            *error = QStringLiteral("The command line has an unclosed %1 quote.").arg(quote);
        return {};
    }
    if (inWord)
        words.append(word);
    if (words.isEmpty()) {
        if (error)
            *error = QStringLiteral("The command line is empty.");
        return {};
    }
    AgentCommand command;
    command.program = words.takeFirst();
    command.arguments = words;
    command.name = QFileInfo(command.program).fileName();
    return command;
}

QString AgentCommand::commandLine() const
{
    QStringList words;
    for (const QString &word : QStringList{program} + arguments) {
        static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:=@%+,-]+$"));
        words.append(plain.match(word).hasMatch() ? word : QLatin1Char('\'') + QString(word).replace(u'\'', QStringLiteral("'\\''")) + QLatin1Char('\''));
    }
    return words.join(QLatin1Char(' '));
}

QProcessEnvironment AgentCommand::processEnvironment(const QProcessEnvironment &base) const
{
    QProcessEnvironment env = base;
    // Claude Code takes "1" only (an IS_SANDBOX=yes inherited from a container still fails);
    // the command's own variables come after, so a person's setting wins.
    if (::geteuid() == 0)
        env.insert(QStringLiteral("IS_SANDBOX"), QStringLiteral("1"));
    for (const auto &[key, value] : environment)
        env.insert(key, value);
    return env;
}

QString AgentCommand::resolvedProgram() const
{
    if (program.contains(QLatin1Char('/'))) {
        const QFileInfo file(program);
        return file.isFile() && file.isExecutable() ? file.absoluteFilePath() : QString();
    }
    QString path = qEnvironmentVariable("PATH");
    for (const auto &[key, value] : environment) {
        if (key == QLatin1String("PATH"))
            path = value;
    }
    return QStandardPaths::findExecutable(program, path.split(QLatin1Char(':'), Qt::SkipEmptyParts));
}

AgentCommand AgentCommand::forLogin(const Acp::AuthMethod &method) const
{
    AgentCommand login = *this;
    login.arguments += method.args;
    login.environment += method.env;
    return login;
}

QString AgentCommand::installedAgentsBin()
{
    QString root = qEnvironmentVariable("LISP_DUET_AGENTS_DIR");
    if (root.isEmpty()) {
        QString data = qEnvironmentVariable("XDG_DATA_HOME");
        if (data.isEmpty())
            data = QDir::homePath() + QStringLiteral("/.local/share");
        root = data + QStringLiteral("/lisp-duet/agents");
    }
    return root + QStringLiteral("/bin");
}

QList<KnownAgent> AgentCommand::knownAgents()
{
    struct Spec
    {
        const char *key, *title, *launcher, *onPath, *argument;
    };
    static const Spec specs[] = {
        {"claude", "Claude Code", "claude-agent-acp", "claude-agent-acp", nullptr},
        {"gemini", "Gemini CLI", "gemini", "gemini", "--acp"},
        {"codex", "Codex", "codex-acp", "codex-acp", nullptr},
    };
    QList<KnownAgent> known;
    const QString bin = installedAgentsBin();
    for (const Spec &spec : specs) {
        KnownAgent agent;
        agent.key = QString::fromLatin1(spec.key);
        agent.title = QString::fromLatin1(spec.title);
        agent.command.name = agent.title;
        const QString installed = bin + QLatin1Char('/') + QString::fromLatin1(spec.launcher);
        agent.command.program = QFileInfo(installed).isExecutable() ? installed : QString::fromLatin1(spec.onPath);
        if (spec.argument)
            agent.command.arguments = {QString::fromLatin1(spec.argument)};
        agent.found = !agent.command.resolvedProgram().isEmpty();
        if (!agent.found) {
            agent.missing = QStringLiteral("%1 is not installed: run installer/agents.sh %2 (it installs Node 22 and %1 "
                                           "under %3 without root), or put %4 on your PATH.")
                                .arg(agent.title, agent.key, QFileInfo(bin).path(), QString::fromLatin1(spec.onPath));
        }
        known.append(agent);
    }
    return known;
}

AgentCommand AgentCommand::fromNameOrCommandLine(const QString &text, QString *error)
{
    const QString wanted = text.trimmed();
    for (const KnownAgent &agent : knownAgents()) {
        if (wanted.compare(agent.key, Qt::CaseInsensitive) == 0 || wanted.compare(agent.title, Qt::CaseInsensitive) == 0) {
            if (!agent.found && error)
                *error = agent.missing;
            return agent.found ? agent.command : AgentCommand();
        }
    }
    return parse(wanted, error);
}

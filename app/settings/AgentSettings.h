#pragma once

#include "acp/AgentCommand.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

class QSettings;

// One coding agent the window can host (issue 38), as the person configured it: Claude Code,
// Gemini CLI and Codex are built in (their command is the one installer/agents.sh installed,
// else the program on PATH, unless the person gave another); any other ACP agent is added with
// its name, command, arguments and environment. Each keeps the mode its new conversations start
// in (the person's last choice in the panel; empty: the one that asks, `default`).
struct ConfiguredAgent
{
    QString key;  // claude, gemini, codex for the built-in ones; empty for the person's own
    QString name; // what the chooser shows, and --agent NAME finds
    QString program; // empty for a built-in one: found as AgentCommand::knownAgents() says
    QStringList arguments;
    QList<QPair<QString, QString>> environment; // added to Lisp Duet's own (API keys pass through)
    QString mode;

    bool isBuiltIn() const { return !key.isEmpty(); }
    // The command to start: the built-in one found, or program and arguments, with the
    // environment, named `name`.
    AgentCommand command() const;
    // "KEY=value" lines, as the settings page edits them.
    QStringList environmentLines() const;
    static QList<QPair<QString, QString>> environmentFrom(const QStringList &lines);

    bool operator==(const ConfiguredAgent &other) const = default;
};

// The table of configured agents in the settings ("agents/list"), the built-in ones first.
namespace AgentSettings {

QList<ConfiguredAgent> builtIns();
QList<ConfiguredAgent> load(const QSettings &settings);
void save(QSettings &settings, const QList<ConfiguredAgent> &agents);

// Keeps the mode the person chose for the agent named `name` (its next conversations start in
// it), leaving the rest of the settings as they are.
void rememberMode(const QString &name, const QString &modeId);
void rememberMode(QSettings &settings, const QString &name, const QString &modeId);
QString modeOf(const QList<ConfiguredAgent> &agents, const QString &name);

// What --agent NAME means: a configured agent by name or key (any case), else a whole command
// line ("gemini --acp"), which is named by its program. Empty, with *error, when it is neither.
AgentCommand resolve(const QList<ConfiguredAgent> &agents, const QString &nameOrCommandLine, QString *error = nullptr);

} // namespace AgentSettings

#pragma once

#include "AcpTypes.h"

#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

// A configured agent: a name for the person, the program to start, its arguments and the
// environment variables set for it (added to Lisp Duet's own, so API keys in the person's
// environment pass through). Made from Settings' fields, from a whole command line
// ("gemini --acp", as `--agent` takes it), or from one of the known agents, found where
// installer/agents.sh installs them or on PATH.
struct KnownAgent;

class AgentCommand
{
public:
    QString name;
    QString program;
    QStringList arguments;
    QList<QPair<QString, QString>> environment;

    bool isEmpty() const { return program.isEmpty(); }

    // Splits a command line as a shell would split words (quotes and backslashes; no expansion).
    // `name` is the program's file name. Empty when the line is empty or its quotes are open.
    static AgentCommand parse(const QString &commandLine, QString *error = nullptr);
    // The line again, quoted where needed, for the person to read and copy.
    QString commandLine() const;

    // The environment the agent gets: `base` (normally the app's own), IS_SANDBOX=1 when Lisp
    // Duet runs as root (Claude Code refuses a session as root without exactly that; as any other
    // user it is not set), then this command's variables over both.
    QProcessEnvironment processEnvironment(const QProcessEnvironment &base = QProcessEnvironment::systemEnvironment()) const;

    // The program as an absolute path: as given when it has a slash, else looked up on PATH (of
    // `environment` when it sets PATH, else the app's). Empty when not found.
    QString resolvedProgram() const;

    // The command a terminal runs for an AuthMethod of type "terminal": this command with the
    // method's arguments added and its variables set.
    AgentCommand forLogin(const Acp::AuthMethod &method) const;

    // Where installer/agents.sh puts its launchers: LISP_DUET_AGENTS_DIR, else
    // $XDG_DATA_HOME/lisp-duet/agents (~/.local/share/lisp-duet/agents), then bin/.
    static QString installedAgentsBin();

    // The agents Lisp Duet knows by name: "claude" (Claude Code), "gemini", "codex". Each is the
    // launcher installer/agents.sh made when it exists, else the program of that name on PATH
    // (claude-agent-acp, gemini --acp, codex-acp). `missing` says, when neither exists, what to
    // run to get it.
    static QList<KnownAgent> knownAgents();
    // A known agent's key or title, else a whole command line.
    static AgentCommand fromNameOrCommandLine(const QString &text, QString *error = nullptr);
};

struct KnownAgent
{
    QString key;     // claude, gemini, codex
    QString title;   // Claude Code, Gemini CLI, Codex
    AgentCommand command;
    bool found = false;
    QString missing; // empty when found: what to run to get it
};

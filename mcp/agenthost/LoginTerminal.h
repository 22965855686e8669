#pragma once

#include "acp/AgentCommand.h"

#include <QObject>
#include <QProcess>

// An agent's login (ACP's auth method of type "terminal", issue 38) run where the person can
// type: the agent's command with the method's arguments, in a terminal emulator ($TERMINAL,
// else Debian's x-terminal-emulator, else xterm), each started as `TERMINAL -e PROGRAM ARGS...`
// with the agent's environment. Without one, it says exactly what to run instead.
class LoginTerminal : public QObject
{
    Q_OBJECT
public:
    explicit LoginTerminal(QObject *parent = nullptr);

    // The terminal emulator found, as an absolute path; empty when there is none.
    static QString terminal();
    // Starts `login` in a terminal in `workingDirectory`. False, with what the person is to run
    // themselves in *instead, when no terminal could start it.
    bool run(const AgentCommand &login, const QString &workingDirectory, QString *instead);

Q_SIGNALS:
    // The terminal closed (many emulators hand their window to a server and return at once:
    // the login may still go on; the host then simply asks again).
    void finished();

private:
    QProcess *m_process = nullptr;
};

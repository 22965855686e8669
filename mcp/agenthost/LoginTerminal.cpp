#include "LoginTerminal.h"

#include <QStandardPaths>

LoginTerminal::LoginTerminal(QObject *parent) : QObject(parent) {}

QString LoginTerminal::terminal()
{
    // The person's own choice first; then Debian's alternative, which every terminal package
    // provides and which takes -e; then the one that is nearly always there.
    QStringList candidates;
    if (const QString chosen = qEnvironmentVariable("TERMINAL"); !chosen.isEmpty())
        candidates << chosen;
    candidates << QStringLiteral("x-terminal-emulator") << QStringLiteral("xterm");
    for (const QString &candidate : candidates) {
        const QString found = candidate.contains(QLatin1Char('/')) ? candidate : QStandardPaths::findExecutable(candidate);
        if (!found.isEmpty())
            return found;
    }
    return {};
}

bool LoginTerminal::run(const AgentCommand &login, const QString &workingDirectory, QString *instead)
{
    const QString program = login.resolvedProgram();
    const QString emulator = terminal();
    if (program.isEmpty() || emulator.isEmpty()) {
        if (instead)
            *instead = login.commandLine();
        return false;
    }
    if (m_process)
        m_process->deleteLater();
    m_process = new QProcess(this);
    m_process->setProcessEnvironment(login.processEnvironment());
    m_process->setWorkingDirectory(workingDirectory);
    m_process->setProgram(emulator);
    m_process->setArguments(QStringList{QStringLiteral("-e"), program} + login.arguments);
    m_process->setStandardOutputFile(QProcess::nullDevice());
    m_process->setStandardErrorFile(QProcess::nullDevice());
    connect(m_process, &QProcess::finished, this, &LoginTerminal::finished);
    m_process->start();
    if (!m_process->waitForStarted(5000)) {
        if (instead)
            *instead = login.commandLine();
        return false;
    }
    return true;
}

#include "AgentProcess.h"

#include <QFileInfo>
#include <QLoggingCategory>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcAgentProcess, "duet.acp.process")

AgentProcess::AgentProcess(QObject *parent)
    : QObject(parent)
{
    m_kill.setSingleShot(true);
    connect(&m_kill, &QTimer::timeout, this, [this] { signalGroup(SIGKILL); });
}

AgentProcess::~AgentProcess()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        disconnect(m_process, nullptr, this, nullptr);
        m_process->closeWriteChannel();
        signalGroup(SIGTERM);
        if (!m_process->waitForFinished(m_graceMs)) {
            signalGroup(SIGKILL);
            m_process->waitForFinished(1000);
        }
    }
    // What the agent started and left in its group goes with it.
    if (groupAlive())
        signalGroup(SIGKILL);
}

void AgentProcess::start(const AgentCommand &command, const QString &workingDirectory)
{
    Q_ASSERT(!m_process);
    m_command = command;
    const QString program = command.resolvedProgram();
    if (program.isEmpty()) {
        const QString reason = command.program.contains(QLatin1Char('/'))
            ? QStringLiteral("%1 does not exist or is not executable.").arg(command.program)
            : QStringLiteral("%1 was not found on PATH.").arg(command.program);
        QMetaObject::invokeMethod(this, [this, reason] { Q_EMIT failedToStart(reason); }, Qt::QueuedConnection);
        return;
    }
    m_process = new QProcess(this);
    m_process->setProgram(program);
    m_process->setArguments(command.arguments);
    m_process->setProcessEnvironment(command.processEnvironment());
    if (!workingDirectory.isEmpty())
        m_process->setWorkingDirectory(workingDirectory);
    // A session of its own: no controlling terminal (a login prompt cannot steal the person's),
    // and a process group whose id is its pid, for signalGroup. Should the app die without
    // ending it, the kernel ends the agent; what it started sees its stdin close.
    m_process->setChildProcessModifier([parent = ::getpid()] {
        ::setsid();
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent)
            ::_exit(127);
    });
    connect(m_process, &QProcess::readyReadStandardOutput, this, &AgentProcess::onStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &AgentProcess::onStderr);
    connect(m_process, &QProcess::finished, this, &AgentProcess::onFinished);
    connect(m_process, &QProcess::started, this, [this] {
        m_group = m_process->processId();
        Q_EMIT started();
    });
    connect(m_process, &QProcess::errorOccurred, this, [this, program](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            Q_EMIT failedToStart(QStringLiteral("%1 could not be started: %2").arg(program, m_process->errorString()));
    });
    m_process->start();
}

bool AgentProcess::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

void AgentProcess::writeLine(const QByteArray &line)
{
    if (!isRunning() || m_stopping)
        return;
    m_process->write(line + '\n');
}

void AgentProcess::stop()
{
    if (!m_process || m_process->state() == QProcess::NotRunning) {
        if (groupAlive())
            signalGroup(SIGKILL);
        return;
    }
    if (m_stopping)
        return;
    m_stopping = true;
    m_process->closeWriteChannel();
    signalGroup(SIGTERM);
    m_kill.start(m_graceMs);
}

QStringList AgentProcess::stderrTail(int lines) const
{
    return m_tail.mid(qMax(0, m_tail.size() - lines));
}

void AgentProcess::onStdout()
{
    const LineBuffer::Lines lines = m_stdout.append(m_process->readAllStandardOutput());
    for (int i = 0; i < lines.oversized; ++i) {
        ++m_dropped;
        qCWarning(lcAgentProcess).noquote() << m_command.name << "wrote a line over" << m_stdout.maxLineBytes() << "bytes: dropped";
        Q_EMIT lineDropped(m_stdout.maxLineBytes());
    }
    for (const QByteArray &line : lines.complete)
        Q_EMIT lineReceived(line);
}

void AgentProcess::onStderr()
{
    const LineBuffer::Lines lines = m_stderr.append(m_process->readAllStandardError());
    for (int i = 0; i < lines.oversized; ++i)
        addStderr(QStringLiteral("[a line of more than %1 bytes, not kept]").arg(m_stderr.maxLineBytes()));
    for (const QByteArray &line : lines.complete)
        addStderr(QString::fromUtf8(line));
}

void AgentProcess::addStderr(const QString &line)
{
    m_tail.append(line);
    if (m_tail.size() > StderrTailLines)
        m_tail.removeFirst();
    Q_EMIT stderrLine(line);
}

void AgentProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    onStdout();
    onStderr();
    const QByteArray rest = m_stdout.takeRest();
    if (!rest.trimmed().isEmpty())
        Q_EMIT lineReceived(rest);
    const QString errRest = QString::fromUtf8(m_stderr.takeRest());
    if (!errRest.trimmed().isEmpty())
        addStderr(errRest);
    // The agent is gone; what it started in its group goes too (after the same grace period).
    if (groupAlive()) {
        signalGroup(SIGTERM);
        m_kill.start(m_graceMs);
    }
    Q_EMIT exited(exitCode, status == QProcess::CrashExit, stderrTail(10));
}

void AgentProcess::signalGroup(int signal)
{
    if (m_group > 0)
        ::kill(-pid_t(m_group), signal);
}

bool AgentProcess::groupAlive() const
{
    return m_group > 0 && ::kill(-pid_t(m_group), 0) == 0;
}

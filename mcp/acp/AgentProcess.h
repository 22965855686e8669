#pragma once

#include "AgentCommand.h"
#include "client/LineBuffer.h"

#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTimer>

// An agent's process: started in a session and process group of its own (setsid), so that
// ending it ends everything it started (the claude program the adapter runs, the MCP bridges
// that starts): SIGTERM to the whole group, SIGKILL after a grace period; when the agent itself
// exits, whatever it left in its group is ended the same way, and a destroyed AgentProcess
// leaves nothing behind. Its stdout is read as lines (LineBuffer; a line over the cap is
// dropped and reported, the lines after it are read as usual); its stderr is the agent's log:
// each line is reported, and the last ones are kept to say why it ended.
class AgentProcess : public QObject
{
    Q_OBJECT
public:
    // The ACP SDK's own limit on one message (DEFAULT_MAX_MESSAGE_BYTES).
    static constexpr qsizetype DefaultMaxLineBytes = 32 * 1024 * 1024;
    static constexpr int StderrTailLines = 40;

    explicit AgentProcess(QObject *parent = nullptr);
    ~AgentProcess() override; // ends the group now (SIGTERM, the grace period, SIGKILL)

    void setMaxLineBytes(qsizetype bytes) { m_stdout = LineBuffer(bytes); }
    void setGraceMs(int ms) { m_graceMs = ms; }

    // Starts `command` (its program resolved on PATH) in `workingDirectory`. Reports started(),
    // or failedToStart() with the reason in words.
    void start(const AgentCommand &command, const QString &workingDirectory = {});
    bool isRunning() const;
    qint64 processGroup() const { return m_group; } // the agent's pid; 0 before start
    const AgentCommand &command() const { return m_command; }

    // One JSON-RPC message: `line` must not contain a newline; one is added.
    void writeLine(const QByteArray &line);
    // Asks it to end: closes its stdin, SIGTERM to its group, SIGKILL after the grace period.
    // exited() follows.
    void stop();

    QStringList stderrTail(int lines = StderrTailLines) const;
    int droppedLines() const { return m_dropped; }

Q_SIGNALS:
    void started();
    void failedToStart(const QString &reason);
    void lineReceived(const QByteArray &line);
    void lineDropped(qsizetype maxLineBytes);
    void stderrLine(const QString &line);
    // exitCode is the status it exited with; crashed: killed by a signal (ours after stop()
    // too). lastStderr: the last lines it wrote to stderr.
    void exited(int exitCode, bool crashed, const QStringList &lastStderr);

private:
    void onStdout();
    void onStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void signalGroup(int signal);
    bool groupAlive() const;
    void addStderr(const QString &line);

    QProcess *m_process = nullptr;
    AgentCommand m_command;
    qint64 m_group = 0;
    LineBuffer m_stdout{DefaultMaxLineBytes};
    LineBuffer m_stderr{64 * 1024};
    QStringList m_tail;
    int m_dropped = 0;
    int m_graceMs = 2000;
    bool m_stopping = false;
    QTimer m_kill; // SIGKILL to the group when the grace period is over
};

#pragma once

#include "LineBuffer.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QProcess>

class QSocketNotifier;

// Owns the lisp-duet-engine child process: starts it, frames the line protocol, routes
// replies and output events by request id, and starts a new engine when one dies.
// It knows nothing of queues or origins; that is the Session's job.
class EngineClient : public QObject
{
    Q_OBJECT
public:
    enum class State { Stopped, Starting, Ready, Failed };
    Q_ENUM(State)

    explicit EngineClient(QObject *parent = nullptr);
    ~EngineClient() override;

    // Where the engine binary is: $LISP_DUET_ENGINE, beside the app, or in libexec.
    static QString locateEngine();
    void setEnginePath(const QString &path) { m_enginePath = path; }
    QString enginePath() const { return m_enginePath; }
    // The engine's command-line arguments ("--no-native"), from its next start on.
    void setArguments(const QStringList &arguments) { m_arguments = arguments; }
    QStringList arguments() const { return m_arguments; }

    void start();
    void stop();
    // Kills the engine (if any) and starts a fresh one; `reason` is reported in died().
    void restart(const QString &reason);

    State state() const { return m_state; }
    bool isReady() const { return m_state == State::Ready; }
    QJsonObject engineInfo() const { return m_info; }
    qint64 pid() const { return m_process ? m_process->processId() : 0; }

    // Sends one request; it must carry an integer "id" and an "op".
    bool send(const QJsonObject &request);
    // The same, already written as one line of JSON text (without its newline).
    bool sendLine(const QByteArray &json);
    void interrupt(quint64 id);
    // Hands a copy of descriptor `fd` to the running engine over its descriptor channel (a
    // socket pair the engine has as fd 3, EngineProtocol::DescriptorChannel), tagged with
    // `token`, for the request that names it: the Swank port's listening socket the host holds
    // (issue 41; editor-listen's "descriptor_token"). False when there is no engine.
    bool passDescriptor(int fd, const QByteArray &token);

    // The longest line read from the engine. The kernel caps what a job prints and returns
    // (max_output_chars, at most 10 million characters), so only a damaged engine reaches it.
    static constexpr qsizetype DefaultMaxLineBytes = 256 * 1024 * 1024;
    // How long the event loop looks for the engine's answer before it sleeps, after a request.
    static constexpr int DefaultSpinMicroseconds = 200;
    void setMaxLineBytes(qsizetype bytes) { m_lines = LineBuffer(bytes); }

Q_SIGNALS:
    void ready(const QJsonObject &info);
    void reply(quint64 id, const QJsonObject &reply);
    void output(quint64 id, const QString &stream, const QString &text);
    // The debugger's events (EngineProtocol::ParkedEvent, UnparkedEvent) for job `id`.
    void parked(quint64 id, const QJsonObject &event);
    void unparked(quint64 id, const QJsonObject &event);
    void stillParked(quint64 id, const QJsonObject &event);
    // Any other event, whole: the person's editor's ("editor-request", "editor-connected"...),
    // the background compiler's ("native") and a load's "progress" (engine/README.md).
    void otherEvent(const QJsonObject &event);
    // Bytes the engine process wrote to its own stdout/stderr, outside any Lisp stream.
    void processOutput(const QString &text);
    // The engine went away; every request in flight is lost. A new engine is starting
    // unless the state is Failed.
    void died(const QString &reason);
    // A line over the cap was dropped (LineBuffer): most likely the reply of the running job.
    void lineDropped(qsizetype maxLineBytes);

private:
    void awaitReplyBriefly();
    void launch();
    bool openPipes();
    void closePipes();
    void writeUnsent();
    void onStdout();
    void onStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void handleLine(const QByteArray &line);
    void setState(State state);
    QString describeExit(int exitCode, QProcess::ExitStatus status) const;

    QString m_enginePath;
    QStringList m_arguments;
    QProcess *m_process = nullptr;
    // The protocol's two pipes are the engine's stdin and stdout, made here rather than by
    // QProcess: a request is written straight into the pipe when it is sent (QProcess holds it
    // until its event loop sees the pipe writable, one more pass and poll per request) and a
    // reply is read as soon as the pipe is readable. QProcess still starts and watches the
    // process and reads its stderr.
    int m_toEngine = -1;
    int m_fromEngine = -1;
    int m_descriptors = -1;      // the app's end of the engine's descriptor channel
    int m_childDescriptors = -1; // the engine's end, open in the app until the engine has it
    int m_childStdin = -1;  // the engine's ends, open in the app until the engine has them
    int m_childStdout = -1;
    QSocketNotifier *m_readable = nullptr;
    QSocketNotifier *m_writable = nullptr;
    QByteArray m_unsent; // what the pipe did not take yet
    qint64 m_readAt = 0; // when the newest bytes came from the engine, for the stage log
    bool m_replyDue = false; // a request went out since the event loop last slept
    int m_spinMicroseconds = DefaultSpinMicroseconds;
    LineBuffer m_lines{DefaultMaxLineBytes};
    QJsonObject m_info;
    State m_state = State::Stopped;
    QString m_pendingReason; // set when we kill the engine on purpose
    QElapsedTimer m_uptime;
    int m_quickDeaths = 0;
};

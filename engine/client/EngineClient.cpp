#include "EngineClient.h"

#include "EngineProtocol.h"
#include "json/JsonTextWriter.h"
#include "StageLog.h"

#include <QAbstractEventDispatcher>
#include <QCoreApplication>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcEngine, "duet.engine")

namespace {
// An engine that dies this soon after starting, this many times in a row, is broken
// (a bad installation, not bad user code): stop restarting it.
constexpr qint64 QuickDeathMs = 2000;
constexpr int MaxQuickDeaths = 3;

// The protocol's pipes are written with write(2), not through QProcess (which ignores SIGPIPE
// for its own writes): a request written just after the engine died must fail with EPIPE,
// which onFinished then reports, not end the host. Ignored process-wide, once, as Qt's own
// sockets and QProcess do (QtTest's fatal-signal handler would otherwise end a test with it).
void ignoreBrokenPipes()
{
    static const bool ignored = [] {
        struct sigaction ignore{};
        ignore.sa_handler = SIG_IGN;
        ::sigemptyset(&ignore.sa_mask);
        return ::sigaction(SIGPIPE, &ignore, nullptr) == 0;
    }();
    Q_UNUSED(ignored);
}
} // namespace

EngineClient::EngineClient(QObject *parent) : QObject(parent), m_enginePath(locateEngine())
{
    ignoreBrokenPipes();
    bool ok = false;
    const int spin = qEnvironmentVariableIntValue("LISP_DUET_SPIN_US", &ok);
    if (ok)
        m_spinMicroseconds = qBound(0, spin, 10000);
    if (QAbstractEventDispatcher *dispatcher = QAbstractEventDispatcher::instance(thread()))
        connect(dispatcher, &QAbstractEventDispatcher::aboutToBlock, this, &EngineClient::awaitReplyBriefly);
}

void EngineClient::awaitReplyBriefly()
{
    // Once per request: the event loop is about to sleep until the engine answers. Most answers
    // take tens of microseconds, and a process woken from sleep on another CPU pays more than
    // that again on a virtual machine; so it looks for the answer for a moment first. Nothing
    // is spent while no request is on its way, and the loop sleeps as before when the answer
    // takes longer (LISP_DUET_SPIN_US, 0 to 10,000; 0 turns it off).
    if (!m_replyDue)
        return;
    m_replyDue = false;
    if (m_fromEngine < 0 || m_spinMicroseconds <= 0)
        return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(m_spinMicroseconds);
    pollfd readable{m_fromEngine, POLLIN, 0};
    do {
        if (::poll(&readable, 1, 0) != 0)
            return; // an answer (or the end of the pipe): the event loop reads it without sleeping
        sched_yield(); // a busy machine's other work (the engine itself, on one CPU) goes first
    } while (std::chrono::steady_clock::now() < until);
}

EngineClient::~EngineClient()
{
    stop();
}

QString EngineClient::locateEngine()
{
    const QString fromEnvironment = qEnvironmentVariable("LISP_DUET_ENGINE");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    const QString appDir = QCoreApplication::applicationDirPath();
    for (const QString &candidate : {appDir + QStringLiteral("/lisp-duet-engine"),
                                     appDir + QStringLiteral("/../libexec/lisp-duet/lisp-duet-engine"),
                                     appDir + QStringLiteral("/../lib/lisp-duet/lisp-duet-engine")}) {
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    }
    return appDir + QStringLiteral("/lisp-duet-engine");
}

void EngineClient::start()
{
    if (m_process)
        return;
    m_quickDeaths = 0;
    launch();
}

void EngineClient::launch()
{
    m_lines = LineBuffer(m_lines.maxLineBytes());
    m_info = {};
    if (!openPipes()) {
        const QString reason = QStringLiteral("the engine's pipes could not be made: %1").arg(QString::fromLocal8Bit(strerror(errno)));
        qCWarning(lcEngine).noquote() << reason;
        setState(State::Failed);
        Q_EMIT died(reason);
        return;
    }
    m_process = new QProcess(this);
    m_process->setProgram(m_enginePath);
    m_process->setArguments(m_arguments);
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    m_process->setStandardInputFile(QProcess::nullDevice());
    m_process->setStandardOutputFile(QProcess::nullDevice());
    // The engine is the app's, not the terminal's: in a group of its own, a Ctrl+C or a SIGTERM
    // sent to the app's group reaches the app alone, which then stops the engine in order
    // (instead of the engine dying first and the app reporting a crash). Should the app die
    // without stopping it, the kernel sends it SIGKILL: nobody else could talk to it.
    // Its stdin and stdout become the protocol's pipes (after QProcess set up its own channels;
    // dup2 leaves them open across exec, where every other descriptor of ours closes).
    // The descriptor channel becomes its fd 3 the same way.
    m_process->setChildProcessModifier([parent = ::getpid(), in = m_childStdin, out = m_childStdout,
                                        descriptors = m_childDescriptors] {
        if (::dup2(in, STDIN_FILENO) < 0 || ::dup2(out, STDOUT_FILENO) < 0)
            ::_exit(127);
        if (descriptors == EngineProtocol::DescriptorChannel ? ::fcntl(descriptors, F_SETFD, 0) < 0
                                                            : ::dup2(descriptors, EngineProtocol::DescriptorChannel) < 0)
            ::_exit(127);
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) // the app died before prctl took effect
            ::_exit(127);
    });
    connect(m_process, &QProcess::readyReadStandardError, this, &EngineClient::onStderr);
    connect(m_process, &QProcess::finished, this, &EngineClient::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            const QString reason = QStringLiteral("the engine %1 could not be started: %2")
                                       .arg(m_enginePath, m_process->errorString());
            qCWarning(lcEngine).noquote() << reason;
            m_process->deleteLater();
            m_process = nullptr;
            closePipes();
            setState(State::Failed);
            Q_EMIT died(reason);
        }
    });
    setState(State::Starting);
    m_uptime.start();
    m_process->start(QIODevice::ReadOnly);
    // The engine has its ends now (or never will): only its copies may keep them open, so that
    // its death reads as the end of the pipe.
    for (int *childEnd : {&m_childStdin, &m_childStdout, &m_childDescriptors}) {
        if (*childEnd >= 0)
            ::close(std::exchange(*childEnd, -1));
    }
}

bool EngineClient::openPipes()
{
    int toEngine[2];
    int fromEngine[2];
    if (::pipe2(toEngine, O_CLOEXEC) != 0)
        return false;
    if (::pipe2(fromEngine, O_CLOEXEC) != 0) {
        ::close(toEngine[0]);
        ::close(toEngine[1]);
        return false;
    }
    int descriptors[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, descriptors) != 0) {
        for (const int fd : {toEngine[0], toEngine[1], fromEngine[0], fromEngine[1]})
            ::close(fd);
        return false;
    }
    m_childStdin = toEngine[0];
    m_toEngine = toEngine[1];
    m_fromEngine = fromEngine[0];
    m_childStdout = fromEngine[1];
    m_descriptors = descriptors[0];
    m_childDescriptors = descriptors[1];
    ::fcntl(m_toEngine, F_SETFL, ::fcntl(m_toEngine, F_GETFL) | O_NONBLOCK);
    ::fcntl(m_fromEngine, F_SETFL, ::fcntl(m_fromEngine, F_GETFL) | O_NONBLOCK);
    m_readable = new QSocketNotifier(m_fromEngine, QSocketNotifier::Read, this);
    connect(m_readable, &QSocketNotifier::activated, this, &EngineClient::onStdout);
    m_writable = new QSocketNotifier(m_toEngine, QSocketNotifier::Write, this);
    m_writable->setEnabled(false);
    connect(m_writable, &QSocketNotifier::activated, this, &EngineClient::writeUnsent);
    m_unsent.clear();
    return true;
}

void EngineClient::closePipes()
{
    delete std::exchange(m_readable, nullptr);
    delete std::exchange(m_writable, nullptr);
    for (int *fd : {&m_toEngine, &m_fromEngine, &m_childStdin, &m_childStdout, &m_descriptors, &m_childDescriptors}) {
        if (*fd >= 0)
            ::close(std::exchange(*fd, -1));
    }
    m_unsent.clear();
}

void EngineClient::stop()
{
    if (!m_process)
        return;
    QProcess *process = m_process;
    m_process = nullptr;
    process->disconnect(this);
    closePipes(); // at end of input the supervisor ends
    if (!process->waitForFinished(1000)) {
        process->kill();
        process->waitForFinished(1000);
    }
    process->deleteLater();
    setState(State::Stopped);
}

bool EngineClient::passDescriptor(int fd, const QByteArray &token)
{
    if (!m_process || m_descriptors < 0 || fd < 0)
        return false;
    // One message: the token as its bytes, the descriptor beside them (SCM_RIGHTS).
    iovec data{const_cast<char *>(token.constData()), size_t(token.size())};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr message{};
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(header), &fd, sizeof(int));
    return ::sendmsg(m_descriptors, &message, MSG_NOSIGNAL | MSG_DONTWAIT) == ssize_t(token.size());
}

void EngineClient::restart(const QString &reason)
{
    if (!m_process) {
        launch();
        return;
    }
    m_pendingReason = reason;
    m_quickDeaths = 0;
    m_process->kill(); // onFinished reports the death and launches the next engine
}

bool EngineClient::send(const QJsonObject &request)
{
    return sendLine(JsonTextWriter::compact(request));
}

bool EngineClient::sendLine(const QByteArray &json)
{
    if (!m_process || m_state != State::Ready || m_toEngine < 0)
        return false;
    m_unsent.append(json);
    m_unsent.append('\n');
    m_replyDue = true;
    if (!m_writable->isEnabled()) // else the pipe is full, and the notifier says when it has room
        writeUnsent();
    return true;
}

void EngineClient::writeUnsent()
{
    qsizetype written = 0;
    while (written < m_unsent.size()) {
        const ssize_t n = ::write(m_toEngine, m_unsent.constData() + written, size_t(m_unsent.size() - written));
        if (n > 0) {
            written += n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && errno == EAGAIN) {
            break;
        } else {
            written = m_unsent.size(); // the engine is gone: onFinished reports it
            break;
        }
    }
    m_unsent.remove(0, written);
    m_writable->setEnabled(!m_unsent.isEmpty());
}

void EngineClient::interrupt(quint64 id)
{
    send(EngineProtocol::interruptLine(id));
}

void EngineClient::onStdout()
{
    const int fd = m_fromEngine;
    char chunk[65536];
    for (;;) {
        if (!m_process || m_fromEngine != fd) // a handler stopped or restarted the engine
            return;
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (StageLog::enabled())
            m_readAt = StageLog::now();
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0 || errno != EAGAIN)
                m_readable->setEnabled(false); // its end is closed: onFinished follows
            return;
        }
        const LineBuffer::Lines lines = m_lines.append(chunk, n);
        for (const QByteArray &line : lines.complete) {
            handleLine(line);
            if (!m_process || m_fromEngine != fd)
                return;
        }
        for (int i = 0; i < lines.oversized; ++i) {
            qCWarning(lcEngine) << "dropped a line from the engine longer than" << m_lines.maxLineBytes() << "bytes";
            Q_EMIT lineDropped(m_lines.maxLineBytes());
        }
        if (size_t(n) < sizeof chunk)
            return; // the pipe is empty now; the notifier says when it is not
    }
}

void EngineClient::handleLine(const QByteArray &line)
{
    const EngineProtocol::Incoming message = EngineProtocol::Incoming::decode(line);
    switch (message.kind()) {
    case EngineProtocol::Incoming::Kind::Output: {
        const EngineProtocol::OutputEvent event(message.json());
        Q_EMIT output(event.id(), event.stream(), event.text());
        break;
    }
    case EngineProtocol::Incoming::Kind::Ready:
        m_info = message.json();
        setState(State::Ready);
        Q_EMIT ready(message.json());
        break;
    case EngineProtocol::Incoming::Kind::Reply:
        if (StageLog::enabled())
            StageLog::mark("replied", qint64(message.id()), m_readAt);
        Q_EMIT reply(message.id(), message.json());
        break;
    case EngineProtocol::Incoming::Kind::Parked:
        Q_EMIT parked(message.id(), message.json());
        break;
    case EngineProtocol::Incoming::Kind::Unparked:
        Q_EMIT unparked(message.id(), message.json());
        break;
    case EngineProtocol::Incoming::Kind::StillParked:
        Q_EMIT stillParked(message.id(), message.json());
        break;
    case EngineProtocol::Incoming::Kind::OtherEvent:
        Q_EMIT otherEvent(message.json());
        break;
    case EngineProtocol::Incoming::Kind::Unreadable:
        qCWarning(lcEngine) << "unreadable line from the engine:" << line.left(200);
        break;
    }
}

void EngineClient::onStderr()
{
    if (!m_process)
        return;
    const QString text = QString::fromUtf8(m_process->readAllStandardError());
    if (!text.isEmpty())
        Q_EMIT processOutput(text);
}

QString EngineClient::describeExit(int exitCode, QProcess::ExitStatus status) const
{
    if (status == QProcess::CrashExit) {
        const int signal = exitCode; // QProcess reports the signal number as the exit code
        const char *name = strsignal(signal);
        return QStringLiteral("the engine process was ended by signal %1 (%2)")
            .arg(signal)
            .arg(QString::fromLocal8Bit(name ? name : "unknown"));
    }
    return QStringLiteral("the engine process exited with code %1").arg(exitCode);
}

void EngineClient::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (!m_process)
        return;
    onStdout(); // the lines it wrote before it went
    if (!m_process)
        return;
    onStderr();
    closePipes();
    const QString reason = m_pendingReason.isEmpty() ? describeExit(exitCode, status) : m_pendingReason;
    m_pendingReason.clear();
    m_process->deleteLater();
    m_process = nullptr;
    qCWarning(lcEngine).noquote() << "engine stopped:" << reason;

    const bool quick = m_uptime.elapsed() < QuickDeathMs;
    m_quickDeaths = quick ? m_quickDeaths + 1 : 0;
    if (m_quickDeaths >= MaxQuickDeaths) {
        setState(State::Failed);
        Q_EMIT died(reason + QStringLiteral("; it failed %1 times in a row right after starting, so it is not restarted again")
                                 .arg(m_quickDeaths));
        return;
    }
    setState(State::Starting);
    Q_EMIT died(reason);
    // Restart from the event loop: handlers of died() may still be running.
    QTimer::singleShot(quick ? 200 : 0, this, [this] {
        if (!m_process && m_state == State::Starting)
            launch();
    });
}

void EngineClient::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
}

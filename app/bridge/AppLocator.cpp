#include "AppLocator.h"

#include "RuntimeDirectory.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLocalSocket>
#include <QProcess>
#include <QProcessEnvironment>
#include <QThread>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {
constexpr int LaunchWaitMs = 10000;

qint64 peerPid(const QLocalSocket &socket)
{
    ucred credentials{};
    socklen_t size = sizeof credentials;
    if (getsockopt(int(socket.socketDescriptor()), SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0)
        return 0;
    return credentials.pid;
}

// An exclusive lock held while this bridge checks for an app and starts one.
class LaunchLock
{
public:
    explicit LaunchLock(const QString &path)
        : m_fd(::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600))
    {
        if (m_fd >= 0)
            while (::flock(m_fd, LOCK_EX) != 0 && errno == EINTR) {}
    }
    ~LaunchLock()
    {
        if (m_fd >= 0)
            ::close(m_fd); // releases the lock
    }
    LaunchLock(const LaunchLock &) = delete;
    LaunchLock &operator=(const LaunchLock &) = delete;

private:
    int m_fd;
};
} // namespace

QString AppLocator::searched() const
{
    return m_tried.join(QStringLiteral(", "));
}

bool AppLocator::tryPaths(QLocalSocket &socket)
{
    m_tried = RuntimeDirectory().socketPaths(m_name);
    for (const QString &path : std::as_const(m_tried)) {
        socket.connectToServer(path);
        if (socket.waitForConnected(1000)) {
            // A link in the fallback directory names the app's real socket.
            const QFileInfo info(path);
            m_path = info.isSymLink() ? info.symLinkTarget() : path;
            m_pid = peerPid(socket);
            return true;
        }
        socket.abort();
    }
    return false;
}

bool AppLocator::join(QLocalSocket &socket)
{
    if (tryPaths(socket))
        return true;
    m_error = QStringLiteral("No Lisp Duet is running on socket %1; start the app or pass --launch").arg(searched());
    return false;
}

bool AppLocator::joinOrLaunch(QLocalSocket &socket, const QString &program)
{
    if (tryPaths(socket))
        return true;
    RuntimeDirectory runtime;
    const QString lockDirectory = runtime.fallback();
    if (lockDirectory.isEmpty()) {
        m_error = runtime.error();
        return false;
    }
    // One lock for every socket name: launches are rare, and a file per name would pile up.
    LaunchLock lock(QDir(lockDirectory).filePath(QStringLiteral("launch.lock")));
    if (tryPaths(socket)) // another bridge launched it while this one waited for the lock
        return true;

    QProcess launcher;
    launcher.setProgram(program);
    launcher.setArguments({QStringLiteral("--headless"), QStringLiteral("--socket"), m_name});
    launcher.setProcessEnvironment(QProcessEnvironment::systemEnvironment()); // HOME set by ensureHome
    // stdout is the MCP channel of this bridge: the app must not write there.
    launcher.setStandardOutputFile(QProcess::nullDevice());
    launcher.setStandardInputFile(QProcess::nullDevice());
    if (!launcher.startDetached()) {
        m_error = QStringLiteral("could not start %1").arg(program);
        return false;
    }
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < LaunchWaitMs) {
        QThread::msleep(50);
        if (tryPaths(socket)) {
            m_launched = true;
            return true;
        }
    }
    m_error = QStringLiteral("started %1 but its socket (%2) did not answer within %3 s")
                  .arg(program, searched())
                  .arg(LaunchWaitMs / 1000);
    return false;
}

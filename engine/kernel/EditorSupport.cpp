#include "EditorSupport.h"

#include "HostFunctions.h"

#include "InterruptsDisabled.h"
#include "Marshal.h"

#include <QByteArray>
#include <QDir>
#include <QFile>

#include <cstring>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef LISP_DUET_SWANK_DIR
extern "C" void init_lisp_duet_editor(cl_object);
#endif

namespace {

// (%file-status path): (values permission-bits owned-by-us-p regular-file-p), or NIL when
// PATH cannot be examined. The editor's secret must be a regular file only its owner reads.
cl_object fileStatus(cl_object path)
{
    const cl_env_ptr env = ecl_process_env();
    const QByteArray name = QFile::encodeName(Marshal::fromLispString(path));
    struct stat status{};
    if (name.isEmpty() || ::stat(name.constData(), &status) != 0)
        ecl_return1(env, ECL_NIL);
    ecl_return3(env, ecl_make_fixnum(status.st_mode & 07777),
                status.st_uid == ::getuid() ? ECL_T : ECL_NIL,
                S_ISREG(status.st_mode) ? ECL_T : ECL_NIL);
}

// The inode of the TCP socket from LOCAL-PORT to REMOTE-PORT, as /proc/net/tcp lists it
// (ports in hexadecimal after the colon of each address; the inode is the tenth column).
quint64 socketInode(int localPort, int remotePort)
{
    QFile table(QStringLiteral("/proc/net/tcp"));
    if (!table.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = table.readAll().split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> fields = lines[i].simplified().split(' ');
        if (fields.size() < 10)
            continue;
        const auto port = [](const QByteArray &address) {
            const qsizetype colon = address.indexOf(':');
            bool ok = false;
            const int value = colon < 0 ? -1 : address.mid(colon + 1).toInt(&ok, 16);
            return ok ? value : -1;
        };
        if (port(fields[1]) == localPort && port(fields[2]) == remotePort)
            return fields[9].toULongLong();
    }
    return 0;
}

// The process (of this user: others' descriptors cannot be read) that holds socket INODE.
qint64 socketOwner(quint64 inode)
{
    const QByteArray wanted = "socket:[" + QByteArray::number(inode) + ']';
    const QStringList processes = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &process : processes) {
        bool numeric = false;
        const qint64 pid = process.toLongLong(&numeric);
        if (!numeric || pid == ::getpid())
            continue;
        const QString fdDirectory = QStringLiteral("/proc/%1/fd").arg(pid);
        const QStringList descriptors = QDir(fdDirectory).entryList(QDir::NoDotAndDotDot | QDir::System | QDir::Files | QDir::Dirs);
        for (const QString &descriptor : descriptors) {
            char target[64];
            const QByteArray link = QFile::encodeName(fdDirectory + QLatin1Char('/') + descriptor);
            const ssize_t n = ::readlink(link.constData(), target, sizeof target - 1);
            if (n > 0 && QByteArray(target, n) == wanted)
                return pid;
        }
    }
    return 0;
}

// (%socket-process local-port remote-port): (values pid command) of the local process at the
// other end of one of our TCP connections (its own port LOCAL-PORT, ours REMOTE-PORT), or
// NIL. It names an editor that connected: "emacs", "nvim".
cl_object socketProcess(cl_object localPort, cl_object remotePort)
{
    const cl_env_ptr env = ecl_process_env();
    if (!ECL_FIXNUMP(localPort) || !ECL_FIXNUMP(remotePort))
        ecl_return1(env, ECL_NIL);
    const quint64 inode = socketInode(int(ecl_fixnum(localPort)), int(ecl_fixnum(remotePort)));
    const qint64 pid = inode ? socketOwner(inode) : 0;
    if (!pid)
        ecl_return1(env, ECL_NIL);
    QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
    const QString command = comm.open(QIODevice::ReadOnly) ? QString::fromUtf8(comm.readAll().trimmed()) : QString();
    ecl_return2(env, ecl_make_integer(pid), Marshal::toLispString(command));
}

// (%shutdown-socket fd): ends both directions of a socket, which wakes a thread blocked
// reading it (closing the descriptor would not).
cl_object shutdownSocket(cl_object fd)
{
    if (ECL_FIXNUMP(fd)) {
        InterruptsDisabled guard;
        ::shutdown(int(ecl_fixnum(fd)), SHUT_RDWR);
    }
    ecl_return0(ecl_process_env());
}

// (%swank-directory): where Debian's cl-swank was when the engine was built (its bridge is
// compiled against it), or NIL in an engine built without it.
cl_object swankDirectory()
{
#ifdef LISP_DUET_SWANK_DIR
    ecl_return1(ecl_process_env(), Marshal::toLispString(QStringLiteral(LISP_DUET_SWANK_DIR)));
#else
    ecl_return1(ecl_process_env(), ECL_NIL);
#endif
}

// (%init-swank-bridge): runs the top-level forms of the bridge (lisp/editor/*.lisp), once
// Swank itself is loaded: they name Swank's symbols.
cl_object initSwankBridge()
{
#ifdef LISP_DUET_SWANK_DIR
    static bool initialized = false;
    if (!initialized) {
        initialized = true;
        ecl_init_module(nullptr, init_lisp_duet_editor);
    }
#endif
    ecl_return0(ecl_process_env());
}


} // namespace

namespace EditorSupport {

void define()
{
    using HostFunctions::defineFunction;
    defineFunction("%FILE-STATUS", fileStatus, 1);
    defineFunction("%SOCKET-PROCESS", socketProcess, 2);
    defineFunction("%SHUTDOWN-SOCKET", shutdownSocket, 1);
    defineFunction("%SWANK-DIRECTORY", swankDirectory, 0);
    defineFunction("%INIT-SWANK-BRIDGE", initSwankBridge, 0);
}

} // namespace EditorSupport

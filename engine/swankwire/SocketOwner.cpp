#include "SocketOwner.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QList>
#include <QStringList>

#include <unistd.h>

namespace SocketOwner {

namespace {

// The inode of the TCP socket from LOCAL-PORT to REMOTE-PORT (0, with `listening`: the socket
// that listens on LOCAL-PORT), as /proc/net/tcp lists it (ports in hexadecimal after the colon
// of each address, the state in the fourth column, 0A for listening; the inode is the tenth).
quint64 socketInode(int localPort, int remotePort, bool listening)
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
        if (port(fields[1]) == localPort && port(fields[2]) == remotePort && (!listening || fields[3] == "0A"))
            return fields[9].toULongLong();
    }
    return 0;
}

// The process (of this user: others' descriptors cannot be read) that holds socket INODE.
std::optional<Process> owner(quint64 inode)
{
    if (!inode)
        return std::nullopt;
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
            if (n > 0 && QByteArray(target, n) == wanted) {
                QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
                return Process{pid, comm.open(QIODevice::ReadOnly) ? QString::fromUtf8(comm.readAll().trimmed()) : QString()};
            }
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<Process> connectedTo(int localPort, int remotePort)
{
    return owner(socketInode(localPort, remotePort, false));
}

std::optional<Process> listeningOn(int port)
{
    return owner(socketInode(port, 0, true));
}

} // namespace SocketOwner

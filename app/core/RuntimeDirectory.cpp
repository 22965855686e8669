#include "RuntimeDirectory.h"

#include <QDir>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

RuntimeDirectory::Roots RuntimeDirectory::Roots::ofThisProcess()
{
    return of(qEnvironmentVariable("XDG_RUNTIME_DIR"), qEnvironmentVariable("LISP_DUET_RUNTIME_ROOT"), getuid());
}

RuntimeDirectory::Roots RuntimeDirectory::Roots::of(const QString &xdgRuntimeDir, const QString &machineRoot, uid_t uid)
{
    Roots roots;
    roots.xdgRuntimeDir = xdgRuntimeDir;
    roots.uid = uid;
    // Relative would mean "wherever the process was started": the app and a bridge started by a
    // client would not meet. Such a root is ignored, as a relative XDG_RUNTIME_DIR is.
    if (!machineRoot.isEmpty() && QDir::isAbsolutePath(machineRoot)) {
        const QDir root(QDir::cleanPath(machineRoot));
        roots.runUser = root.filePath(QStringLiteral("run/user"));
        roots.tmp = root.filePath(QStringLiteral("tmp"));
    }
    return roots;
}

bool RuntimeDirectory::isPrivateDirectory(const QString &path, uid_t uid, QString *why)
{
    struct stat info{};
    if (lstat(QFile::encodeName(path).constData(), &info) != 0) {
        if (why)
            *why = QStringLiteral("%1 does not exist").arg(path);
        return false;
    }
    QString problem;
    if (S_ISLNK(info.st_mode))
        problem = QStringLiteral("%1 is a symbolic link").arg(path);
    else if (!S_ISDIR(info.st_mode))
        problem = QStringLiteral("%1 is not a directory").arg(path);
    else if (info.st_uid != uid)
        problem = QStringLiteral("%1 belongs to user id %2, not to %3").arg(path).arg(info.st_uid).arg(uid);
    else if ((info.st_mode & 077) != 0)
        problem = QStringLiteral("%1 has mode %2; it must be 0700").arg(path).arg(info.st_mode & 0777, 4, 8, QLatin1Char('0'));
    if (why)
        *why = problem;
    return problem.isEmpty();
}

QString RuntimeDirectory::fallback()
{
    const QString path = QDir(m_roots.tmp).filePath(QStringLiteral("lisp-duet-%1").arg(m_roots.uid));
    const QByteArray native = QFile::encodeName(path);
    if (mkdir(native.constData(), 0700) != 0 && errno != EEXIST) {
        m_error = QStringLiteral("Cannot create %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return {};
    }
    QString why;
    if (!isPrivateDirectory(path, m_roots.uid, &why)) {
        // Someone else made it first (or it was left world-readable): never use it.
        m_error = QStringLiteral("Refusing to keep the local socket in %1: %2.").arg(path, why);
        return {};
    }
    return path;
}

QStringList RuntimeDirectory::candidates()
{
    QStringList list;
    const QString runUser = QDir(m_roots.runUser).filePath(QString::number(m_roots.uid));
    if (isPrivateDirectory(runUser, m_roots.uid))
        list << runUser;
    if (!m_roots.xdgRuntimeDir.isEmpty() && QDir::isAbsolutePath(m_roots.xdgRuntimeDir)) {
        const QString xdg = QDir::cleanPath(m_roots.xdgRuntimeDir);
        if (!list.contains(xdg) && isPrivateDirectory(xdg, m_roots.uid))
            list << xdg;
    }
    const QString last = fallback();
    if (!last.isEmpty() && !list.contains(last))
        list << last;
    return list;
}

QStringList RuntimeDirectory::socketPaths(const QString &name)
{
    if (QDir::isAbsolutePath(name))
        return {name};
    QStringList paths;
    for (const QString &directory : candidates())
        paths << QDir(directory).filePath(name);
    return paths;
}

#include "ProjectRoot.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>

namespace {
// The kind of file at a canonical path, as people say it.
QString kindOf(const struct stat &info)
{
    if (S_ISDIR(info.st_mode))
        return QStringLiteral("a folder");
    if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode))
        return QStringLiteral("a device");
    if (S_ISFIFO(info.st_mode))
        return QStringLiteral("a named pipe");
    if (S_ISSOCK(info.st_mode))
        return QStringLiteral("a socket");
    return QStringLiteral("a file");
}

bool statPath(const QString &path, struct stat *info)
{
    return ::stat(QFile::encodeName(path).constData(), info) == 0;
}

// realpath() of the deepest existing ancestor, plus the components below it that do not exist
// yet. Components that do not exist cannot be links, but they must not climb with "..".
QString canonicalOrPlanned(const QString &path, QString *error)
{
    const QString whole = QFileInfo(path).canonicalFilePath();
    if (!whole.isEmpty())
        return whole;
    QStringList missing;
    QString existing = path;
    for (;;) {
        const int slash = int(existing.lastIndexOf(QLatin1Char('/')));
        if (slash < 0)
            break;
        missing.prepend(existing.mid(slash + 1));
        existing = slash == 0 ? QStringLiteral("/") : existing.left(slash);
        const QString canonical = QFileInfo(existing).canonicalFilePath();
        if (canonical.isEmpty())
            continue;
        for (const QString &part : std::as_const(missing)) {
            if (part == QLatin1String("..") || part == QLatin1String(".")) {
                *error = QStringLiteral("'%1' climbs with '..' through a folder that does not exist").arg(path);
                return {};
            }
        }
        missing.removeAll(QString());
        return QDir(canonical).filePath(missing.join(QLatin1Char('/')));
    }
    *error = QStringLiteral("'%1' cannot be resolved").arg(path);
    return {};
}
} // namespace

bool ProjectRoot::setPath(const QString &directory, QString *error)
{
    const QFileInfo info(directory);
    const QString canonical = info.canonicalFilePath();
    QString problem;
    if (directory.isEmpty())
        problem = QStringLiteral("The project root must name a folder.");
    else if (!QDir::isAbsolutePath(directory))
        problem = QStringLiteral("The project root must be an absolute path, not '%1'.").arg(directory);
    else if (canonical.isEmpty())
        problem = QStringLiteral("The folder %1 does not exist.").arg(directory);
    else if (!QFileInfo(canonical).isDir())
        problem = QStringLiteral("%1 is not a folder.").arg(directory);
    else if (canonical == QLatin1String("/"))
        problem = QStringLiteral("The whole file system cannot be the project root; choose the project's folder.");
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    m_path = canonical;
    return true;
}

void ProjectRoot::setReadOnlyRoots(const QStringList &directories)
{
    m_readOnlyRoots.clear();
    for (const QString &directory : directories) {
        const QString canonical = QFileInfo(directory).canonicalFilePath();
        if (!canonical.isEmpty() && canonical != QLatin1String("/") && !m_readOnlyRoots.contains(canonical))
            m_readOnlyRoots << canonical;
    }
}

QStringList ProjectRoot::systemSourceFolders()
{
    const QString home = QDir::homePath();
    const QString dataHome = qEnvironmentVariable("XDG_DATA_HOME", home + QStringLiteral("/.local/share"));
    QStringList dataDirs = qEnvironmentVariable("XDG_DATA_DIRS").split(u':', Qt::SkipEmptyParts);
    if (dataDirs.isEmpty())
        dataDirs = {QStringLiteral("/usr/local/share"), QStringLiteral("/usr/share")};
    QStringList folders{home + QStringLiteral("/common-lisp")};
    for (const QString &data : QStringList{dataHome} + dataDirs)
        folders << data + QStringLiteral("/common-lisp/source") << data + QStringLiteral("/common-lisp/systems");
    folders += qEnvironmentVariable("LISP_DUET_SYSTEM_PATHS").split(u':', Qt::SkipEmptyParts);
    QStringList existing;
    for (const QString &folder : std::as_const(folders))
        if (QFileInfo(folder).isDir())
            existing << folder;
    return existing;
}

bool ProjectRoot::isInside(const QString &canonicalPath, const QString &canonicalRoot)
{
    if (canonicalRoot.isEmpty())
        return false;
    return canonicalPath == canonicalRoot || canonicalPath.startsWith(canonicalRoot + QLatin1Char('/'));
}

QString ProjectRoot::display(const QString &absolute) const
{
    if (isInside(absolute, m_path))
        return absolute == m_path ? QStringLiteral(".") : absolute.mid(m_path.size() + 1);
    return absolute;
}

QString ProjectRoot::outsideMessage(const QString &given, const QString &canonical, bool viaLink) const
{
    const QString where = viaLink ? QStringLiteral("'%1' is a symbolic link to %2, which is outside the project root %3")
                                        .arg(given, canonical, m_path)
                                  : QStringLiteral("'%1' is outside the project root %2").arg(given, m_path);
    return where + QStringLiteral(". Files are read and written only inside the root (paths are relative to it); "
                                  "the sources of ASDF systems the session knows may be read.");
}

ProjectRoot::Resolved ProjectRoot::resolve(const QString &path, Access access) const
{
    Resolved resolved;
    if (!isSet()) {
        resolved.error = QStringLiteral("No project root is set. Set one with the set-project-root tool, "
                                        "File > Open project... in the window, or lisp-duet --project DIR.");
        return resolved;
    }
    if (path.isEmpty()) {
        resolved.error = QStringLiteral("The path is empty; give a path relative to the project root %1.").arg(m_path);
        return resolved;
    }
    for (const QChar c : path) {
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r') || c.unicode() == 0) {
            resolved.error = QStringLiteral("The path contains a line break or a NUL character; Lisp Duet refuses such names.");
            return resolved;
        }
    }
    const QString given = QDir::isAbsolutePath(path) ? path : m_path + QLatin1Char('/') + path;
    QString error;
    const QString canonical = canonicalOrPlanned(given, &error);
    if (canonical.isEmpty()) {
        resolved.error = error + QLatin1Char('.');
        return resolved;
    }
    resolved.absolute = canonical;
    const bool inRoot = isInside(canonical, m_path);
    QString readOnlyRoot;
    for (const QString &root : m_readOnlyRoots) {
        if (isInside(canonical, root))
            readOnlyRoot = root;
    }
    if (!inRoot && (access == Access::Write || readOnlyRoot.isEmpty())) {
        // Said differently when only a link leads out: the person may not know it is one.
        const bool lexicallyInside = isInside(QDir::cleanPath(given), m_path);
        resolved.error = (!inRoot && !readOnlyRoot.isEmpty())
            ? QStringLiteral("'%1' is in %2, the sources of an ASDF system, which may be read but not written.").arg(path, readOnlyRoot)
            : outsideMessage(path, canonical, lexicallyInside);
        return resolved;
    }
    resolved.readOnly = !inRoot;
    resolved.relative = display(canonical);

    struct stat info{};
    resolved.exists = statPath(canonical, &info);
    if (access == Access::Write) {
        const QString inside = display(canonical);
        if (inside == QLatin1String(".git") || inside.startsWith(QLatin1String(".git/"))) {
            resolved.error = QStringLiteral("'%1' is inside .git; Lisp Duet does not write to the repository's own files.").arg(path);
            return resolved;
        }
    }
    if (!resolved.exists) {
        if (access != Access::Write)
            resolved.error = QStringLiteral("'%1' does not exist in the project root %2.").arg(path, m_path);
        return resolved;
    }
    const bool wantDirectory = access == Access::List;
    if (wantDirectory != bool(S_ISDIR(info.st_mode)) || (!wantDirectory && !S_ISREG(info.st_mode))) {
        resolved.error = QStringLiteral("'%1' is %2, not %3.").arg(path, kindOf(info), wantDirectory ? QStringLiteral("a folder") : QStringLiteral("a regular file"));
        return resolved;
    }
    return resolved;
}

#pragma once

#include <QString>
#include <QStringList>

// The folder of the person's Lisp project, and the one rule every file tool obeys: a path is
// resolved the way the kernel will open it (symbolic links included) and must land inside the
// root; reading may also reach the sources of ASDF systems the session knows (read-only roots).
// Everything is checked against canonical paths, so `..`, absolute paths elsewhere and links
// that point out of the root are refused with a sentence that names the root.
class ProjectRoot
{
public:
    enum class Access {
        Read,  // an existing regular file, inside the root or a read-only root
        Write, // a regular file (existing or to be created) inside the root, not in .git
        List,  // an existing directory inside the root or a read-only root
    };

    struct Resolved
    {
        QString absolute;  // canonical path (for a new file: canonical parent + the new name)
        QString relative;  // to the root, or to its read-only root ("/usr/share/..." stays absolute)
        bool exists = false;
        bool readOnly = false; // inside a read-only root only
        QString error;     // empty when the path may be used for the access asked
        bool ok() const { return error.isEmpty(); }
    };

    bool isSet() const { return !m_path.isEmpty(); }
    QString path() const { return m_path; }
    // Sets the root to an existing directory (canonicalized); false with a sentence otherwise.
    bool setPath(const QString &directory, QString *error = nullptr);
    void clear() { m_path.clear(); }

    // Folders whose files may be read but never written (the sources of ASDF systems).
    void setReadOnlyRoots(const QStringList &directories);
    // Where ASDF's default source registry finds systems, as the engine's ASDF does: the XDG
    // data folders' common-lisp/source and common-lisp/systems (Debian's cl-* packages live in
    // /usr/share/common-lisp/source), ~/common-lisp, and the folders of LISP_DUET_SYSTEM_PATHS.
    static QStringList systemSourceFolders();
    QStringList readOnlyRoots() const { return m_readOnlyRoots; }

    Resolved resolve(const QString &path, Access access) const;
    // The path as people read it: relative to the root when inside it, else absolute.
    QString display(const QString &absolute) const;
    bool contains(const QString &canonicalPath) const { return isInside(canonicalPath, m_path); }

private:
    static bool isInside(const QString &canonicalPath, const QString &canonicalRoot);
    QString outsideMessage(const QString &given, const QString &canonical, bool viaLink) const;

    QString m_path;
    QStringList m_readOnlyRoots;
};

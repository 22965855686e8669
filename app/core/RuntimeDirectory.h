#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <sys/types.h>

// Where this user's Lisp Duet keeps its local socket, found the same way by the app and by
// lisp-duet-bridge whatever their environments: a client such as Claude Desktop starts the
// bridge with only HOME, LOGNAME, PATH, SHELL, TERM and USER, so XDG_RUNTIME_DIR alone cannot
// be the rendezvous.
//
// Candidates, best first: /run/user/UID (when it exists, is owned by the user and is mode
// 0700), then $XDG_RUNTIME_DIR (under the same conditions), then /tmp/lisp-duet-UID (created
// 0700 when missing, refused when someone else owns it or others may enter it). The app listens
// in the first one and, when that is not the fallback, leaves a link to its socket in the
// fallback, so a bridge whose environment names another directory (or none) still finds it.
// Never asks QStandardPaths (which warns when XDG_RUNTIME_DIR is unset) and never reads TMPDIR.
//
// LISP_DUET_RUNTIME_ROOT=DIR (absolute) puts the two machine-wide places under DIR: DIR/run/user
// and DIR/tmp stand for /run/user and /tmp. The app and the bridge both honour it, so tests
// choose the machine they meet on (with or without a run/user/UID) and never touch this one's.
class RuntimeDirectory
{
public:
    struct Roots
    {
        QString runUser = QStringLiteral("/run/user"); // the per-user directories of systemd-logind
        QString xdgRuntimeDir;                          // the environment's XDG_RUNTIME_DIR, if any
        QString tmp = QStringLiteral("/tmp");
        uid_t uid = 0;
        static Roots ofThisProcess();
        // The roots for this environment: XDG_RUNTIME_DIR and LISP_DUET_RUNTIME_ROOT as given.
        static Roots of(const QString &xdgRuntimeDir, const QString &machineRoot, uid_t uid);
    };

    explicit RuntimeDirectory(const Roots &roots = Roots::ofThisProcess()) : m_roots(roots) {}

    // The usable directories, best first, without duplicates. The fallback is created if needed;
    // when it cannot be used, error() says why.
    QStringList candidates();
    QString primary() { return candidates().value(0); }
    QString fallback(); // empty (and error()) when unusable
    QString error() const { return m_error; }

    // Where a socket NAME can be found, in the order to try: an absolute NAME as it is,
    // otherwise NAME in each candidate.
    QStringList socketPaths(const QString &name);

    // True when path is a real directory (not a link) owned by uid that no one else may enter.
    static bool isPrivateDirectory(const QString &path, uid_t uid, QString *why = nullptr);

private:
    Roots m_roots;
    QString m_error;
};

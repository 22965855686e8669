#pragma once

// A second local user, for the security tests that need one (issue 41): someone else who
// could own a file, squat a port or read a secret. Made with useradd the first time (a
// system user without a home or a shell); a test that cannot have one skips and says why.

#include <QProcess>
#include <QString>

#include <optional>
#include <pwd.h>
#include <unistd.h>

struct OtherUser
{
    uid_t uid = 0;
    gid_t gid = 0;
    QString name;

    static std::optional<OtherUser> get(QString *why)
    {
        static const char *const name = "lisp-duet-other";
        if (::geteuid() != 0) {
            *why = QStringLiteral("the tests do not run as root here: no second user can be made or acted as");
            return std::nullopt;
        }
        if (!::getpwnam(name)) {
            QProcess::execute(QStringLiteral("useradd"), {QStringLiteral("--system"), QStringLiteral("--no-create-home"),
                                                          QStringLiteral("--shell"), QStringLiteral("/usr/sbin/nologin"),
                                                          QString::fromLatin1(name)});
        }
        const passwd *entry = ::getpwnam(name);
        if (!entry) {
            *why = QStringLiteral("useradd could not make the user %1").arg(QString::fromLatin1(name));
            return std::nullopt;
        }
        return OtherUser{entry->pw_uid, entry->pw_gid, QString::fromLatin1(name)};
    }
};

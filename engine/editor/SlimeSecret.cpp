#include "SlimeSecret.h"

#include "swankwire/SwankHandshake.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSaveFile>

#include <unistd.h>

namespace SlimeSecret {

QString defaultPath()
{
    return QDir::home().filePath(QStringLiteral(".slime-secret"));
}

QString shellCommand(const QString &path)
{
    return QStringLiteral("(umask 077; head -c 32 /dev/urandom | base64 > %1)").arg(path);
}

QString problem(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return QStringLiteral("There is no %1: without a secret, any local user could evaluate code in your session "
                              "through the editor's port.").arg(path);
    if (!info.isFile())
        return QStringLiteral("%1 is not a regular file.").arg(path);
    if (info.ownerId() != uint(::getuid()))
        return QStringLiteral("%1 belongs to another user: it cannot be your secret.").arg(path);
    const QFile::Permissions others = QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther
        | QFile::WriteOther | QFile::ExeOther;
    if (info.permissions() & others)
        return QStringLiteral("%1 can be read by other users: anyone who reads it could evaluate code in your session "
                              "(chmod 600 %1 makes it yours alone).").arg(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("%1 cannot be read: %2").arg(path, file.errorString());
    // Its first line as SLIME sends it and the engine compares it (spaces are part of it).
    const QByteArray secret = SwankHandshake::secretLine(file.read(SwankHandshake::MaxSecretSize + 2));
    if (secret.isEmpty())
        return QStringLiteral("%1 is empty.").arg(path);
    if (secret.size() > SwankHandshake::MaxSecretSize)
        return QStringLiteral("The first line of %1 is longer than any secret (%2 bytes).").arg(path).arg(SwankHandshake::MaxSecretSize);
    return {};
}

bool create(const QString &path, QString *error)
{
    quint32 words[8];
    QRandomGenerator::system()->fillRange(words);
    const QByteArray secret = QByteArray(reinterpret_cast<const char *>(words), sizeof words).toBase64();
    QSaveFile out(path);
    // Permissions are set before any byte of the secret is written.
    if (!out.open(QIODevice::WriteOnly) || !out.setPermissions(QFile::ReadOwner | QFile::WriteOwner)
        || out.write(secret + '\n') < 0 || !out.commit()) {
        if (error)
            *error = QStringLiteral("Cannot write %1: %2").arg(path, out.errorString());
        return false;
    }
    return true;
}

} // namespace SlimeSecret

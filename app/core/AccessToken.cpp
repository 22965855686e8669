#include "AccessToken.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QStandardPaths>

QString AccessToken::path()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)).filePath(QStringLiteral("token"));
}

QByteArray AccessToken::loadOrCreate(QString *error)
{
    const QString file = path();
    QFile existing(file);
    if (existing.open(QIODevice::ReadOnly)) {
        const QByteArray token = existing.readAll().trimmed();
        if (token.size() >= 32) {
            // Someone may have loosened the permissions; the token is only for this user.
            existing.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
            return token;
        }
    }
    quint32 words[8];
    QRandomGenerator::system()->fillRange(words);
    const QByteArray token = QByteArray(reinterpret_cast<const char *>(words), sizeof words)
                                 .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    if (!QDir().mkpath(QFileInfo(file).absolutePath())) {
        if (error)
            *error = QStringLiteral("Cannot create the folder of %1").arg(file);
        return {};
    }
    QSaveFile out(file);
    // Permissions are set before any byte of the token is written.
    if (!out.open(QIODevice::WriteOnly) || !out.setPermissions(QFile::ReadOwner | QFile::WriteOwner)
        || out.write(token + '\n') < 0 || !out.commit()) {
        if (error)
            *error = QStringLiteral("Cannot write the access token to %1: %2").arg(file, out.errorString());
        return {};
    }
    return token;
}

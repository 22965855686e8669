#pragma once

#include <QByteArray>
#include <QString>

// The bearer token HTTP clients must send: 32 random bytes in base64url, made on first use and
// kept in the app's config directory in a file only the user may read (0600). Never logged.
class AccessToken
{
public:
    // The token file: <AppConfigLocation>/token.
    static QString path();
    // Reads the token, creating it on first use. Empty (with *error set) when that fails.
    static QByteArray loadOrCreate(QString *error = nullptr);
};

#include "HttpSecurity.h"

#include <QHostAddress>
#include <QUrl>

namespace HttpSecurity {

namespace {
const QStringList LoopbackNames{QStringLiteral("127.0.0.1"), QStringLiteral("localhost"), QStringLiteral("[::1]")};

// Splits "name:port" / "[v6]:port" / "name"; false when the port is not a number.
bool splitHostPort(const QByteArray &hostPort, QString &name, int &port)
{
    QByteArray host = hostPort.trimmed().toLower();
    qsizetype colon = host.lastIndexOf(':');
    if (host.startsWith('[')) {
        const qsizetype close = host.indexOf(']');
        if (close < 0)
            return false;
        if (colon < close)
            colon = -1;
    }
    port = -1;
    if (colon >= 0) {
        const QByteArray digits = host.mid(colon + 1);
        bool ok = false;
        port = digits.toInt(&ok);
        if (!ok || digits.isEmpty() || port < 0 || port > 65535)
            return false;
        host.truncate(colon);
    }
    name = QString::fromLatin1(host);
    return !name.isEmpty();
}
} // namespace

bool isAllowedHost(const QByteArray &host, quint16 port, const QStringList &extraHosts, bool anyIpLiteral)
{
    QString name;
    int hostPort = -1;
    if (!splitHostPort(host, name, hostPort))
        return false;
    if (hostPort < 0)
        hostPort = 80;
    if (hostPort != port)
        return false;
    if (LoopbackNames.contains(name))
        return true;
    if (anyIpLiteral) {
        QString literal = name;
        if (literal.startsWith(QLatin1Char('[')) && literal.endsWith(QLatin1Char(']')))
            literal = literal.mid(1, literal.size() - 2);
        if (!QHostAddress(literal).isNull())
            return true;
    }
    for (const QString &extra : extraHosts) {
        const QString normalized = extra.contains(QLatin1Char(':')) && !extra.startsWith(QLatin1Char('['))
            ? QStringLiteral("[%1]").arg(extra.toLower())
            : extra.toLower();
        if (name == normalized)
            return true;
    }
    return false;
}

bool isAllowedOrigin(const QByteArray &origin)
{
    const QUrl url(QString::fromLatin1(origin.trimmed()), QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != QStringLiteral("http") && url.scheme() != QStringLiteral("https")))
        return false;
    // A browser's Origin is scheme://host[:port], nothing more; anything else is not a browser's.
    if ((!url.path().isEmpty() && url.path() != QStringLiteral("/")) || !url.userInfo().isEmpty() || url.hasQuery() || url.hasFragment())
        return false;
    const QString host = url.host().toLower();
    return host == QStringLiteral("localhost") || host == QStringLiteral("127.0.0.1") || host == QStringLiteral("::1");
}

bool constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    // Every byte of the longer input is visited whatever the content, so the time taken
    // tells only the lengths (the token's length is no secret).
    const qsizetype n = qMax(a.size(), b.size());
    unsigned char difference = a.size() == b.size() ? 0 : 1;
    for (qsizetype i = 0; i < n; ++i) {
        const unsigned char x = i < a.size() ? static_cast<unsigned char>(a.at(i)) : 0;
        const unsigned char y = i < b.size() ? static_cast<unsigned char>(b.at(i)) : 0;
        difference |= x ^ y;
    }
    return difference == 0;
}

bool isAuthorized(const QByteArray &authorizationHeader, const QByteArray &token)
{
    if (token.isEmpty())
        return false;
    const QByteArray header = authorizationHeader.trimmed();
    const qsizetype space = header.indexOf(' ');
    if (space < 0 || header.left(space).toLower() != "bearer")
        return false;
    return constantTimeEquals(header.mid(space + 1).trimmed(), token);
}

Acceptance parseAccept(const QByteArray &accept)
{
    if (accept.trimmed().isEmpty())
        return {true, true};
    Acceptance result;
    for (const QByteArray &range : accept.split(',')) {
        const QList<QByteArray> parts = range.split(';');
        const QByteArray type = parts.first().trimmed().toLower();
        double quality = 1;
        for (qsizetype i = 1; i < parts.size(); ++i) {
            const QByteArray parameter = parts.at(i).trimmed().toLower();
            if (parameter.startsWith("q="))
                quality = parameter.mid(2).toDouble();
        }
        if (quality <= 0)
            continue;
        if (type == "*/*" || type == "application/*" || type == "application/json")
            result.json = true;
        if (type == "*/*" || type == "text/*" || type == "text/event-stream")
            result.eventStream = true;
    }
    return result;
}

} // namespace HttpSecurity

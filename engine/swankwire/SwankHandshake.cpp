#include "SwankHandshake.h"

#include <cctype>

namespace SwankHandshake {

QByteArray secretLine(const QByteArray &fileBytes)
{
    const qsizetype end = fileBytes.indexOf('\n');
    QByteArray line = end < 0 ? fileBytes : fileBytes.left(end);
    if (end >= 0 && line.endsWith('\r'))
        line.chop(1);
    return line;
}

QString escaped(QByteArrayView bytes)
{
    QString text;
    text.reserve(bytes.size());
    for (const char c : bytes) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f && byte != '\\')
            text.append(QLatin1Char(c));
        else
            text.append(QStringLiteral("\\x%1").arg(byte, 2, 16, QLatin1Char('0')));
    }
    return text;
}

QString printable(const QString &text)
{
    QString shown;
    shown.reserve(text.size());
    for (const QChar c : text) {
        const char16_t code = c.unicode();
        if (code < 0x20 || (code >= 0x7f && code <= 0x9f))
            shown.append(QStringLiteral("\\x%1").arg(int(code), 2, 16, QLatin1Char('0')));
        else
            shown.append(c);
    }
    return shown;
}

namespace {

bool sameBytes(QByteArrayView a, QByteArrayView b)
{
    // Every byte is compared whatever the first difference: the time says nothing of where.
    unsigned difference = a.size() == b.size() ? 0 : 1;
    const qsizetype n = std::min(a.size(), b.size());
    for (qsizetype i = 0; i < n; ++i)
        difference |= static_cast<unsigned char>(a[i]) ^ static_cast<unsigned char>(b[i]);
    return difference == 0;
}

Verdict refuse(const QString &reason)
{
    return {Verdict::Kind::Refuse, 0, reason};
}

} // namespace

Verdict judge(QByteArrayView received, QByteArrayView secret)
{
    const qsizetype header = std::min(received.size(), HeaderSize);
    for (qsizetype i = 0; i < header; ++i) {
        if (!std::isxdigit(static_cast<unsigned char>(received[i])))
            return refuse(QStringLiteral("It is not a Swank client: its first bytes \"%1\" are not a message's length "
                                         "(SLIME sends six hexadecimal digits, then ~/.slime-secret).")
                              .arg(escaped(received.first(header))));
    }
    if (header < HeaderSize)
        return {Verdict::Kind::NeedMore, HeaderSize - header, {}};
    const qsizetype length = received.first(HeaderSize).toByteArray().toLongLong(nullptr, 16);
    if (length != secret.size())
        return refuse(QStringLiteral("Its first message (%1 bytes) is not the secret: SLIME sends ~/.slime-secret first, "
                                     "and a client that does not know it is not let in.")
                          .arg(length));
    const qsizetype total = HeaderSize + length;
    if (received.size() < total)
        return {Verdict::Kind::NeedMore, total - received.size(), {}};
    if (!sameBytes(received.sliced(HeaderSize, length), secret))
        return refuse(QStringLiteral("It sent a wrong secret (not the first line of ~/.slime-secret)."));
    return {Verdict::Kind::Accept, 0, {}};
}

} // namespace SwankHandshake

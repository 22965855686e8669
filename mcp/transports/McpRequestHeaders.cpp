#include "McpRequestHeaders.h"

#include <QJsonObject>

namespace McpRequestHeaders {

namespace {
bool isBase64Text(QByteArrayView text)
{
    if (text.size() % 4 != 0)
        return false; // the padding is part of the encoding: "SGVsbG8" is not base64 for "Hello"
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const bool padding = c == '=' && i >= text.size() - 2;
        if (!padding && !((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/'))
            return false;
        if (!padding && i > 0 && text[i - 1] == '=')
            return false; // nothing after the padding
    }
    return true;
}
} // namespace

std::optional<QString> decoded(const QByteArray &raw)
{
    const QByteArray value = raw.trimmed();
    for (const char c : value) {
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return std::nullopt;
    }
    if (!(value.startsWith("=?base64?") && value.endsWith("?=") && value.size() >= 11))
        return QString::fromUtf8(value); // ASCII as the spec asks; raw UTF-8 read kindly
    const QByteArray encoded = value.mid(9, value.size() - 11);
    if (!isBase64Text(encoded))
        return std::nullopt;
    const auto result = QByteArray::fromBase64Encoding(encoded, QByteArray::AbortOnBase64DecodingErrors);
    if (!result)
        return std::nullopt;
    const QString text = QString::fromUtf8(*result);
    if (text.toUtf8() != *result)
        return std::nullopt; // not UTF-8
    return text;
}

QString mismatch(const HttpRequest &request, const QString &method, const RequestEnvelope &envelope, const std::optional<QString> &name)
{
    const QByteArray version = request.header("MCP-Protocol-Version");
    if (version.isNull())
        return QStringLiteral("Header mismatch: MCP-Protocol-Version is required (here %1, as in the body's _meta)").arg(envelope.protocolVersion());
    if (envelope.claimsVersion() && QString::fromLatin1(version.trimmed()) != envelope.protocolVersion())
        return QStringLiteral("Header mismatch: MCP-Protocol-Version header value '%1' does not match body value '%2'")
            .arg(QString::fromLatin1(version.trimmed()), envelope.protocolVersion());

    const QByteArray methodHeader = request.header("Mcp-Method");
    if (methodHeader.isNull())
        return QStringLiteral("Header mismatch: Mcp-Method is required (here %1, the body's method)").arg(method);
    if (QString::fromLatin1(methodHeader.trimmed()) != method)
        return QStringLiteral("Header mismatch: Mcp-Method header value '%1' does not match body value '%2'")
            .arg(QString::fromLatin1(methodHeader.trimmed()), method);

    if (!name)
        return {};
    const QByteArray nameHeader = request.header("Mcp-Name");
    if (nameHeader.isNull())
        return QStringLiteral("Header mismatch: Mcp-Name is required for %1 (here '%2')").arg(method, *name);
    const std::optional<QString> value = decoded(nameHeader);
    if (!value)
        return QStringLiteral("Header mismatch: Mcp-Name is neither plain text nor valid =?base64?...?=");
    if (*value != *name)
        return QStringLiteral("Header mismatch: Mcp-Name header value '%1' does not match body value '%2'").arg(*value, *name);
    return {};
}

} // namespace McpRequestHeaders

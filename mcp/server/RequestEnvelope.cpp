#include "RequestEnvelope.h"

#include "McpErrors.h"

#include <QJsonArray>

QStringList RequestEnvelope::legacyVersions()
{
    return {QStringLiteral("2025-11-25"), QStringLiteral("2025-06-18"), QStringLiteral("2025-03-26"), QStringLiteral("2024-11-05")};
}

QStringList RequestEnvelope::modernVersions()
{
    return {QStringLiteral("2026-07-28")};
}

const QStringList &RequestEnvelope::logLevels()
{
    static const QStringList levels{QStringLiteral("debug"),   QStringLiteral("info"),     QStringLiteral("notice"),
                                    QStringLiteral("warning"), QStringLiteral("error"),    QStringLiteral("critical"),
                                    QStringLiteral("alert"),   QStringLiteral("emergency")};
    return levels;
}

QJsonValue RequestEnvelope::progressToken(const QJsonValue &params)
{
    const QJsonValue token = params.toObject().value(QStringLiteral("_meta")).toObject().value(QStringLiteral("progressToken"));
    return token.isString() || token.isDouble() ? token : QJsonValue(QJsonValue::Undefined);
}

RequestEnvelope RequestEnvelope::of(const JsonRpc::Message &message, const QString &declaredVersion)
{
    RequestEnvelope envelope;
    const QJsonValue metaValue = message.params().toObject().value(QStringLiteral("_meta"));
    const QJsonObject meta = metaValue.toObject();
    envelope.m_claimsVersion = meta.contains(QLatin1String(ProtocolVersionKey));
    if (!envelope.m_claimsVersion && !isModernVersion(declaredVersion)) {
        // Legacy: the initialize handshake's era. Absent, the version is 2025-03-26's default.
        if (!declaredVersion.isEmpty() && !legacyVersions().contains(declaredVersion)) {
            envelope.m_problem = Problem::UnsupportedDeclaredVersion;
            envelope.m_problemText = QStringLiteral("Unsupported MCP-Protocol-Version '%1'; supported: %2")
                                         .arg(declaredVersion, (modernVersions() + legacyVersions()).join(QStringLiteral(", ")));
        }
        return envelope;
    }
    envelope.m_era = Era::Modern;

    const auto malformed = [&envelope](const QString &text) {
        envelope.m_problem = Problem::Malformed;
        envelope.m_problemText = text;
        return envelope;
    };
    if (!metaValue.isObject())
        return malformed(QStringLiteral("Invalid params: a 2026-07-28 request needs \"_meta\" with \"%1\" and \"%2\"")
                             .arg(QLatin1String(ProtocolVersionKey), QLatin1String(ClientCapabilitiesKey)));
    const QJsonValue version = meta.value(QLatin1String(ProtocolVersionKey));
    if (!version.isString())
        return malformed(QStringLiteral("Invalid params: \"_meta\" needs \"%1\" as a string, e.g. \"%2\"")
                             .arg(QLatin1String(ProtocolVersionKey), modernVersions().first()));
    const QJsonValue capabilities = meta.value(QLatin1String(ClientCapabilitiesKey));
    if (!capabilities.isObject())
        return malformed(QStringLiteral("Invalid params: \"_meta\" needs \"%1\" as an object ({} when the client has none)")
                             .arg(QLatin1String(ClientCapabilitiesKey)));
    const QJsonValue clientInfo = meta.value(QLatin1String(ClientInfoKey));
    if (!clientInfo.isUndefined() && !clientInfo.isObject())
        return malformed(QStringLiteral("Invalid params: \"%1\" must be an object with \"name\" and \"version\"").arg(QLatin1String(ClientInfoKey)));
    envelope.m_protocolVersion = version.toString();
    envelope.m_clientCapabilities = capabilities.toObject();
    envelope.m_clientInfo = clientInfo.toObject();

    if (!isModernVersion(envelope.m_protocolVersion)) {
        envelope.m_problem = Problem::UnsupportedVersion;
        envelope.m_problemText = QStringLiteral("Unsupported protocol version '%1'; this server speaks %2 without initialize (and %3 after initialize)")
                                     .arg(envelope.m_protocolVersion, modernVersions().join(QStringLiteral(", ")),
                                          legacyVersions().join(QStringLiteral(", ")));
        return envelope;
    }
    const QJsonValue level = meta.value(QLatin1String(LogLevelKey));
    if (!level.isUndefined()) {
        if (!level.isString() || !logLevels().contains(level.toString())) {
            envelope.m_problem = Problem::BadLogLevel;
            envelope.m_problemText = QStringLiteral("Invalid params: unknown log level in \"%1\"; use one of: %2")
                                         .arg(QLatin1String(LogLevelKey), logLevels().join(QStringLiteral(", ")));
            return envelope;
        }
        envelope.m_logLevel = level.toString();
    }
    return envelope;
}

QJsonObject RequestEnvelope::refusal(const QJsonValue &id) const
{
    switch (m_problem) {
    case Problem::None:
        return {};
    case Problem::UnsupportedVersion:
        return JsonRpc::error(id, McpErrors::UnsupportedProtocolVersion, m_problemText,
                              QJsonObject{{QStringLiteral("supported"), QJsonArray::fromStringList(modernVersions())},
                                          {QStringLiteral("requested"), m_protocolVersion}});
    case Problem::UnsupportedDeclaredVersion:
        return JsonRpc::error(id, JsonRpc::InvalidRequest, m_problemText);
    case Problem::Malformed:
    case Problem::BadLogLevel:
        break;
    }
    return JsonRpc::error(id, JsonRpc::InvalidParams, m_problemText);
}

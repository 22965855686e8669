#include "ModernAnswers.h"

#include "jsonrpc/JsonRpc.h"
#include "json/JsonTextWriter.h"
#include "McpErrors.h"
#include "RequestEnvelope.h"

ModernAnswers::ModernAnswers(const QJsonObject &serverInfo) : m_serverInfo(JsonTextWriter::compact(serverInfo)) {}

void ModernAnswers::setCacheHint(const QString &method, int ttlMs, bool isPublic)
{
    m_cacheHints.insert(method, {ttlMs, isPublic});
}

McpMessage ModernAnswers::answer(const QString &method, const QJsonObject &response) const
{
    if (response.contains(QStringLiteral("error"))) {
        QJsonObject error = response.value(QStringLiteral("error")).toObject();
        if (error.value(QStringLiteral("code")).toInt() != McpErrors::ResourceNotFound)
            return response;
        error.insert(QStringLiteral("code"), JsonRpc::InvalidParams); // 2026-07-28 never says -32002
        QJsonObject changed = response;
        changed.insert(QStringLiteral("error"), error);
        return changed;
    }
    QJsonObject result = response.value(QStringLiteral("result")).toObject();
    const QString resultType = result.value(QStringLiteral("resultType")).toString(QStringLiteral("complete"));
    const QJsonObject meta = result.value(QStringLiteral("_meta")).toObject();
    result.remove(QStringLiteral("resultType"));
    result.remove(QStringLiteral("_meta"));
    JsonTextWriter json;
    json.beginObject().key("jsonrpc").value(u"2.0").key("id").value(response.value(QStringLiteral("id"))).key("result").beginObject();
    json.members(JsonTextWriter::compact(result));
    finishResult(json, method, resultType, meta);
    json.endObject().endObject();
    return McpMessage::fromText(json.take());
}

void ModernAnswers::finishResult(JsonTextWriter &json, const QString &method, QStringView resultType, const QJsonObject &meta) const
{
    json.key("resultType").value(resultType).key("_meta").beginObject();
    if (!meta.isEmpty()) {
        QJsonObject own = meta;
        own.remove(QLatin1String(RequestEnvelope::ServerInfoKey)); // ours says who answered
        json.members(JsonTextWriter::compact(own));
    }
    json.key(RequestEnvelope::ServerInfoKey).raw(m_serverInfo).endObject();
    const auto hint = m_cacheHints.constFind(method);
    if (hint != m_cacheHints.constEnd())
        json.key("ttlMs").value(hint->ttlMs).key("cacheScope").value(hint->isPublic ? u"public" : u"private");
}

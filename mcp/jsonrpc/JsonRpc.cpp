#include "JsonRpc.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace JsonRpc {

bool isValidId(const QJsonValue &id)
{
    if (id.isString())
        return true;
    if (!id.isDouble())
        return false;
    // Integers only, and only those a double holds exactly (converting 7e60 to qint64 is
    // undefined behaviour: the fuzzer found it).
    const double d = id.toDouble();
    return d >= -9007199254740992.0 && d <= 9007199254740992.0 && d == std::floor(d);
}

QString idKey(const QJsonValue &id)
{
    return id.isString() ? QStringLiteral("s:") + id.toString() : QStringLiteral("n:") + QString::number(qint64(id.toDouble()));
}

QJsonObject request(const QJsonValue &id, const QString &method, const QJsonObject &params)
{
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id}, {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    return message;
}

QJsonObject response(const QJsonValue &id, const QJsonValue &result)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id}, {QStringLiteral("result"), result}};
}

QJsonObject error(const QJsonValue &id, int code, const QString &message, const QJsonValue &data)
{
    QJsonObject error{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!data.isUndefined() && !data.isNull())
        error.insert(QStringLiteral("data"), data);
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id.isUndefined() ? QJsonValue() : id},
            {QStringLiteral("error"), error}};
}

QJsonObject notification(const QString &method, const QJsonObject &params)
{
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    return message;
}

Message Message::invalid(const QJsonValue &id, int code, const QString &text)
{
    Message message;
    message.m_kind = Kind::Invalid;
    message.m_id = id.isUndefined() ? QJsonValue() : id;
    message.m_refusal = error(message.m_id, code, text);
    return message;
}

Message Message::parse(const QByteArray &bytes)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        // QJsonDocument takes only objects and arrays: a lone string or number is valid JSON,
        // so it is an invalid request, not a parse error. Only failures pay for this second look.
        if (QJsonDocument::fromJson('[' + bytes + ']').array().size() == 1)
            return invalid(QJsonValue(), InvalidRequest, QStringLiteral("A JSON-RPC message must be an object"));
        return invalid(QJsonValue(), ParseError,
                       QStringLiteral("Parse error: %1 at offset %2").arg(parseError.errorString()).arg(parseError.offset));
    }
    if (document.isArray()) {
        const QJsonArray elements = document.array();
        if (elements.isEmpty())
            return invalid(QJsonValue(), InvalidRequest, QStringLiteral("Empty batch"));
        Message batch;
        batch.m_kind = Kind::Batch;
        for (const QJsonValue &element : elements) {
            batch.m_batch.append(element.isObject() ? fromObject(element.toObject())
                                                    : invalid(QJsonValue(), InvalidRequest, QStringLiteral("A batch element is not an object")));
        }
        return batch;
    }
    return fromObject(document.object());
}

Message Message::fromObject(const QJsonObject &object)
{
    const bool hasId = object.contains(QStringLiteral("id"));
    const QJsonValue id = object.value(QStringLiteral("id"));
    // An error about a message with a usable id echoes it; otherwise the id is null.
    const QJsonValue echoedId = hasId && isValidId(id) ? id : QJsonValue();
    if (object.value(QStringLiteral("jsonrpc")).toString() != QStringLiteral("2.0"))
        return invalid(echoedId, InvalidRequest, QStringLiteral("Invalid request: \"jsonrpc\" must be \"2.0\""));
    const QJsonValue method = object.value(QStringLiteral("method"));
    Message message;
    message.m_object = object;
    if (!method.isString()) {
        if (hasId && (object.contains(QStringLiteral("result")) || object.contains(QStringLiteral("error")))) {
            message.m_kind = Kind::Response;
            message.m_id = id;
            return message;
        }
        return invalid(echoedId, InvalidRequest, QStringLiteral("Invalid request: \"method\" must be a string"));
    }
    if (hasId && !isValidId(id))
        return invalid(QJsonValue(), InvalidRequest, QStringLiteral("Invalid request: \"id\" must be a string or an integer"));
    message.m_kind = hasId ? Kind::Request : Kind::Notification;
    message.m_id = hasId ? id : QJsonValue(QJsonValue::Undefined);
    message.m_method = method.toString();
    message.m_params = object.value(QStringLiteral("params"));
    return message;
}

} // namespace JsonRpc

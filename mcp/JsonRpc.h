#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cmath>

// JSON-RPC 2.0 as MCP uses it: ids are strings or integers and are echoed back exactly.
namespace JsonRpc {

enum ErrorCode {
    ParseError = -32700,
    InvalidRequest = -32600,
    MethodNotFound = -32601,
    InvalidParams = -32602,
    InternalError = -32603,
};

inline bool isValidId(const QJsonValue &id)
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

inline QJsonObject response(const QJsonValue &id, const QJsonValue &result)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id}, {QStringLiteral("result"), result}};
}

inline QJsonObject error(const QJsonValue &id, int code, const QString &message, const QJsonValue &data = {})
{
    QJsonObject error{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!data.isUndefined() && !data.isNull())
        error.insert(QStringLiteral("data"), data);
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id.isUndefined() ? QJsonValue() : id},
            {QStringLiteral("error"), error}};
}

inline QJsonObject notification(const QString &method, const QJsonObject &params = {})
{
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    return message;
}

// A key for hashing ids: "s:abc" or "n:42", so that "42" and 42 stay different requests.
inline QString idKey(const QJsonValue &id)
{
    return id.isString() ? QStringLiteral("s:") + id.toString() : QStringLiteral("n:") + QString::number(qint64(id.toDouble()));
}

} // namespace JsonRpc

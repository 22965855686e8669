#include "JsonSchema.h"

#include <QJsonArray>

namespace Schema {

QJsonObject string(const QString &description)
{
    return {{QStringLiteral("type"), QStringLiteral("string")}, {QStringLiteral("description"), description}};
}

QJsonObject stringEnum(const QString &description, const QStringList &values)
{
    QJsonObject schema = string(description);
    schema.insert(QStringLiteral("enum"), QJsonArray::fromStringList(values));
    return schema;
}

QJsonObject nullableString(const QString &description)
{
    return {{QStringLiteral("type"), QJsonArray{QStringLiteral("string"), QStringLiteral("null")}},
            {QStringLiteral("description"), description}};
}

QJsonObject integer(const QString &description, int minimum, int maximum)
{
    return {{QStringLiteral("type"), QStringLiteral("integer")}, {QStringLiteral("description"), description},
            {QStringLiteral("minimum"), minimum}, {QStringLiteral("maximum"), maximum}};
}

QJsonObject nullableInteger(const QString &description)
{
    return {{QStringLiteral("type"), QJsonArray{QStringLiteral("integer"), QStringLiteral("null")}},
            {QStringLiteral("description"), description}};
}

QJsonObject number(const QString &description, double minimum, double maximum)
{
    return {{QStringLiteral("type"), QStringLiteral("number")}, {QStringLiteral("description"), description},
            {QStringLiteral("minimum"), minimum}, {QStringLiteral("maximum"), maximum}};
}

QJsonObject boolean(const QString &description)
{
    return {{QStringLiteral("type"), QStringLiteral("boolean")}, {QStringLiteral("description"), description}};
}

QJsonObject stringArray(const QString &description)
{
    return array(description, QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}});
}

QJsonObject array(const QString &description, const QJsonObject &items)
{
    return {{QStringLiteral("type"), QStringLiteral("array")}, {QStringLiteral("description"), description},
            {QStringLiteral("items"), items}};
}

QJsonObject objectArray(const QString &description, const QJsonObject &itemProperties, const QStringList &required)
{
    return array(description, object(itemProperties, required, false));
}

QJsonObject object(const QJsonObject &properties, const QStringList &required, bool closed)
{
    QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")}, {QStringLiteral("properties"), properties}};
    if (!required.isEmpty())
        schema.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    if (closed)
        schema.insert(QStringLiteral("additionalProperties"), false);
    return schema;
}

} // namespace Schema

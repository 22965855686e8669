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

namespace {
// A bound past a million says nothing an agent needs (the argument's check still applies it),
// and every client reads every schema on every connection.
constexpr double UnboundedFrom = 1e6;
} // namespace

namespace {
QJsonObject bounded(const QString &type, const QString &description, double minimum, double maximum)
{
    QJsonObject schema{{QStringLiteral("type"), type}, {QStringLiteral("description"), description}, {QStringLiteral("minimum"), minimum}};
    if (maximum < UnboundedFrom)
        schema.insert(QStringLiteral("maximum"), maximum);
    return schema;
}
} // namespace

QJsonObject integer(const QString &description, int minimum, int maximum)
{
    return bounded(QStringLiteral("integer"), description, minimum, maximum);
}

QJsonObject nullableInteger(const QString &description)
{
    return {{QStringLiteral("type"), QJsonArray{QStringLiteral("integer"), QStringLiteral("null")}},
            {QStringLiteral("description"), description}};
}

QJsonObject number(const QString &description, double minimum, double maximum)
{
    return bounded(QStringLiteral("number"), description, minimum, maximum);
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

QJsonObject outline(const QJsonObject &schema)
{
    QJsonObject properties;
    const QJsonObject full = schema.value(QStringLiteral("properties")).toObject();
    for (auto it = full.begin(); it != full.end(); ++it) {
        const QJsonObject property = it.value().toObject();
        QJsonObject kept;
        for (const char *key : {"type", "enum"}) {
            if (property.contains(QLatin1String(key)))
                kept.insert(QLatin1String(key), property.value(QLatin1String(key)));
        }
        properties.insert(it.key(), kept);
    }
    QJsonObject outlined{{QStringLiteral("type"), QStringLiteral("object")}, {QStringLiteral("properties"), properties}};
    if (schema.contains(QStringLiteral("required")))
        outlined.insert(QStringLiteral("required"), schema.value(QStringLiteral("required")));
    return outlined;
}

} // namespace Schema

#include "ToolKit.h"

#include "ActivityDigest.h"
#include "EvalFormatter.h"

namespace ToolKit {

QJsonObject descriptor(const QString &name, const QString &title, const QString &description,
                       const QJsonObject &inputSchema, const QJsonObject &outputSchema, Annotations annotations)
{
    return {{QStringLiteral("name"), name},
            {QStringLiteral("title"), title},
            {QStringLiteral("description"), description},
            {QStringLiteral("inputSchema"), inputSchema},
            {QStringLiteral("outputSchema"), outputSchema},
            {QStringLiteral("annotations"), Schema::annotations(title, annotations.readOnly, annotations.destructive, annotations.idempotent)}};
}

QJsonObject outputSchema(QJsonObject properties, const QStringList &required)
{
    properties.insert(QStringLiteral("session_activity"), ActivityDigest::schema());
    return Schema::object(properties, required, false);
}

QJsonObject nullableString(const QString &description)
{
    return {{QStringLiteral("type"), QJsonArray{QStringLiteral("string"), QStringLiteral("null")}},
            {QStringLiteral("description"), description}};
}

QJsonObject nullableInteger(const QString &description)
{
    return {{QStringLiteral("type"), QJsonArray{QStringLiteral("integer"), QStringLiteral("null")}},
            {QStringLiteral("description"), description}};
}

QJsonObject objectArray(const QString &description, const QJsonObject &itemProperties, const QStringList &required)
{
    return {{QStringLiteral("type"), QStringLiteral("array")},
            {QStringLiteral("description"), description},
            {QStringLiteral("items"), Schema::object(itemProperties, required, false)}};
}

QJsonObject stringEnum(const QString &description, const QStringList &values)
{
    QJsonObject schema = Schema::string(description);
    schema.insert(QStringLiteral("enum"), QJsonArray::fromStringList(values));
    return schema;
}

QJsonObject jobStatus(const JobResult &result)
{
    QJsonObject json{{QStringLiteral("status"), JobResult::statusName(result.status)}};
    if (!result.ok()) {
        json.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("type"), result.error.type},
                                                         {QStringLiteral("message"), result.error.message}});
    }
    return json;
}

QJsonObject jobStatusSchema()
{
    return {{QStringLiteral("status"), stringEnum(QStringLiteral("How the engine job ended"),
                                                  {QStringLiteral("ok"), QStringLiteral("error"), QStringLiteral("interrupted"),
                                                   QStringLiteral("timed-out"), QStringLiteral("engine-restarted"),
                                                   QStringLiteral("cancelled"), QStringLiteral("failed")})},
            {QStringLiteral("error"), Schema::object({{QStringLiteral("type"), Schema::string(QStringLiteral("Condition type"))},
                                                      {QStringLiteral("message"), Schema::string(QStringLiteral("The condition's message"))}},
                                                     {QStringLiteral("type"), QStringLiteral("message")}, false)}};
}

ToolResult jobError(const Job &job, QJsonObject structured)
{
    const QJsonObject status = jobStatus(job.result);
    for (auto it = status.begin(); it != status.end(); ++it)
        structured.insert(it.key(), it.value());
    return ToolResult::error(EvalFormatter::text(job.result), structured);
}

QString string(const QJsonObject &object, const QString &key)
{
    const QJsonValue value = object.value(key);
    return value.isString() ? value.toString() : QString();
}

} // namespace ToolKit

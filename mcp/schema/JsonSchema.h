#pragma once

#include <QJsonObject>
#include <QStringList>

// Builders for the JSON Schemas of tools/list (inputSchema, outputSchema), so that a schema in
// the code reads like the schema it produces. Every property is described.
namespace Schema {

QJsonObject string(const QString &description);
QJsonObject stringEnum(const QString &description, const QStringList &values);
QJsonObject nullableString(const QString &description);
QJsonObject integer(const QString &description, int minimum, int maximum);
QJsonObject nullableInteger(const QString &description);
QJsonObject number(const QString &description, double minimum, double maximum);
QJsonObject boolean(const QString &description);
QJsonObject stringArray(const QString &description);
QJsonObject array(const QString &description, const QJsonObject &items);
// An array of objects with these properties (open: the engine may add fields).
QJsonObject objectArray(const QString &description, const QJsonObject &itemProperties, const QStringList &required = {});
// closed: additionalProperties false (input schemas are closed; output schemas stay open).
QJsonObject object(const QJsonObject &properties, const QStringList &required = {}, bool closed = true);

// What tools/list says of an output schema: each property's type (and enum), without the
// descriptions and nested shapes. Every client downloads every schema on every connection,
// and the full ones were two thirds of tools/list (76,710 characters of 121,008, issue 32);
// the text result says what each field means, and mcp/README.md documents them.
QJsonObject outline(const QJsonObject &schema);

} // namespace Schema

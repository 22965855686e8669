#pragma once

#include "Job.h"
#include "SessionTool.h"

#include <QJsonArray>
#include <QJsonObject>

// What the tools beyond evaluate-lisp share: their descriptor's shape, open output schemas
// (McpServer adds session_activity to structuredContent), and the error result of an engine
// job that did not succeed.
namespace ToolKit {

struct Annotations
{
    bool readOnly = true;
    bool destructive = false;
    bool idempotent = true;
};

QJsonObject descriptor(const QString &name, const QString &title, const QString &description,
                       const QJsonObject &inputSchema, const QJsonObject &outputSchema, Annotations annotations);

// An object schema that allows more properties and declares session_activity.
QJsonObject outputSchema(QJsonObject properties, const QStringList &required);

QJsonObject nullableString(const QString &description);
QJsonObject nullableInteger(const QString &description);
QJsonObject objectArray(const QString &description, const QJsonObject &itemProperties, const QStringList &required = {});
QJsonObject stringEnum(const QString &description, const QStringList &values);

// The engine's status and error of a job, for structuredContent.
QJsonObject jobStatus(const JobResult &result);
QJsonObject jobStatusSchema();

// The seeds' "[ERROR] TYPE\nmessage" text (with any output before it), as an isError result.
ToolResult jobError(const Job &job, QJsonObject structured = {});

QString string(const QJsonObject &object, const QString &key);

} // namespace ToolKit

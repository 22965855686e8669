#pragma once

#include "Job.h"
#include "Tool.h"

#include <functional>

class Session;

// Base of the tools that send work to the shared session's queue: it submits the request,
// streams the latest output line as progress about once a second, turns cancellation into
// an interrupt, and hands the finished evaluation to the tool's formatter.
class SessionTool : public Tool
{
public:
    explicit SessionTool(Session *session) : m_session(session) {}

protected:
    using Formatter = std::function<ToolResult(const Job &job)>;
    void submit(const ToolCallPtr &call, JobRequest request, Formatter formatter);

    // Service-thread questions (no user code, not queued).
    void ask(const ToolCallPtr &call, const QString &op, const QJsonObject &arguments,
             std::function<ToolResult(const QJsonObject &reply)> formatter);

    Session *m_session;
};

// Small builders for JSON Schemas, so descriptors read like the schema they produce.
namespace Schema {
QJsonObject string(const QString &description);
QJsonObject integer(const QString &description, int minimum, int maximum);
QJsonObject number(const QString &description, double minimum, double maximum);
QJsonObject boolean(const QString &description);
QJsonObject stringArray(const QString &description);
QJsonObject object(const QJsonObject &properties, const QStringList &required = {}, bool closed = true);
QJsonObject annotations(const QString &title, bool readOnly, bool destructive, bool idempotent);
} // namespace Schema

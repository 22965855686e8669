#pragma once

#include "Origin.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QSharedPointer>

// What a tool returns: the seeds' text for people and models, structured content for
// programs (it must conform to the tool's outputSchema), and whether it is an error.
struct ToolResult
{
    QString text;
    QJsonObject structured;
    bool isError = false;

    static ToolResult error(const QString &text, const QJsonObject &structured = {})
    {
        return {text, structured, true};
    }
};

// One tools/call in flight. The tool calls finish() exactly once (later calls are ignored);
// the MCP layer turns it into the JSON-RPC response. cancelled() fires when the client sends
// notifications/cancelled or goes away.
class ToolCall : public QObject
{
    Q_OBJECT
public:
    ToolCall(const QString &tool, const QJsonObject &arguments, const Origin &origin, bool wantsProgress)
        : m_tool(tool), m_arguments(arguments), m_origin(origin), m_wantsProgress(wantsProgress) {}

    QString tool() const { return m_tool; }
    const QJsonObject &arguments() const { return m_arguments; }
    const Origin &origin() const { return m_origin; }
    bool wantsProgress() const { return m_wantsProgress; }
    bool isFinished() const { return m_finished; }
    bool isCancelled() const { return m_cancelled; }

    void finish(const ToolResult &result)
    {
        if (m_finished)
            return;
        m_finished = true;
        Q_EMIT finished(result);
    }
    void reportProgress(double value, const QString &message)
    {
        if (!m_finished && m_wantsProgress)
            Q_EMIT progress(value, message);
    }
    void cancel()
    {
        if (m_finished || m_cancelled)
            return;
        m_cancelled = true;
        Q_EMIT cancelled();
    }

    // Set by the tool when it submits work to the session, so the window can link them.
    quint64 jobId = 0;

Q_SIGNALS:
    void finished(const ToolResult &result);
    void progress(double progress, const QString &message);
    void cancelled();

private:
    QString m_tool;
    QJsonObject m_arguments;
    Origin m_origin;
    bool m_wantsProgress = false;
    bool m_finished = false;
    bool m_cancelled = false;
};

using ToolCallPtr = QSharedPointer<ToolCall>;

// A tool: its description for tools/list and the code that serves a call.
class Tool
{
public:
    virtual ~Tool() = default;
    virtual QString name() const = 0;
    // {name, title, description, inputSchema, outputSchema, annotations}
    virtual QJsonObject descriptor() const = 0;
    // Evaluation tools change the session; introspection tools only read it. Agent access
    // modes (read-only, ask) use this.
    virtual bool isReadOnly() const = 0;
    virtual void call(const ToolCallPtr &call) = 0;
};

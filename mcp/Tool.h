#pragma once

#include "Origin.h"
#include "ToolArguments.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QSharedPointer>

#include <atomic>
#include <functional>

// What a tool returns: the seeds' text for people and models, structured content for
// programs (it must conform to the tool's outputSchema), and whether it is an error.
struct ToolResult
{
    QString text;
    QJsonObject structured;
    bool isError = false;
    // Further text blocks after content[0], which stays exactly the tool's own text (the
    // debugger's [Debugger] block); the activity digest comes after them.
    QStringList moreText;

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
        : m_tool(tool), m_arguments(arguments), m_origin(origin), m_wantsProgress(wantsProgress), m_serial(nextSerial()) {}

    QString tool() const { return m_tool; }
    const QJsonObject &arguments() const { return m_arguments; }
    const Origin &origin() const { return m_origin; }
    bool wantsProgress() const { return m_wantsProgress; }
    bool isFinished() const { return m_finished; }
    bool isCancelled() const { return m_cancelled; }
    // Unique in this process, never 0: what a file change this call proposes carries
    // (FileChange::proposedBy), so the window can find the call's row.
    quint64 serial() const { return m_serial; }

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
    quint64 m_serial;

    static quint64 nextSerial()
    {
        static std::atomic<quint64> last{0};
        return ++last;
    }
};

using ToolCallPtr = QSharedPointer<ToolCall>;

// How a tool treats the session, for its annotations (readOnlyHint and so on) and for the
// agent access modes (read-only lets only read-only tools run).
struct ToolHints
{
    bool readOnly = true;
    bool destructive = false;
    bool idempotent = true;
};
namespace Hints {
// Looks, changes nothing.
constexpr ToolHints ReadOnly{};
// Sets something; doing it again is harmless.
constexpr ToolHints Idempotent{.readOnly = false, .destructive = false, .idempotent = true};
// Runs the client's code, or throws state away.
constexpr ToolHints Destructive{.readOnly = false, .destructive = true, .idempotent = false};
} // namespace Hints

// Everything tools/list says about a tool. The output schema is open, and every tool's also
// declares session_activity (McpServer adds it to structuredContent).
struct ToolSpec
{
    QString name;  // [A-Za-z0-9_.-]{1,128}
    QString title;
    QString description;
    ArgumentTable arguments;
    QJsonObject outputProperties;
    QStringList outputRequired;
    ToolHints hints = Hints::ReadOnly;
    // Writes the project's files through ProjectFiles, which asks the person about each change
    // (with its diff) in Ask mode: the call itself is not held for approval.
    bool changesFiles = false;
    // Hands its work to the person, who runs, edits or rejects it (stage-form): in Ask mode that
    // choice is the approval, so the call itself is not held; Read-only refuses it like any
    // evaluation.
    bool personDecides = false;
};

// A tool: its spec, and the code that serves a call whose arguments the spec's table has
// already checked. The code calls call->finish() exactly once, now or later. See
// mcp/tools/README.md for how to write one.
class Tool
{
public:
    using Serve = std::function<void(const ToolCallPtr &call, const ToolArguments &arguments)>;

    Tool(ToolSpec spec, Serve serve);

    const QString &name() const { return m_spec.name; }
    bool isReadOnly() const { return m_spec.hints.readOnly; }
    bool changesFiles() const { return m_spec.changesFiles; }
    bool personDecides() const { return m_spec.personDecides; }
    // {name, title, description, inputSchema, outputSchema, annotations}
    const QJsonObject &descriptor() const { return m_descriptor; }
    // Serves the call, or finishes it with the sentence that names the bad argument.
    void call(const ToolCallPtr &call) const;

private:
    ToolSpec m_spec;
    Serve m_serve;
    QJsonObject m_descriptor;
};

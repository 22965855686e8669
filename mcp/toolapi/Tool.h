#pragma once

#include "RequestTrace.h"
#include "session/Origin.h"
#include "StructuredContent.h"
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
    // How the call ended, for the window's Tool calls panel: answered, handed off as a job
    // (status "running", ToolKit::running) or parked in the debugger (DebuggerFormatter).
    enum class Ending { Answered, HandedOff, Parked };

    QString text;
    StructuredContent structured;
    bool isError = false;
    Ending ending = Ending::Answered;
    // Further text blocks after content[0], which stays exactly the tool's own text (the
    // debugger's [Debugger] block); the activity digest comes after them.
    QStringList moreText;
    // 2026-07-28: instead of a result, what the client must ask its user before it retries the
    // call (an InputRequiredResult's inputRequests and requestState; the answer says
    // resultType "input_required", ToolAnswer). Empty for every ordinary result.
    QJsonObject inputRequired;
    // The session job whose outcome this result reports (0: none): the caller's activity
    // digest leaves it out, since the result itself says what became of it.
    quint64 job = 0;

    static ToolResult success(const QString &text, const QJsonObject &structured = {})
    {
        ToolResult result;
        result.text = text;
        result.structured = structured;
        return result;
    }
    static ToolResult error(const QString &text, const QJsonObject &structured = {})
    {
        ToolResult result;
        result.text = text;
        result.structured = structured;
        result.isError = true;
        return result;
    }
    static ToolResult askFirst(const QJsonObject &inputRequired)
    {
        ToolResult result;
        result.inputRequired = inputRequired;
        return result;
    }
};

// What the person at an agent's client answered when asked whether a call may go on (agent
// access in Ask mode without a window: MCP elicitation).
struct PersonsAnswer
{
    enum class Kind {
        Accepted,
        Declined,     // declined or cancelled
        CannotAsk,    // the client does not declare elicitation (form mode)
        NoAnswer,     // asked, but no answer came (`problem` says why)
        AskedOnRetry, // 2026-07-28: the call ended with an input_required result; its retry decides
    };
    Kind kind = Kind::CannotAsk;
    QString problem;
};

// One tools/call in flight. The tool calls finish() exactly once (later calls are ignored);
// the MCP layer turns it into the JSON-RPC response. cancelled() fires when the client sends
// notifications/cancelled or goes away.
class ToolCall : public QObject
{
    Q_OBJECT
public:
    using Answered = std::function<void(const PersonsAnswer &answer)>;
    // How to ask the person at this call's client (McpServer sets it, from access/ClientElicitation).
    // `subject` identifies what is asked about (the same question on a retry has the same one).
    using Asker = std::function<void(ToolCall *call, const QString &subject, const QString &message, Answered answered)>;

    // `trace`: the request's (McpServer's); without one (a call made in a test, or by the app
    // itself) the call has a trace of its own.
    ToolCall(const QString &tool, const QJsonObject &arguments, const Origin &origin, bool wantsProgress, RequestTracePtr trace = {})
        : m_tool(tool), m_arguments(arguments), m_origin(origin), m_wantsProgress(wantsProgress), m_serial(nextSerial()),
          m_trace(std::move(trace))
    {
        if (!m_trace)
            m_trace = RequestTracePtr::create(origin.name, QJsonObject{{QStringLiteral("method"), QStringLiteral("tools/call")},
                                                                       {QStringLiteral("params"), QJsonObject{{QStringLiteral("name"), tool},
                                                                                                              {QStringLiteral("arguments"), arguments}}}});
    }

    QString tool() const { return m_tool; }
    const QJsonObject &arguments() const { return m_arguments; }
    const Origin &origin() const { return m_origin; }
    bool wantsProgress() const { return m_wantsProgress; }
    bool isFinished() const { return m_finished; }
    bool isCancelled() const { return m_cancelled; }
    // Unique in this process, never 0: a name for the call where a tool keeps it (stage-form's
    // queue of forms).
    quint64 serial() const { return m_serial; }
    // Where the tool reports what the window shows of the call: waiting for the person, the
    // job it queued in the session, the file change it proposed (RequestTrace). Never null.
    RequestTrace *trace() const { return m_trace.data(); }
    const RequestTracePtr &traceRef() const { return m_trace; }

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
    // Asks the person at the client whether this call may go on; without a way to ask (a call
    // made without a client), the answer is CannotAsk.
    void askThePerson(const QString &subject, const QString &message, Answered answered)
    {
        if (m_asker)
            m_asker(this, subject, message, std::move(answered));
        else
            answered(PersonsAnswer{});
    }
    void setAsker(Asker asker) { m_asker = std::move(asker); }

    void cancel()
    {
        if (m_finished || m_cancelled)
            return;
        m_cancelled = true;
        Q_EMIT cancelled();
    }

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
    Asker m_asker;
    RequestTracePtr m_trace;

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
    // What a call will do, in the person's words ("run the tests of system shapes"), for the
    // approval bar and the question asked through the client when the call carries no code.
    // Without one: the tool's name and its arguments.
    std::function<QString(const QJsonObject &arguments)> intent;
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
    // What a call with these arguments will do (ToolSpec::intent), never empty.
    QString intent(const QJsonObject &arguments) const;
    bool personDecides() const { return m_spec.personDecides; }
    // {name, title, description, inputSchema, outputSchema, annotations}: what tools/list
    // says, with the output schema in outline (Schema::outline).
    const QJsonObject &descriptor() const { return m_descriptor; }
    // The whole output schema, every field described: what results are checked against in
    // tests, and what mcp/README.md documents.
    const QJsonObject &fullOutputSchema() const { return m_fullOutputSchema; }
    // Serves the call, or finishes it with the sentence that names the bad argument.
    void call(const ToolCallPtr &call) const;

private:
    ToolSpec m_spec;
    Serve m_serve;
    QJsonObject m_descriptor;
    QJsonObject m_fullOutputSchema;
};

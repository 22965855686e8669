#include "Tools.h"

#include "client/EngineProtocol.h"
#include "DebuggerFormatter.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"
#include "ToolKit.h"

#include <QJsonArray>

namespace {
using EngineProtocol::FrameReply;

const auto DebuggerId = Arg::integer(QStringLiteral("debugger_id"), QStringLiteral("From the [Debugger] block or list-debuggers"), 1, 2147483647);
const auto Frame = Arg::integer(QStringLiteral("frame"), QStringLiteral("As in the [Backtrace] (0: innermost)"), 0, 10000);

QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject variable{{QStringLiteral("name"), string(QStringLiteral("The variable"))},
                               {QStringLiteral("value"), string(QStringLiteral("Its value, printed"))},
                               {QStringLiteral("result_id"), string(QStringLiteral("Handle for inspect-object (non-primitive values only)"))}};
    return {{QStringLiteral("debugger_id"), integer(QStringLiteral("The debugger"), 1, 2147483647)},
            {QStringLiteral("frame"), integer(QStringLiteral("The frame"), 0, 10000)},
            {QStringLiteral("text"), string(QStringLiteral("The call, as in the [Backtrace]"))},
            {QStringLiteral("function"), nullableString(QStringLiteral("The function's name; null for a built-in's call rebuilt from the condition"))},
            {QStringLiteral("locals_available"), boolean(QStringLiteral("ECL kept this frame's variables (interpreted code, or the project's code compiled for debugging)"))},
            {QStringLiteral("note"), nullableString(QStringLiteral("Why there are no variables, when there are none; what they are, when they are copies"))},
            {QStringLiteral("arguments"), objectArray(QStringLiteral("The function's parameters, in lambda-list order"), variable, {QStringLiteral("name"), QStringLiteral("value")})},
            {QStringLiteral("locals"), objectArray(QStringLiteral("Its other lexical variables, outermost first"), variable, {QStringLiteral("name"), QStringLiteral("value")})},
            {QStringLiteral("source"), object({}, {}, false)},
            {QStringLiteral("package"), string(QStringLiteral("The package the evaluation parked in"))}};
}

QString variableLines(const QJsonArray &variables)
{
    QStringList lines;
    for (const QJsonValue &v : variables) {
        const FrameReply::Variable variable(v);
        QString line = QStringLiteral("  %1 = %2").arg(variable.name(), variable.value());
        if (!variable.resultId().isEmpty())
            line += QStringLiteral("   [result_id %1]").arg(variable.resultId());
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

QString sourceLine(const Session *session, const QJsonValue &source)
{
    const QJsonObject where = source.toObject();
    if (where.value(QStringLiteral("where")).toString() == QStringLiteral("session"))
        return QStringLiteral("defined in the session (evaluation %1)").arg(where.value(QStringLiteral("job")).toInteger());
    if (where.value(QStringLiteral("where")).toString() == QStringLiteral("file"))
        return QStringLiteral("defined in %1").arg(ToolKit::sourcePlace(session, where.value(QStringLiteral("file")).toString(),
                                                                        where.value(QStringLiteral("line")).toInt()));
    return QStringLiteral("source unknown");
}

ToolResult framed(const Session *session, int debuggerId, int frame, const FrameReply &reply)
{
    QStringList parts{QStringLiteral("[Frame %1 of debugger %2] %3").arg(frame).arg(debuggerId).arg(reply.text())};
    if (reply.function().isString())
        parts.last() += QStringLiteral("\nFunction: %1, %2").arg(reply.function().toString(), sourceLine(session, reply.source()));
    if (!reply.localsAvailable()) {
        parts << QStringLiteral("Arguments and locals: not available. %1").arg(reply.note().toString());
    } else {
        parts << (reply.arguments().isEmpty() ? QStringLiteral("Arguments: none") : QStringLiteral("Arguments:\n") + variableLines(reply.arguments()));
        parts << (reply.locals().isEmpty() ? QStringLiteral("Locals: none") : QStringLiteral("Locals:\n") + variableLines(reply.locals()));
        if (reply.note().isString()) // the project's compiled code: copies of the values
            parts << reply.note().toString();
    }
    QJsonObject structured{{QStringLiteral("debugger_id"), debuggerId}, {QStringLiteral("frame"), frame}};
    for (const char *field : {"text", "function", "locals_available", "note", "arguments", "locals", "source", "package"})
        structured.insert(QLatin1String(field), reply.json().value(QLatin1String(field)));
    if (!structured.value(QStringLiteral("source")).isObject())
        structured.insert(QStringLiteral("source"), QJsonObject{});
    return {parts.join(QStringLiteral("\n\n")), structured, false};
}
} // namespace

Tool debuggerFrameTool(Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("debugger-frame"),
        .title = QStringLiteral("Debugger frame"),
        .description = QStringLiteral(
            "One frame of a parked evaluation: its function and source, arguments and locals with values and result_ids, "
            "where ECL keeps them (interpreted code, the project's systems)."),
        .arguments = {DebuggerId.required(QStringLiteral("the debugger's id")), Frame.required(QStringLiteral("the frame's number"))},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("debugger_id"), QStringLiteral("frame")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [session](const ToolCallPtr &call, const ToolArguments &arguments) {
        const int debuggerId = arguments.value(DebuggerId, 0);
        const int frame = arguments.value(Frame, 0);
        session->debugger()->inspectFrame(debuggerId, frame, call->origin(), true, [call, session, debuggerId, frame](const QJsonObject &json) {
            const FrameReply reply(json);
            if (!reply.ok()) {
                const QString type = reply.errorType().isEmpty() ? QStringLiteral("DEBUGGER") : reply.errorType();
                call->finish(ToolResult::error(QStringLiteral("[ERROR] %1\n%2").arg(type, reply.errorMessage()),
                                               {{QStringLiteral("debugger_id"), debuggerId}, {QStringLiteral("frame"), frame}}));
                return;
            }
            call->finish(framed(session, debuggerId, frame, reply));
        });
    });
}

#include "Tools.h"

#include "JobHandles.h"

#include "client/EngineProtocol.h"
#include "schema/JsonSchema.h"
#include "ToolKit.h"

namespace {
using EngineProtocol::CompileReply;

const auto Code = Arg::string(QStringLiteral("code"), QStringLiteral("Top-level form(s) to compile"))
                      .required(QStringLiteral("the Lisp code to compile"));
const auto Package = Arg::string(QStringLiteral("package"), QStringLiteral("Package (default: the current one)"));
const auto Timeout = Arg::number(QStringLiteral("timeout_seconds"), QStringLiteral("Time limit (default: the session's)"), 1, 3600);

const QStringList Severities{QStringLiteral("error"), QStringLiteral("warning"), QStringLiteral("style-warning"), QStringLiteral("note")};

QJsonObject outputProperties()
{
    using namespace Schema;
    QJsonObject properties = ToolKit::jobStatusProperties();
    properties.insert(QStringLiteral("compiled"), boolean(QStringLiteral("True when ECL's compiler produced code without errors or warnings")));
    properties.insert(QStringLiteral("forms"), objectArray(QStringLiteral("The top-level forms read"),
                                                           {{QStringLiteral("index"), integer(QStringLiteral("0-based position"), 0, 2147483647)},
                                                            {QStringLiteral("line"), integer(QStringLiteral("1-based line where it starts"), 1, 2147483647)},
                                                            {QStringLiteral("text"), string(QStringLiteral("The form, printed briefly"))}}));
    properties.insert(QStringLiteral("diagnostics"),
                      objectArray(QStringLiteral("What the compiler and our checks found"),
                                  {{QStringLiteral("severity"), stringEnum(QStringLiteral("How serious"), Severities)},
                                   {QStringLiteral("form"), nullableInteger(QStringLiteral("Index of the form it belongs to, if known"))},
                                   {QStringLiteral("line"), nullableInteger(QStringLiteral("Line of that form"))},
                                   {QStringLiteral("source"), stringEnum(QStringLiteral("Who found it"), {QStringLiteral("ecl-compiler"), QStringLiteral("lisp-duet"), QStringLiteral("reader")})},
                                   {QStringLiteral("message"), string(QStringLiteral("What is wrong"))}},
                                  {QStringLiteral("severity"), QStringLiteral("message")}));
    properties.insert(QStringLiteral("counts"), object({{QStringLiteral("error"), integer(QStringLiteral("Errors"), 0, 2147483647)},
                                                        {QStringLiteral("warning"), integer(QStringLiteral("Warnings"), 0, 2147483647)},
                                                        {QStringLiteral("style-warning"), integer(QStringLiteral("Style warnings"), 0, 2147483647)},
                                                        {QStringLiteral("note"), integer(QStringLiteral("Notes"), 0, 2147483647)}}, {}, false));
    return properties;
}

ToolResult compiled(const Job &job)
{
    if (!job.result.ok())
        return ToolKit::jobError(job);
    const CompileReply reply(job.result.reply);
    const QJsonArray forms = reply.forms();
    const QJsonArray diagnostics = reply.diagnostics();
    QJsonObject counts;
    for (const QString &severity : Severities)
        counts.insert(severity, 0);
    for (const QJsonValue &d : diagnostics) {
        const QString severity = CompileReply::Diagnostic(d).severity();
        counts.insert(severity, counts.value(severity).toInt() + 1);
    }
    QStringList summary;
    for (const QString &severity : Severities) {
        const int n = counts.value(severity).toInt();
        if (n > 0)
            summary << QStringLiteral("%1 %2%3").arg(n).arg(severity).arg(n == 1 ? QString() : QStringLiteral("s"));
    }
    QStringList parts{QStringLiteral("Compiled: %1 (%2 form%3; nothing was defined or run)%4")
                          .arg(reply.compiled() ? QStringLiteral("yes") : QStringLiteral("no"))
                          .arg(forms.size())
                          .arg(forms.size() == 1 ? QString() : QStringLiteral("s"))
                          .arg(summary.isEmpty() ? QString() : QStringLiteral("\n") + summary.join(QStringLiteral(", ")))};
    // Diagnostics grouped under the form they belong to, in the order of the code.
    auto linesFor = [&diagnostics](const QJsonValue &formIndex) {
        QStringList lines;
        for (const QJsonValue &value : diagnostics) {
            const CompileReply::Diagnostic d(value);
            if (d.form() == formIndex)
                lines << QStringLiteral("  %1: %2").arg(d.severity().toUpper(), d.message());
        }
        return lines;
    };
    const QStringList unplaced = linesFor(QJsonValue(QJsonValue::Null));
    if (!unplaced.isEmpty())
        parts << QStringLiteral("[code]\n") + unplaced.join(QLatin1Char('\n'));
    for (const QJsonValue &value : forms) {
        const CompileReply::Form form(value);
        const QStringList lines = linesFor(form.index());
        if (!lines.isEmpty())
            parts << QStringLiteral("[form %1, line %2] %3\n%4")
                         .arg(form.index().toInt() + 1)
                         .arg(form.line())
                         .arg(form.text(), lines.join(QLatin1Char('\n')));
    }
    QJsonObject structured = ToolKit::jobStatus(job.result);
    structured.insert(QStringLiteral("compiled"), reply.compiled());
    structured.insert(QStringLiteral("forms"), forms);
    structured.insert(QStringLiteral("diagnostics"), diagnostics);
    structured.insert(QStringLiteral("counts"), counts);
    return ToolResult{parts.join(QStringLiteral("\n\n")), structured, false};
}
} // namespace

Tool compileFormTool(Session *session, JobHandles *jobs)
{
    ToolSpec spec{
        .name = QStringLiteral("compile-form"),
        .title = QStringLiteral("Compile form"),
        .description = QStringLiteral(
            "Compile code natively without running it (macros expand, eval-when compile forms run): errors, warnings and "
            "notes per form, plus Lisp Duet's checks for undefined functions, argument counts and unused variables."),
        .arguments = {Code, Package, Timeout},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("status")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [session, jobs](const ToolCallPtr &call, const ToolArguments &arguments) {
        JobRequest request = EngineProtocol::compilation(arguments.text(Code), arguments.text(Package));
        if (const auto timeout = arguments.value(Timeout))
            request.timeoutMs = int(*timeout * 1000);
        request.description = QStringLiteral("compile-form (nothing is run)");
        ToolKit::submit(session, jobs, call, request, compiled);
    });
}

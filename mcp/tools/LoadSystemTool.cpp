#include "LoadSystemTool.h"

#include "ToolArguments.h"
#include "ToolKit.h"

#include <QJsonArray>

namespace {
// ASDF says 'Component "x" not found'; for the system the agent named, seed 001's wording
// ('System "x" not found.') is clearer and still true.
QString missingMessage(const QString &message)
{
    QString text = message;
    if (text.startsWith(QStringLiteral("Component \"")))
        text.replace(0, 9, QStringLiteral("System"));
    if (!text.endsWith(QLatin1Char('.')))
        text += QLatin1Char('.');
    return text;
}
} // namespace

QJsonObject LoadSystemTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("system"), string(QStringLiteral("ASDF system name, e.g. \"alexandria\" or \"my-project/tests\""))},
         {QStringLiteral("force"), boolean(QStringLiteral("Reload and recompile the system's own files even if it is loaded (default false)"))},
         {QStringLiteral("timeout_seconds"), number(QStringLiteral("Time limit for the load (default 120)"), 1, 3600)},
         {QStringLiteral("verbose"), boolean(QStringLiteral("Include the compiler's output in the result (default false)"))}},
        {QStringLiteral("system")});
    QJsonObject properties = ToolKit::jobStatusSchema();
    properties.insert(QStringLiteral("system"), string(QStringLiteral("The system asked for")));
    properties.insert(QStringLiteral("version"), ToolKit::nullableString(QStringLiteral("The system's version, if it declares one")));
    properties.insert(QStringLiteral("forced"), boolean(QStringLiteral("Whether a reload was forced")));
    properties.insert(QStringLiteral("warnings"), stringArray(QStringLiteral("Warnings signalled while compiling and loading")));
    properties.insert(QStringLiteral("warning_count"), integer(QStringLiteral("Number of warnings"), 0, 2147483647));
    properties.insert(QStringLiteral("compiler_output"), ToolKit::nullableString(QStringLiteral("What the compiler printed (only with verbose)")));
    properties.insert(QStringLiteral("source_file"), ToolKit::nullableString(QStringLiteral("The system's .asd file")));
    properties.insert(QStringLiteral("duration_ms"), number(QStringLiteral("Time the load took"), 0, 1e12));
    return ToolKit::descriptor(
        name(), QStringLiteral("Load system"),
        QStringLiteral("Load an ASDF system into the session (ECL's ASDF 3.1; it is loaded itself on first use). Searched: ASDF's "
                       "usual source registry (~/common-lisp/, /usr/share/common-lisp/, ECL's contribs such as \"sockets\" and "
                       "\"deflate\") plus the directories in LISP_DUET_SYSTEM_PATHS (colon-separated, searched with their "
                       "subdirectories). Files are compiled with ECL's native compiler (needs gcc); compiler output stays out of the "
                       "result unless verbose is true; warnings are counted and listed. There is no Quicklisp download."),
        input, ToolKit::outputSchema(properties, {QStringLiteral("status"), QStringLiteral("system")}), {false, false, true});
}

void LoadSystemTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("system"), QStringLiteral("force"), QStringLiteral("timeout_seconds"), QStringLiteral("verbose")});
    const QString system = arguments.requiredString(QStringLiteral("system"), QStringLiteral("the ASDF system name")).trimmed();
    const bool force = arguments.optionalBool(QStringLiteral("force")).value_or(false);
    const bool verbose = arguments.optionalBool(QStringLiteral("verbose")).value_or(false);
    const double timeout = arguments.optionalNumber(QStringLiteral("timeout_seconds"), 1, 3600).value_or(120);
    if (arguments.ok() && system.isEmpty())
        call->finish(ToolResult::error(QStringLiteral("Invalid arguments: 'system' must name an ASDF system, but it is empty.")));
    if (!arguments.ok())
        call->finish(ToolResult::error(arguments.error()));
    if (call->isFinished())
        return;

    JobRequest request;
    request.op = QStringLiteral("load-system");
    request.code = system;
    request.timeoutMs = int(timeout * 1000);
    request.description = QStringLiteral("load-system %1").arg(system);
    request.arguments = {{QStringLiteral("system"), system}, {QStringLiteral("force"), force}, {QStringLiteral("verbose"), verbose}};
    submit(call, request, [system, force](const Job &job) {
        const QJsonObject reply = job.result.reply;
        QJsonObject structured = ToolKit::jobStatus(job.result);
        structured.insert(QStringLiteral("system"), system);
        structured.insert(QStringLiteral("forced"), force);
        structured.insert(QStringLiteral("duration_ms"), double(job.result.realMicroseconds) / 1000.0);
        if (!job.result.ok()) {
            JobResult result = job.result;
            if (result.error.type.endsWith(QStringLiteral("MISSING-COMPONENT"))) {
                result.error.message = missingMessage(result.error.message);
                result.error.backtrace.clear();
            }
            Job shown = job;
            shown.result = result;
            structured.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("type"), result.error.type},
                                                                   {QStringLiteral("message"), result.error.message}});
            return ToolResult::error(ToolKit::jobError(shown).text, structured);
        }
        QStringList warnings;
        for (const QJsonValue &w : reply.value(QStringLiteral("load_warnings")).toArray())
            warnings << w.toString();
        warnings += job.result.warnings;
        const QString version = ToolKit::string(reply, QStringLiteral("version"));
        const QString compilerOutput = ToolKit::string(reply, QStringLiteral("compiler_output"));
        structured.insert(QStringLiteral("version"), reply.value(QStringLiteral("version")));
        structured.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(warnings));
        structured.insert(QStringLiteral("warning_count"), warnings.size());
        structured.insert(QStringLiteral("compiler_output"), reply.value(QStringLiteral("compiler_output")));
        structured.insert(QStringLiteral("source_file"), reply.value(QStringLiteral("source_file")));

        QString text = QStringLiteral("Loading system: %1\nLoaded: %1 (version %2)")
                           .arg(system, version.isEmpty() ? QStringLiteral("unspecified") : version);
        if (force)
            text += QStringLiteral("\nForced a reload of its files.");
        if (!warnings.isEmpty())
            text += QStringLiteral("\n\n[warnings] %1\n%2").arg(warnings.size()).arg(warnings.join(QLatin1Char('\n')));
        if (!compilerOutput.trimmed().isEmpty())
            text += QStringLiteral("\n\n[compiler output]\n") + compilerOutput.trimmed();
        const QString output = (job.result.stdoutText + job.result.stderrText).trimmed();
        if (!output.isEmpty())
            text += QStringLiteral("\n\n[output]\n") + output;
        return ToolResult{text, structured, false};
    });
}

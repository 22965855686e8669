#include "Tools.h"

#include "JobHandles.h"

#include "client/EngineProtocol.h"
#include "EvalFormatter.h"
#include "schema/JsonSchema.h"
#include "ToolKit.h"

#include <QJsonArray>

namespace {
const auto System = Arg::string(QStringLiteral("system"), QStringLiteral("ASDF system name, e.g. \"alexandria\""))
                        .required(QStringLiteral("the ASDF system name"))
                        .notBlank(QStringLiteral("must name an ASDF system, but it is empty"));
const auto Force = Arg::boolean(QStringLiteral("force"), QStringLiteral("Recompile its own files even if loaded"));
const auto Timeout = Arg::number(QStringLiteral("timeout_seconds"), QStringLiteral("Time limit (default 300)"), 1, 3600);
const auto Verbose = Arg::boolean(QStringLiteral("verbose"), QStringLiteral("Include the compiler's output"));

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

QJsonObject outputProperties()
{
    using namespace Schema;
    QJsonObject properties = ToolKit::jobStatusProperties();
    properties.insert(QStringLiteral("system"), string(QStringLiteral("The system asked for")));
    properties.insert(QStringLiteral("version"), nullableString(QStringLiteral("The system's version, if it declares one")));
    properties.insert(QStringLiteral("forced"), boolean(QStringLiteral("Whether a reload was forced")));
    properties.insert(QStringLiteral("warnings"), stringArray(QStringLiteral("Warnings signalled while compiling and loading")));
    properties.insert(QStringLiteral("warning_count"), integer(QStringLiteral("Number of warnings"), 0, 2147483647));
    properties.insert(QStringLiteral("compiler_output"), nullableString(QStringLiteral("What the compiler printed (only with verbose)")));
    properties.insert(QStringLiteral("source_file"), nullableString(QStringLiteral("The system's .asd file")));
    properties.insert(QStringLiteral("duration_ms"), number(QStringLiteral("Time the load took"), 0, 1e12));
    return properties;
}

ToolResult loaded(const Job &job, const QString &system, bool force)
{
    const EngineProtocol::LoadSystemReply reply(job.result.reply);
    QJsonObject structured = ToolKit::jobStatus(job.result);
    structured.insert(QStringLiteral("system"), system);
    structured.insert(QStringLiteral("forced"), force);
    structured.insert(QStringLiteral("duration_ms"), double(job.result.realMicroseconds) / 1000.0);
    if (!job.result.ok()) {
        Job shown = job;
        if (shown.result.error.type.endsWith(QStringLiteral("MISSING-COMPONENT"))) {
            shown.result.error.message = missingMessage(shown.result.error.message);
            shown.result.error.backtrace.clear();
        }
        structured.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("type"), shown.result.error.type},
                                                               {QStringLiteral("message"), shown.result.error.message}});
        return ToolResult::error(ToolKit::jobError(shown).text, structured);
    }
    const QStringList warnings = reply.loadWarnings() + job.result.warnings;
    const QString version = reply.version().toString();
    const QString compilerOutput = reply.compilerOutput().toString();
    structured.insert(QStringLiteral("version"), reply.version());
    structured.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(warnings));
    structured.insert(QStringLiteral("warning_count"), warnings.size());
    structured.insert(QStringLiteral("compiler_output"), reply.compilerOutput());
    structured.insert(QStringLiteral("source_file"), reply.sourceFile());

    QString text = QStringLiteral("Loading system: %1\nLoaded: %1 (version %2)")
                       .arg(system, version.isEmpty() ? QStringLiteral("unspecified") : version);
    if (force)
        text += QStringLiteral("\nForced a reload of its files.");
    EvalFormatter::appendSection(text, EvalFormatter::warningsSection(warnings));
    EvalFormatter::appendSection(text, EvalFormatter::section(QStringLiteral("compiler output"), compilerOutput.trimmed()));
    EvalFormatter::appendSection(text, EvalFormatter::section(QStringLiteral("output"), (job.result.stdoutText + job.result.stderrText).trimmed()));
    return ToolResult{text, structured, false};
}
} // namespace

Tool loadSystemTool(Session *session, JobHandles *jobs)
{
    ToolSpec spec{
        .name = QStringLiteral("load-system"),
        .title = QStringLiteral("Load system"),
        .description = QStringLiteral(
            "Load an ASDF system (registry, project root, LISP_DUET_SYSTEM_PATHS; no Quicklisp), natively compiled; the "
            "project's own at (debug 3), so their frames show in the debugger. Lists warnings."),
        .arguments = {System, Force, Timeout, Verbose, ToolKit::descriptionArgument(), ToolKit::waitSecondsArgument()},
        .outputProperties = ToolKit::withRunningProperties(outputProperties()),
        .outputRequired = {QStringLiteral("status")},
        .hints = Hints::Idempotent,
        .intent = [](const QJsonObject &arguments) {
            const QString system = arguments.value(QStringLiteral("system")).toString();
            return arguments.value(QStringLiteral("force")).toBool() ? QStringLiteral("load system %1, recompiling its own files").arg(system)
                                                                    : QStringLiteral("load system %1").arg(system);
        },
    };
    return Tool(spec, [session, jobs](const ToolCallPtr &call, const ToolArguments &arguments) {
        const QString system = arguments.text(System).trimmed();
        const bool force = arguments.value(Force, false);
        JobRequest request = EngineProtocol::systemLoad(system, force, arguments.value(Verbose, false));
        request.timeoutMs = int(arguments.value(Timeout, EngineProtocol::DefaultTimeoutMs / 1000) * 1000);
        request.description = arguments.text(ToolKit::descriptionArgument()); // the transcript names the system itself
        ToolKit::submit(session, jobs, call, request, [system, force](const Job &job) { return loaded(job, system, force); }, ToolKit::waitMsOf(arguments));
    });
}

#include "Tools.h"

#include "JobHandles.h"

#include "client/EngineProtocol.h"
#include "EvalFormatter.h"
#include "ToolKit.h"

namespace {
const auto Code = Arg::string(QStringLiteral("code"), QStringLiteral("Lisp form(s) to evaluate"))
                      .required(QStringLiteral("the Lisp code to evaluate"));
const auto Package = Arg::string(QStringLiteral("package"), QStringLiteral("Package (default: the current one)"));
const auto Timeout = Arg::number(QStringLiteral("timeout_seconds"),
                                 QStringLiteral("Time limit (default: the session's, %1 s)")
                                     .arg(EngineProtocol::DefaultTimeoutMs / 1000),
                                 0.1, 3600);
const auto MaxOutput = Arg::integer(QStringLiteral("max_output_chars"),
                                    QStringLiteral("Output cap (default: the session's, %1)").arg(EngineProtocol::DefaultMaxOutputChars),
                                    100, 10000000);
const auto PrintLength = Arg::integer(QStringLiteral("print_length"),
                                      QStringLiteral("*print-length* of values (default %1)").arg(EngineProtocol::DefaultPrintLength),
                                      1, 1000000);
const auto Debug = Arg::boolean(QStringLiteral("debug"),
                                QStringLiteral("On an error, park in the shared debugger instead of unwinding"));
const auto PrintLevel = Arg::integer(QStringLiteral("print_level"),
                                     QStringLiteral("*print-level* of values (default %1)").arg(EngineProtocol::DefaultPrintLevel),
                                     1, 1000);
} // namespace

Tool evaluateLispTool(Session *session, JobHandles *jobs)
{
    ToolSpec spec{
        .name = QStringLiteral("evaluate-lisp"),
        .title = QStringLiteral("Evaluate Lisp"),
        .description = QStringLiteral(
            "Evaluate Common Lisp in the persistent ECL session shared live with a person (and maybe other agents). Returns "
            "[stdout], [stderr], [warnings], '=> value' lines, or '[ERROR] TYPE', message and [Backtrace]; a non-primitive "
            "value gets a result_id."),
        .arguments = {Code, Package, ToolKit::descriptionArgument(), Timeout, MaxOutput, PrintLength, PrintLevel, Debug, ToolKit::waitSecondsArgument()},
        .outputProperties = ToolKit::withRunningProperties(EvalFormatter::outputProperties()),
        .outputRequired = {QStringLiteral("status")},
        .hints = Hints::Destructive,
    };
    return Tool(spec, [session, jobs](const ToolCallPtr &call, const ToolArguments &arguments) {
        JobRequest request = EngineProtocol::evaluation(arguments.text(Code), arguments.text(Package),
                                                        {.printLength = arguments.value(PrintLength),
                                                         .printLevel = arguments.value(PrintLevel),
                                                         .maxOutputChars = arguments.value(MaxOutput)});
        request.description = arguments.text(ToolKit::descriptionArgument());
        request.debug = arguments.value(Debug, false);
        if (const auto timeout = arguments.value(Timeout))
            request.timeoutMs = int(*timeout * 1000);
        ToolKit::submit(session, jobs, call, request, [](const Job &job) { return EvalFormatter::result(job.result); }, ToolKit::waitMsOf(arguments));
    });
}

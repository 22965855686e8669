#include "Tools.h"

#include "JobHandles.h"

#include "client/EngineProtocol.h"
#include "EvalFormatter.h"
#include "ToolKit.h"

namespace {
const auto Code = Arg::string(QStringLiteral("code"), QStringLiteral("Common Lisp expression(s) to evaluate. Can be a single form or multiple forms."))
                      .required(QStringLiteral("the Lisp code to evaluate"));
const auto Package = Arg::string(QStringLiteral("package"), QStringLiteral("Package context for evaluation. Defaults to CL-USER or the last-used package."));
const auto Description = Arg::string(QStringLiteral("description"), QStringLiteral("A short reason for this evaluation, shown to the person who shares the session"));
const auto Timeout = Arg::number(QStringLiteral("timeout_seconds"),
                                 QStringLiteral("Time limit in seconds (default: the session's, %1 s unless configure-limits changed it); the code is interrupted when it runs longer")
                                     .arg(EngineProtocol::DefaultTimeoutMs / 1000),
                                 0.1, 3600);
const auto MaxOutput = Arg::integer(QStringLiteral("max_output_chars"),
                                    QStringLiteral("Cap on captured output and printed values (default: the session's, %1); the rest is cut with a note")
                                        .arg(EngineProtocol::DefaultMaxOutputChars),
                                    100, 10000000);
const auto PrintLength = Arg::integer(QStringLiteral("print_length"),
                                      QStringLiteral("*print-length* for the values (default: the session's, %1)").arg(EngineProtocol::DefaultPrintLength),
                                      1, 1000000);
const auto Debug = Arg::boolean(QStringLiteral("debug"),
                                QStringLiteral("On an error, park the evaluation in the shared debugger instead of unwinding: the call returns at once with the error and a [Debugger] block (restarts, frames); go on with invoke-restart, look with debugger-frame and debugger-eval (default false)"));
const auto PrintLevel = Arg::integer(QStringLiteral("print_level"),
                                     QStringLiteral("*print-level* for the values (default: the session's, %1)").arg(EngineProtocol::DefaultPrintLevel),
                                     1, 1000);
} // namespace

Tool evaluateLispTool(Session *session, JobHandles *jobs)
{
    ToolSpec spec{
        .name = QStringLiteral("evaluate-lisp"),
        .title = QStringLiteral("Evaluate Lisp"),
        .description = QStringLiteral(
            "Evaluate Common Lisp code in a persistent REPL session. Definitions and variables persist across calls. "
            "The session (ECL) is shared live with a person and possibly other agents. Returns [stdout], [stderr], "
            "[warnings] sections and '=> value' lines, or '[ERROR] TYPE', the message and a [Backtrace]. A value that is not a "
            "number, character, symbol or short string gets a handle, structuredContent.result_id, for inspect-object. "
            "Defaults for the time limit, output cap and print settings are the session's (see configure-limits). With "
            "debug: true an error parks the evaluation in the shared debugger instead of unwinding (see invoke-restart). Work "
            "that outlasts wait_seconds goes on as a job: the answer is status \"running\" with a job_id for the tool job."),
        .arguments = {Code, Package, Description, Timeout, MaxOutput, PrintLength, PrintLevel, Debug, ToolKit::waitSecondsArgument()},
        .outputProperties = ToolKit::withRunningProperties(EvalFormatter::outputProperties()),
        .outputRequired = {QStringLiteral("status")},
        .hints = Hints::Destructive,
    };
    return Tool(spec, [session, jobs](const ToolCallPtr &call, const ToolArguments &arguments) {
        JobRequest request = EngineProtocol::evaluation(arguments.text(Code), arguments.text(Package),
                                                        {.printLength = arguments.value(PrintLength),
                                                         .printLevel = arguments.value(PrintLevel),
                                                         .maxOutputChars = arguments.value(MaxOutput)});
        request.description = arguments.text(Description);
        request.debug = arguments.value(Debug, false);
        if (const auto timeout = arguments.value(Timeout))
            request.timeoutMs = int(*timeout * 1000);
        ToolKit::submit(session, jobs, call, request, [](const Job &job) { return EvalFormatter::result(job.result); }, ToolKit::waitMsOf(arguments));
    });
}

#include "EvaluateLispTool.h"

#include "EvalFormatter.h"
#include "Session.h"
#include "ToolArguments.h"

QJsonObject EvaluateLispTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("code"), string(QStringLiteral("Common Lisp expression(s) to evaluate. Can be a single form or multiple forms."))},
         {QStringLiteral("package"), string(QStringLiteral("Package context for evaluation. Defaults to CL-USER or the last-used package."))},
         {QStringLiteral("description"), string(QStringLiteral("A short reason for this evaluation, shown to the person who shares the session"))},
         {QStringLiteral("timeout_seconds"), number(QStringLiteral("Time limit in seconds (default: the session's, 30 s unless configure-limits changed it); the code is interrupted when it runs longer"), 0.1, 3600)},
         {QStringLiteral("max_output_chars"), integer(QStringLiteral("Cap on captured output and printed values (default: the session's, 100000); the rest is cut with a note"), 100, 10000000)},
         {QStringLiteral("print_length"), integer(QStringLiteral("*print-length* for the values (default: the session's, 100)"), 1, 1000000)},
         {QStringLiteral("print_level"), integer(QStringLiteral("*print-level* for the values (default: the session's, 10)"), 1, 1000)}},
        {QStringLiteral("code")});
    return {{QStringLiteral("name"), name()},
            {QStringLiteral("title"), QStringLiteral("Evaluate Lisp")},
            {QStringLiteral("description"),
             QStringLiteral("Evaluate Common Lisp code in a persistent REPL session. Definitions and variables persist across calls. "
                            "The session (ECL) is shared live with a person and possibly other agents. Returns [stdout], [stderr], "
                            "[warnings] sections and '=> value' lines, or '[ERROR] TYPE', the message and a [Backtrace]. A value that is not a "
                            "number, character, symbol or short string gets a handle, structuredContent.result_id, for inspect-object. "
                            "Defaults for the time limit, output cap and print settings are the session's (see configure-limits).")},
            {QStringLiteral("inputSchema"), input},
            {QStringLiteral("outputSchema"), EvalFormatter::outputSchema()},
            {QStringLiteral("annotations"), annotations(QStringLiteral("Evaluate Lisp"), false, true, false)}};
}

void EvaluateLispTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("code"), QStringLiteral("package"), QStringLiteral("description"),
                             QStringLiteral("timeout_seconds"), QStringLiteral("max_output_chars"),
                             QStringLiteral("print_length"), QStringLiteral("print_level")});
    JobRequest request;
    request.code = arguments.requiredString(QStringLiteral("code"), QStringLiteral("the Lisp code to evaluate"));
    request.package = arguments.optionalString(QStringLiteral("package")).value_or(QString());
    request.description = arguments.optionalString(QStringLiteral("description")).value_or(QString());
    const auto timeout = arguments.optionalNumber(QStringLiteral("timeout_seconds"), 0.1, 3600);
    const auto maxOutput = arguments.optionalInteger(QStringLiteral("max_output_chars"), 100, 10000000);
    const auto printLength = arguments.optionalInteger(QStringLiteral("print_length"), 1, 1000000);
    const auto printLevel = arguments.optionalInteger(QStringLiteral("print_level"), 1, 1000);
    if (!arguments.ok()) {
        call->finish(ToolResult::error(arguments.error()));
        return;
    }
    if (timeout)
        request.timeoutMs = int(*timeout * 1000);
    QJsonObject options;
    if (maxOutput)
        options.insert(QStringLiteral("max_output_chars"), *maxOutput);
    if (printLength)
        options.insert(QStringLiteral("print_length"), *printLength);
    if (printLevel)
        options.insert(QStringLiteral("print_level"), *printLevel);
    if (!options.isEmpty())
        request.arguments.insert(QStringLiteral("options"), options);

    submit(call, request, [](const Job &job) {
        return ToolResult{EvalFormatter::text(job.result), EvalFormatter::structured(job.result),
                          EvalFormatter::isErrorResult(job.result)};
    });
}

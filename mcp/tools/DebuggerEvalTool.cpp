#include "Tools.h"

#include "JobHandles.h"

#include "client/EngineProtocol.h"
#include "EvalFormatter.h"
#include "session/Session.h"
#include "ToolKit.h"

#include <QJsonArray>

namespace {
const auto DebuggerId = Arg::integer(QStringLiteral("debugger_id"), QStringLiteral("The debugger's id, from a parked call's [Debugger] block or list-debuggers"), 1, 2147483647)
                            .required(QStringLiteral("the debugger's id"));
const auto Frame = Arg::integer(QStringLiteral("frame"),
                                QStringLiteral("The frame whose local variables the code sees, as in the [Backtrace] (default: none; the code "
                                               "still runs in the parked thread's dynamic environment)"),
                                0, 10000);
const auto Code = Arg::string(QStringLiteral("code"), QStringLiteral("Lisp code, read in the package the evaluation parked in (in a frame of the project's compiled code: its file's package)"))
                      .required(QStringLiteral("the Lisp code to evaluate in the frame"));
const auto Description = Arg::string(QStringLiteral("description"), QStringLiteral("A short reason, shown to the person who shares the session"));
const auto Timeout = Arg::number(QStringLiteral("timeout_seconds"), QStringLiteral("Time limit in seconds (default: the session's)"), 0.1, 3600);
} // namespace

Tool debuggerEvalTool(Session *session, JobHandles *jobs)
{
    ToolSpec spec{
        .name = QStringLiteral("debugger-eval"),
        .title = QStringLiteral("Evaluate in a debugger frame"),
        .description = QStringLiteral(
            "Evaluate code inside a parked evaluation (see invoke-restart): it sees the frame's local variables (and SETQ "
            "changes them) where ECL keeps them, and always the parked thread's dynamic environment (special bindings, "
            "handlers, restarts; lisp-duet:*debugger-condition* is the condition itself). Same text as evaluate-lisp; an "
            "error here is reported, not parked."),
        .arguments = {DebuggerId, Frame, Code, Description, Timeout},
        .outputProperties = EvalFormatter::outputProperties(),
        .outputRequired = EvalFormatter::outputRequired(),
        .hints = Hints::Destructive,
    };
    return Tool(spec, [session, jobs](const ToolCallPtr &call, const ToolArguments &arguments) {
        QString refusal;
        const auto timeout = arguments.value(Timeout);
        const quint64 id = session->debugger()->evaluateInFrame(arguments.value(DebuggerId, 0), arguments.value(Frame, -1), arguments.text(Code),
                                                    call->origin(), arguments.text(Description), &refusal,
                                                    timeout ? int(*timeout * 1000) : -1);
        if (!id) {
            call->finish(ToolResult::error(QStringLiteral("[ERROR] DEBUGGER\n") + refusal,
                                           {{QStringLiteral("status"), QStringLiteral("failed")},
                                            {QStringLiteral("values"), QJsonArray()},
                                            {QStringLiteral("package"), session->currentPackage()},
                                            {QStringLiteral("error"), QJsonObject{{QStringLiteral("type"), QStringLiteral("DEBUGGER")},
                                                                                  {QStringLiteral("message"), refusal}}}}));
            return;
        }
        ToolKit::follow(session, jobs, call, id, [](const Job &job) { return EvalFormatter::result(job.result); });
    });
}

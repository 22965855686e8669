#include "Tools.h"

#include "JobHandles.h"

#include "client/EngineProtocol.h"
#include "EvalFormatter.h"
#include "session/Session.h"
#include "ToolKit.h"

#include <QJsonArray>

namespace {
const auto DebuggerId = Arg::integer(QStringLiteral("debugger_id"), QStringLiteral("From the [Debugger] block or list-debuggers"), 1, 2147483647)
                            .required(QStringLiteral("the debugger's id"));
const auto Frame = Arg::integer(QStringLiteral("frame"),
                                QStringLiteral("The frame whose locals it sees (default: none)"),
                                0, 10000);
const auto Code = Arg::string(QStringLiteral("code"), QStringLiteral("Lisp code, read in the parked package"))
                      .required(QStringLiteral("the Lisp code to evaluate in the frame"));
const auto Description = Arg::string(QStringLiteral("description"), QStringLiteral("Why: the person sees it"));
const auto Timeout = Arg::number(QStringLiteral("timeout_seconds"), QStringLiteral("Time limit (default: the session's)"), 0.1, 3600);
} // namespace

Tool debuggerEvalTool(Session *session, JobHandles *jobs)
{
    ToolSpec spec{
        .name = QStringLiteral("debugger-eval"),
        .title = QStringLiteral("Evaluate in a debugger frame"),
        .description = QStringLiteral(
            "Evaluate code in a parked evaluation: it sees the frame's locals (SETQ changes them) and the parked thread's "
            "dynamic environment (lisp-duet:*debugger-condition*). Errors are reported, not parked."),
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

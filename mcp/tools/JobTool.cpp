#include "Tools.h"

#include "DebuggerFormatter.h"
#include "JobHandles.h"
#include "JsonSchema.h"
#include "session/Session.h"
#include "ToolKit.h"

namespace {
const auto JobId = Arg::integer(QStringLiteral("job_id"), QStringLiteral("The job_id of a \"running\" answer of evaluate-lisp, time-execution, load-system or run-tests"),
                                1, 2147483647)
                       .required(QStringLiteral("the job_id of a \"running\" answer"));
const auto Cancel = Arg::boolean(QStringLiteral("cancel"), QStringLiteral("Interrupt the job (or drop it if it has not started), then answer with its result (default false)"));

// A cancelled job ends at the engine's next safe point; this is how long the answer waits for
// that when the call's wait_seconds is shorter.
constexpr int CancelGraceMs = 10000;

QJsonObject outputProperties()
{
    using namespace Schema;
    QJsonObject properties = ToolKit::runningProperties();
    properties.insert(QStringLiteral("status"),
                      stringEnum(QStringLiteral("running: it goes on; unknown or expired: no such result; else the job's own tool's status"),
                                 {QStringLiteral("ok"), QStringLiteral("error"), QStringLiteral("interrupted"), QStringLiteral("timed-out"),
                                  QStringLiteral("engine-restarted"), QStringLiteral("cancelled"), QStringLiteral("failed"),
                                  QStringLiteral("parked"), QStringLiteral("running"), QStringLiteral("unknown"), QStringLiteral("expired")}));
    properties.insert(QStringLiteral("job_id"), integer(QStringLiteral("The job asked about"), 1, 2147483647));
    properties.insert(QStringLiteral("tool"), string(QStringLiteral("The tool whose call started the job: the rest of the result is in its format")));
    return properties;
}

ToolResult notKept(quint64 id, JobHandles::Found found)
{
    const bool expired = found == JobHandles::Found::Expired;
    const QString text = expired
        ? QStringLiteral("[ERROR] EXPIRED-JOB\nThe result of job %1 was fetched and later dropped (results are kept %2 minutes after they "
                         "are fetched). session-transcript shows what it did.")
              .arg(id).arg(JobHandles::KeptMs / 60000)
        : QStringLiteral("[ERROR] UNKNOWN-JOB\nNo job %1 is waiting for its result in this session: a job_id comes from a \"running\" "
                         "answer of evaluate-lisp, time-execution, load-system or run-tests (and the session forgets them when the "
                         "app restarts).")
              .arg(id);
    return ToolResult::error(text, {{QStringLiteral("status"), expired ? QStringLiteral("expired") : QStringLiteral("unknown")},
                                    {QStringLiteral("job_id"), double(id)}});
}
} // namespace

Tool jobTool(Session *session, JobHandles *jobs)
{
    ToolSpec spec{
        .name = QStringLiteral("job"),
        .title = QStringLiteral("Wait for a job"),
        .description = QStringLiteral(
            "Wait for a job that an earlier call left running (its answer had status \"running\" and a job_id: evaluate-lisp, "
            "time-execution, load-system and run-tests answer so when their work outlasts wait_seconds). Answers with the "
            "job's final result in the format of the tool that started it, as soon as it ends, or after wait_seconds with "
            "status \"running\", the elapsed time and the output so far: then call job again; a job with debug: true that stops "
            "at an error answers with its [Debugger] block (go on with invoke-restart). cancel: true interrupts it. A "
            "result stays fetchable for 10 minutes after it was first fetched; any agent of the session may fetch it."),
        .arguments = {JobId, ToolKit::waitSecondsArgument(), Cancel},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("status"), QStringLiteral("job_id")},
        .hints = Hints::Destructive, // cancel interrupts work
        .intent = [](const QJsonObject &arguments) {
            const qint64 id = arguments.value(QStringLiteral("job_id")).toInteger();
            return arguments.value(QStringLiteral("cancel")).toBool() ? QStringLiteral("interrupt job %1").arg(id)
                                                                      : QStringLiteral("wait for job %1").arg(id);
        },
    };
    return Tool(spec, [session, jobs](const ToolCallPtr &call, const ToolArguments &arguments) {
        const quint64 id = quint64(arguments.value(JobId, 0));
        JobHandles *handles = jobs;
        JobHandles::Found found;
        const JobHandles::Handle *handle = handles->find(id, &found);
        if (!handle) {
            call->finish(notKept(id, found));
            return;
        }
        int waitMs = ToolKit::waitMsOf(arguments);
        if (arguments.value(Cancel, false) && handle->job->state != Job::State::Done) {
            session->cancel(id, QStringLiteral("%1 cancelled it through the tool job.").arg(call->origin().name), call->origin());
            waitMs = std::max(waitMs, CancelGraceMs);
        }
        const JobHandles::Formatter formatter = handle->formatter;
        const QString tool = handle->tool;
        auto answer = [call, handles, formatter, tool, id, session](const JobPtr &job) {
            JobHandles::Found found;
            // The handle keeps a copy of the ended job with all its output; the session's own
            // pointer serves while it runs.
            const JobHandles::Handle *handle = handles->find(id, &found);
            const Job &kept = handle ? *handle->job : *job;
            const bool done = kept.state == Job::State::Done;
            // Parked in the debugger: its error and the [Debugger] block, as its first call would have.
            ToolResult result = done || kept.state == Job::State::Parked ? DebuggerFormatter::answer(kept, formatter, session)
                                                                         : ToolKit::running(kept, tool);
            if (done)
                handles->noteFetched(id);
            result.structured.insert(QStringLiteral("job_id"), double(id));
            result.structured.insert(QStringLiteral("tool"), tool);
            call->finish(result);
        };
        if (handle->job->state == Job::State::Done) {
            answer(handle->job);
            return;
        }
        QObject *context = new QObject(session);
        session->whenAnswerable(id, [answer, context](JobPtr job) {
            context->deleteLater();
            answer(job);
        }, waitMs);
        ToolKit::reportProgress(session, call, handle->job, context);
    });
}

#include "Tools.h"

#include "DebuggerFormatter.h"
#include "JobHandles.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"
#include "ToolKit.h"

#include <QElapsedTimer>
#include <QTimer>

namespace {
const auto JobId = Arg::integer(QStringLiteral("job_id"), QStringLiteral("The job_id of a \"running\" or \"parked\" answer"),
                                1, 2147483647)
                       .required(QStringLiteral("the job_id of a \"running\" answer"));
const auto Cancel = Arg::boolean(QStringLiteral("cancel"), QStringLiteral("Interrupt it, then answer its result"));

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
            "The result of work whose call answered \"running\" or \"parked\" (its job_id): waits up to wait_seconds for its "
            "end, or for a choice in the debugger, and answers as its tool would; else the progress so far. cancel: true "
            "interrupts it."),
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
                                                                         : ToolKit::running(kept, session, tool);
            if (done) {
                handles->noteFetched(id);
                DebuggerFormatter::addChoiceNote(result, kept);
            }
            result.structured.insert(QStringLiteral("job_id"), double(id));
            result.structured.insert(QStringLiteral("tool"), tool);
            call->finish(result);
        };
        if (handle->job->state == Job::State::Done) {
            answer(handle->job);
            return;
        }
        QObject *context = new QObject(session);
        ToolKit::reportProgress(session, call, handle->job, context);
        if (handle->job->state == Job::State::Parked && handle->job->debugger) {
            // Parked: the answer waits for somebody's choice (the person's in the window, or
            // an agent's invoke-restart), then for the job's next answerable point, all within
            // wait_seconds; else it says it still waits.
            const int debuggerId = handle->job->debugger->id;
            auto clock = QSharedPointer<QElapsedTimer>::create();
            clock->start();
            const JobPtr parked = handle->job;
            QObject *choice = new QObject(context); // the wait for the choice; `context` lives until the answer
            QTimer::singleShot(waitMs, choice, [answer, context, parked] {
                context->deleteLater();
                answer(parked);
            });
            QObject::connect(session->debugger(), &SessionDebugger::debuggerClosed, choice,
                             [session, context, choice, answer, id, debuggerId, clock, waitMs](const DebuggerPtr &debugger) {
                if (debugger->id != debuggerId)
                    return;
                choice->deleteLater();
                // Once the engine has moved it on (resumed, or ended with the engine): deferred.
                QTimer::singleShot(0, context, [session, context, answer, id, clock, waitMs] {
                    const int left = int(std::max<qint64>(0, waitMs - clock->elapsed()));
                    session->whenAnswerable(id, [answer, context](JobPtr job) {
                        context->deleteLater();
                        answer(job);
                    }, left);
                });
            });
            return;
        }
        session->whenAnswerable(id, [answer, context](JobPtr job) {
            context->deleteLater();
            answer(job);
        }, waitMs);
    });
}

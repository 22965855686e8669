#include "ToolKit.h"

#include "DebuggerFormatter.h"
#include "EvalFormatter.h"
#include "JobHandles.h"
#include "schema/JsonSchema.h"
#include "session/LocalClock.h"
#include "session/Session.h"
#include "session/TextLines.h"

#include <QDir>
#include <QJsonArray>
#include <QLocale>
#include <QTimer>

namespace ToolKit {

void submit(Session *session, JobHandles *jobs, const ToolCallPtr &call, JobRequest request, JobFormatter formatter, int waitMs,
            Delivery deliver)
{
    request.origin = call->origin();
    if (request.tool.isEmpty())
        request.tool = call->tool();
    if (request.purpose == JobPurpose::Unstated)
        request.purpose = JobPurpose::AgentTool;
    follow(session, jobs, call, session->submit(request), std::move(formatter), waitMs, std::move(deliver));
}

void traceJob(Session *session, const ToolCallPtr &call, quint64 id, const JobPtr &job, QObject *context)
{
    call->trace()->queuedAsJob(id);
    if (!job)
        return; // done already (refused before it could start)
    if (job->state != Job::State::Queued) {
        call->trace()->jobStarted(); // an idle session starts it at once, before submit returns
        return;
    }
    QObject::connect(session, &Session::started, context, [call, id](const JobPtr &job) {
        if (job->id == id)
            call->trace()->jobStarted();
    });
}

void traceUntilItEnds(Session *session, const RequestTracePtr &trace, quint64 id)
{
    // The trace is held until the job ends: the window's row follows it that long.
    auto *context = new QObject(session);
    QObject::connect(session->debugger(), &SessionDebugger::debuggerClosed, context, [trace, id](const DebuggerPtr &debugger) {
        if (debugger->jobId == id && debugger->state != Debugger::State::Ended)
            trace->follow(RequestTrace::State::Running, QStringLiteral("resumed: %1").arg(debugger->outcomeSentence()));
    });
    QObject::connect(session->debugger(), &SessionDebugger::parked, context, [trace, id](const JobPtr &job) {
        if (job->id == id)
            trace->follow(RequestTrace::State::Parked, QStringLiteral("parked again in debugger %1").arg(job->debugger->id));
    });
    session->whenFinished(id, [trace, context](const JobPtr &job) {
        context->deleteLater();
        const JobResult &result = job->result;
        if (result.ok()) {
            trace->follow(RequestTrace::State::Done, QStringLiteral("ended: done"));
            return;
        }
        QString text = QStringLiteral("ended: %1").arg(result.error.type.isEmpty() ? JobResult::statusName(result.status) : result.error.type);
        if (!job->interruptedBy.name.isEmpty())
            text += job->interruptedBy.isPerson() ? QStringLiteral(" by the person") : QStringLiteral(" by %1").arg(job->interruptedBy.name);
        trace->follow(RequestTrace::State::Error, text);
    });
}

void follow(Session *session, JobHandles *jobs, const ToolCallPtr &call, quint64 id, JobFormatter formatter, int waitMs,
            Delivery deliver)
{
    // The connections of this call live until it is answered: a context owned by the call
    // itself would never go (the lambdas hold the call), and every later evaluation would run
    // every earlier call's lambda. Most calls need none: their job starts at once and nobody
    // asked for progress.
    const JobPtr submitted = session->job(id);
    const bool waitsItsTurn = submitted && submitted->state == Job::State::Queued;
    QObject *context = waitsItsTurn || call->wantsProgress() ? new QObject(session) : nullptr;
    traceJob(session, call, id, submitted, context);
    const QString tool = call->tool();
    if (submitted && submitted->request.debug)
        jobs->track(submitted, tool, formatter); // a later invoke-restart formats the outcome the same way
    // Answered at the earliest of: the end, its parking in the debugger, wait_seconds.
    session->whenAnswerable(id, [call, formatter, context, session, jobs, tool, deliver](JobPtr job) {
        if (context)
            context->deleteLater();
        if (job->state == Job::State::Done || job->state == Job::State::Parked) {
            if (job->state == Job::State::Parked) {
                jobs->handOut(job, tool, formatter); // its caller may wait for the choice with the tool job
                traceUntilItEnds(session, call->traceRef(), job->id);
            }
            const ToolResult result = DebuggerFormatter::answer(*job, formatter, session);
            if (deliver && job->state == Job::State::Done)
                deliver(result, job);
            else
                call->finish(result);
            return;
        }
        // wait_seconds passed: the job goes on, and `job` answers for it later.
        jobs->handOut(job, tool, formatter);
        traceUntilItEnds(session, call->traceRef(), job->id);
        call->finish(running(*job, session, tool));
    }, waitMs);
    const Origin by = call->origin();
    QObject::connect(call.data(), &ToolCall::cancelled, session, [session, id, by] {
        session->cancel(id, QStringLiteral("The client cancelled the request before it ran."), by);
    });
    reportProgress(session, call, submitted, context);
}

void reportProgress(Session *session, const ToolCallPtr &call, const JobPtr &job, QObject *context)
{
    if (!call->wantsProgress() || !job)
        return;
    const quint64 id = job->id;
    // About once a second, the newest line of output tells the client what is going on, or a
    // load's newest "compiling file 3 of 12: lists.lisp" while that is fresh.
    auto latest = QSharedPointer<TextLines::ActivityLine>::create();
    auto timer = new QTimer(context);
    QObject::connect(session, &Session::output, context, [latest, id](quint64 outputId, const QString &, const QString &text) {
        if (outputId == id)
            latest->addOutput(text);
    });
    QObject::connect(session, &Session::progress, context, [latest, id](quint64 progressId, const QString &message) {
        if (progressId == id)
            latest->setProgress(message);
    });
    QObject::connect(timer, &QTimer::timeout, context, [call, latest, job] {
        if (job->state == Job::State::Done)
            return;
        if (job->state == Job::State::Queued) {
            call->reportProgress(0, QStringLiteral("Waiting in the session queue"));
            return;
        }
        if (job->state == Job::State::Parked && job->debugger) {
            call->reportProgress(0, QStringLiteral("Parked in debugger %1, waiting for a choice").arg(job->debugger->id));
            return;
        }
        const QString line = latest->line();
        call->reportProgress(0, line.isEmpty() ? QStringLiteral("Running for %1 s").arg(job->startedAt.secsTo(LocalClock::now()))
                                               : line.left(200));
    });
    timer->start(1000);
}

const Argument<double> &waitSecondsArgument()
{
    static const auto argument = Arg::number(
        QStringLiteral("wait_seconds"),
        QStringLiteral("After this long, answer \"running\" with a job_id; the work goes on (default %1 s)")
            .arg(DefaultWaitSeconds),
        0, 3600);
    return argument;
}

const Argument<QString> &descriptionArgument()
{
    static const auto argument = Arg::string(QStringLiteral("description"), QStringLiteral("Why: the person sees it"));
    return argument;
}

int waitMsOf(const ToolArguments &arguments)
{
    return int(arguments.value(waitSecondsArgument(), double(DefaultWaitSeconds)) * 1000);
}

namespace {
// The output so far can be long; the end of it says where the work is.
constexpr qsizetype RunningOutputShown = 4000;
} // namespace

ToolResult running(const Job &job, const Session *session, const QString &tool)
{
    const bool queued = job.state == Job::State::Queued;
    const qint64 elapsedMs = queued || !job.startedAt.isValid() ? 0 : job.startedAt.msecsTo(LocalClock::now());
    QStringList parts;
    for (const QString &part : {EvalFormatter::section(QStringLiteral("stdout"), job.result.stdoutText, RunningOutputShown),
                                EvalFormatter::section(QStringLiteral("stderr"), job.result.stderrText, RunningOutputShown)}) {
        if (!part.isEmpty())
            parts << part;
    }
    const QString where = queued ? QStringLiteral("waits in the session's queue behind others' work; it has not started")
                                 : QStringLiteral("has run for %1 s and goes on in the session")
                                       .arg(QLocale::c().toString(double(elapsedMs) / 1000.0, 'f', 1));
    // When it will be stopped, if nothing else stops it first: the time limit counts running
    // time only (a job parked in the debugger does not use it up).
    const int limitMs = session ? session->timeLimitOf(job) : 0;
    const QString limit = limitMs > 0 ? QStringLiteral(" Its time limit stops it after %1 s of running (%2 s left).")
                                            .arg(QLocale::c().toString(double(limitMs) / 1000.0, 'f', limitMs % 1000 == 0 ? 0 : 1))
                                            .arg(QLocale::c().toString(double(qMax<qint64>(0, limitMs - job.runningMs())) / 1000.0, 'f', 1))
                                      : QStringLiteral(" It has no time limit.");
    parts << QStringLiteral("[RUNNING] job %1\n%2 %3.%4 Its result is kept for you: call job with job_id %1 to wait for it "
                            "(wait_seconds), or with cancel: true to interrupt it.")
                 .arg(job.id).arg(tool, where, limit);
    QJsonObject structured{{QStringLiteral("status"), QStringLiteral("running")},
                           {QStringLiteral("job_id"), double(job.id)},
                           {QStringLiteral("tool"), tool},
                           {QStringLiteral("elapsed_ms"), double(elapsedMs)},
                           {QStringLiteral("stdout"), job.result.stdoutText},
                           {QStringLiteral("stderr"), job.result.stderrText}};
    if (limitMs > 0)
        structured.insert(QStringLiteral("time_limit_ms"), double(limitMs));
    ToolResult result = ToolResult::success(parts.join(QStringLiteral("\n\n")), structured);
    result.ending = ToolResult::Ending::HandedOff;
    return result;
}

QJsonObject runningProperties()
{
    using namespace Schema;
    return {{QStringLiteral("job_id"), integer(QStringLiteral("With status \"running\": the job's id for the tool job"), 1, 2147483647)},
            {QStringLiteral("tool"), string(QStringLiteral("With status \"running\": the tool whose call started the job"))},
            {QStringLiteral("elapsed_ms"), number(QStringLiteral("Real time the job took (so far, while it runs)"), 0, 1e12)},
            {QStringLiteral("stdout"), string(QStringLiteral("What *standard-output* received (so far, while it runs)"))},
            {QStringLiteral("stderr"), string(QStringLiteral("What *error-output* and *trace-output* received (so far, while it runs)"))},
            {QStringLiteral("time_limit_ms"), number(QStringLiteral("With status \"running\": the running time after which its time limit stops it"), 0, 1e12)}};
}

void ask(Session *session, const ToolCallPtr &call, const EngineProtocol::Query &query, ReplyFormatter formatter)
{
    session->query(query, [call, formatter](const QJsonObject &json) {
        const EngineProtocol::Reply reply(json);
        if (reply.failed()) {
            call->finish(ToolResult::error(QStringLiteral("[ERROR] ENGINE\n%1").arg(reply.errorMessage())));
            return;
        }
        call->finish(formatter(json));
    });
}

QJsonObject jobStatus(const JobResult &result)
{
    QJsonObject json{{QStringLiteral("status"), JobResult::statusName(result.status)}};
    if (!result.ok()) {
        json.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("type"), result.error.type},
                                                         {QStringLiteral("message"), result.error.message}});
    }
    return json;
}

QJsonObject jobStatusProperties()
{
    return {{QStringLiteral("status"), Schema::stringEnum(QStringLiteral("How the engine job ended, or parked: it waits in the debugger"),
                                                          {QStringLiteral("ok"), QStringLiteral("error"), QStringLiteral("interrupted"),
                                                           QStringLiteral("timed-out"), QStringLiteral("engine-restarted"),
                                                           QStringLiteral("cancelled"), QStringLiteral("failed"), QStringLiteral("parked")})},
            {QStringLiteral("error"), Schema::object({{QStringLiteral("type"), Schema::string(QStringLiteral("Condition type"))},
                                                      {QStringLiteral("message"), Schema::string(QStringLiteral("The condition's message"))}},
                                                     {QStringLiteral("type"), QStringLiteral("message")}, false)}};
}

ToolResult jobError(const Job &job, QJsonObject structured)
{
    const QJsonObject status = jobStatus(job.result);
    for (auto it = status.begin(); it != status.end(); ++it)
        structured.insert(it.key(), it.value());
    return ToolResult::error(EvalFormatter::text(job.result), structured);
}

QString sourcePlace(const Session *session, const QString &file, int line)
{
    QString place = file;
    const QString root = session->projectRoot();
    if (!root.isEmpty()) {
        const QString relative = QDir(root).relativeFilePath(file);
        if (!relative.startsWith(QStringLiteral("..")) && !QDir::isAbsolutePath(relative))
            place = relative;
    }
    return line > 0 ? QStringLiteral("%1:%2").arg(place).arg(line) : place;
}

QJsonObject withRunningProperties(QJsonObject properties)
{
    const QJsonObject running = runningProperties();
    for (auto it = running.begin(); it != running.end(); ++it) {
        if (!properties.contains(it.key()))
            properties.insert(it.key(), it.value());
    }
    QJsonObject status = properties.value(QStringLiteral("status")).toObject();
    QJsonArray values = status.value(QStringLiteral("enum")).toArray();
    if (!values.isEmpty() && !values.contains(QStringLiteral("running"))) {
        values.append(QStringLiteral("running"));
        status.insert(QStringLiteral("enum"), values);
        status.insert(QStringLiteral("description"), status.value(QStringLiteral("description")).toString()
                                                         + QStringLiteral("; running: it goes on as a job (job_id)"));
        properties.insert(QStringLiteral("status"), status);
    }
    return properties;
}

} // namespace ToolKit

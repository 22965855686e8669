#include "ToolKit.h"

#include "DebuggerFormatter.h"
#include "EvalFormatter.h"
#include "JsonSchema.h"
#include "Session.h"

#include <QDir>
#include <QTimer>

namespace ToolKit {

void submit(Session *session, const ToolCallPtr &call, JobRequest request, JobFormatter formatter)
{
    request.origin = call->origin();
    if (request.tool.isEmpty())
        request.tool = call->tool(); // the ledger tells an edit-form's evaluation from evaluate-lisp's
    follow(session, call, session->submit(request), std::move(formatter));
}

void traceJob(Session *session, const ToolCallPtr &call, quint64 id, QObject *context)
{
    call->trace()->queuedAsJob(id);
    if (const JobPtr job = session->job(id); job && job->state != Job::State::Queued) {
        call->trace()->jobStarted(); // an idle session starts it at once, before submit returns
        return;
    }
    QObject::connect(session, &Session::started, context, [call, id](const JobPtr &job) {
        if (job->id == id)
            call->trace()->jobStarted();
    });
}

void follow(Session *session, const ToolCallPtr &call, quint64 id, JobFormatter formatter)
{
    // The connections of this call live as long as its evaluation: a context owned by the call
    // itself would never go (the lambdas hold the call), and every later evaluation would run
    // every earlier call's lambda.
    QObject *context = new QObject(session);
    traceJob(session, call, id, context);
    const JobPtr job = session->job(id);
    if (job && job->request.debug) {
        // Answered at its next point: the end, or its parking in the debugger, which a later
        // invoke-restart formats the same way.
        DebuggerFormatter::rememberFormatter(id, formatter);
        session->whenAnswerable(id, [call, formatter, context, session](JobPtr job) {
            call->finish(DebuggerFormatter::answer(*job, formatter, session));
            context->deleteLater();
        });
    } else {
        session->whenFinished(id, [call, formatter, context](JobPtr job) {
            call->finish(formatter(*job));
            context->deleteLater();
        });
    }
    const Origin by = call->origin();
    QObject::connect(call.data(), &ToolCall::cancelled, session, [session, id, by] {
        session->cancel(id, QStringLiteral("The client cancelled the request before it ran."), by);
    });
    if (!call->wantsProgress())
        return;
    // About once a second, the newest line of output tells the client what is going on.
    auto latest = QSharedPointer<QString>::create();
    auto timer = new QTimer(context);
    QObject::connect(session, &Session::output, context, [latest, id](quint64 outputId, const QString &, const QString &text) {
        if (outputId != id)
            return;
        const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        if (!lines.isEmpty())
            *latest = lines.last().trimmed().left(200);
    });
    QObject::connect(timer, &QTimer::timeout, context, [call, latest, session, id] {
        const JobPtr job = session->job(id);
        if (!job)
            return;
        if (job->state == Job::State::Queued) {
            call->reportProgress(0, QStringLiteral("Waiting in the session queue"));
            return;
        }
        call->reportProgress(0, latest->isEmpty() ? QStringLiteral("Running for %1 s").arg(job->startedAt.secsTo(QDateTime::currentDateTime()))
                                                  : *latest);
    });
    timer->start(1000);
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

} // namespace ToolKit

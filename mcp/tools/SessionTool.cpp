#include "SessionTool.h"

#include "ActivityDigest.h"
#include "Session.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTimer>

void SessionTool::submit(const ToolCallPtr &call, JobRequest request, Formatter formatter)
{
    request.origin = call->origin();
    const quint64 id = m_session->submit(request);
    call->jobId = id;

    // The connections of this call live as long as its evaluation: a context owned by the call
    // itself would never go (the lambdas hold the call), and every later evaluation would run
    // every earlier call's lambda.
    QObject *context = new QObject(m_session);
    m_session->whenFinished(id, [call, formatter, context](JobPtr job) {
        call->finish(formatter(*job));
        context->deleteLater();
    });
    QObject::connect(call.data(), &ToolCall::cancelled, m_session, [session = m_session, id] {
        session->cancel(id, QStringLiteral("The client cancelled the request before it ran."));
    });
    if (call->wantsProgress()) {
        // About once a second, the newest line of output tells the client what is going on.
        auto latest = QSharedPointer<QString>::create();
        auto timer = new QTimer(context);
        QObject::connect(m_session, &Session::output, context, [latest, id](quint64 outputId, const QString &, const QString &text) {
            if (outputId != id)
                return;
            const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            if (!lines.isEmpty())
                *latest = lines.last().trimmed().left(200);
        });
        QObject::connect(timer, &QTimer::timeout, context, [call, latest, session = m_session, id] {
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
}

void SessionTool::ask(const ToolCallPtr &call, const QString &op, const QJsonObject &arguments,
                      std::function<ToolResult(const QJsonObject &reply)> formatter)
{
    m_session->query(op, arguments, [call, formatter](const QJsonObject &reply) {
        if (reply.value(QStringLiteral("status")).toString() == QStringLiteral("failed")) {
            call->finish(ToolResult::error(QStringLiteral("[ERROR] ENGINE\n%1")
                                               .arg(reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString())));
            return;
        }
        call->finish(formatter(reply));
    });
}

namespace Schema {
QJsonObject string(const QString &description)
{
    return {{QStringLiteral("type"), QStringLiteral("string")}, {QStringLiteral("description"), description}};
}
QJsonObject integer(const QString &description, int minimum, int maximum)
{
    return {{QStringLiteral("type"), QStringLiteral("integer")}, {QStringLiteral("description"), description},
            {QStringLiteral("minimum"), minimum}, {QStringLiteral("maximum"), maximum}};
}
QJsonObject number(const QString &description, double minimum, double maximum)
{
    return {{QStringLiteral("type"), QStringLiteral("number")}, {QStringLiteral("description"), description},
            {QStringLiteral("minimum"), minimum}, {QStringLiteral("maximum"), maximum}};
}
QJsonObject boolean(const QString &description)
{
    return {{QStringLiteral("type"), QStringLiteral("boolean")}, {QStringLiteral("description"), description}};
}
QJsonObject stringArray(const QString &description)
{
    return {{QStringLiteral("type"), QStringLiteral("array")}, {QStringLiteral("description"), description},
            {QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}};
}
QJsonObject object(const QJsonObject &properties, const QStringList &required, bool closed)
{
    QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")}, {QStringLiteral("properties"), properties}};
    if (!required.isEmpty())
        schema.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    if (closed)
        schema.insert(QStringLiteral("additionalProperties"), false);
    return schema;
}
QJsonObject annotations(const QString &title, bool readOnly, bool destructive, bool idempotent)
{
    return {{QStringLiteral("title"), title}, {QStringLiteral("readOnlyHint"), readOnly},
            {QStringLiteral("destructiveHint"), destructive}, {QStringLiteral("idempotentHint"), idempotent},
            {QStringLiteral("openWorldHint"), false}};
}
} // namespace Schema

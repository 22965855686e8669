#include "ActivityDigest.h"

#include "JsonSchema.h"
#include "TextLines.h"

#include <QJsonObject>

namespace {
using TextLines::oneLine;

QList<JobPtr> recent(const QList<JobPtr> &activity)
{
    return activity.size() > ActivityDigest::MaxEntries ? activity.mid(activity.size() - ActivityDigest::MaxEntries) : activity;
}

QString who(const Origin &origin)
{
    return origin.isPerson() ? QStringLiteral("the person") : origin.name;
}
} // namespace

namespace ActivityDigest {

QString summaryOf(const Job &job)
{
    const JobResult &result = job.result;
    if (result.ok())
        return result.values.isEmpty() ? QStringLiteral("; no values") : QStringLiteral("=> ") + oneLine(result.values.first(), 120);
    return QStringLiteral("[ERROR] %1: %2").arg(result.error.type, oneLine(result.error.message, 120));
}

QString text(const QList<JobPtr> &activity)
{
    if (activity.isEmpty())
        return {};
    QStringList lines{QStringLiteral("[Session activity since your last call]")};
    if (activity.size() > MaxEntries)
        lines << QStringLiteral("(%1 earlier entries not shown; the session-transcript tool lists them)").arg(activity.size() - MaxEntries);
    for (const JobPtr &job : recent(activity)) {
        const QString code = job->request.op == QStringLiteral("eval")
            ? job->request.code
            : QStringLiteral("%1 %2").arg(job->request.op, job->request.code);
        // The description says what a job was for when its code alone does not: "revert GREET to
        // version 1", "staged by claude-code: ...".
        const QString why = job->request.description.isEmpty() ? QString()
                                                                : QStringLiteral(" (%1)").arg(oneLine(job->request.description, 200));
        lines << QStringLiteral("- %1 at %2%3: %4 %5")
                     .arg(who(job->request.origin), job->finishedAt.toString(QStringLiteral("HH:mm:ss")), why,
                          oneLine(code, 200), summaryOf(*job));
    }
    return lines.join(QLatin1Char('\n'));
}

QJsonArray json(const QList<JobPtr> &activity)
{
    QJsonArray list;
    for (const JobPtr &job : recent(activity)) {
        list.append(QJsonObject{{QStringLiteral("who"), job->request.origin.name},
                                {QStringLiteral("kind"), job->request.origin.kindName()},
                                {QStringLiteral("operation"), job->request.op},
                                {QStringLiteral("code"), oneLine(job->request.code, 2000)},
                                {QStringLiteral("description"), job->request.description},
                                {QStringLiteral("result"), summaryOf(*job)},
                                {QStringLiteral("ok"), job->result.ok()},
                                {QStringLiteral("time"), job->finishedAt.toString(Qt::ISODateWithMs)}});
    }
    return list;
}

QJsonObject schema()
{
    const QJsonObject string{{QStringLiteral("type"), QStringLiteral("string")}};
    return Schema::array(QStringLiteral("Evaluations by the person and other agents since this client's previous call"),
                         Schema::object({{QStringLiteral("who"), string}, {QStringLiteral("kind"), string},
                                         {QStringLiteral("operation"), string}, {QStringLiteral("code"), string},
                                         {QStringLiteral("description"), string},
                                         {QStringLiteral("result"), string},
                                         {QStringLiteral("ok"), QJsonObject{{QStringLiteral("type"), QStringLiteral("boolean")}}},
                                         {QStringLiteral("time"), string}},
                                        {}, false));
}

} // namespace ActivityDigest

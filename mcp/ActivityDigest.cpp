#include "ActivityDigest.h"

#include "JobOutcome.h"
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

int debuggerOf(const Job &job)
{
    return job.request.arguments.value(QStringLiteral("debugger")).toInt();
}

// What the entry did, before its result: the code, or what it did in the debugger.
QString action(const Job &job)
{
    const QString &op = job.request.op;
    if (op == QStringLiteral("invoke-restart")) {
        QStringList values;
        for (const QJsonValue &v : job.request.arguments.value(QStringLiteral("arguments")).toArray())
            values << v.toString();
        return QStringLiteral("chose %1%2 in debugger %3")
            .arg(job.request.code, values.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(values.join(QStringLiteral(", "))))
            .arg(debuggerOf(job));
    }
    if (op == QStringLiteral("debugger-frame"))
        return QStringLiteral("looked at %1").arg(job.request.code);
    if (op == QStringLiteral("debugger-eval")) {
        const int frame = job.request.arguments.value(QStringLiteral("frame")).toInt(-1);
        return QStringLiteral("in debugger %1%2: %3")
            .arg(debuggerOf(job))
            .arg(frame >= 0 ? QStringLiteral(" frame %1").arg(frame) : QString(), oneLine(job.request.code, 200));
    }
    return op == QStringLiteral("eval") ? oneLine(job.request.code, 200)
                                        : oneLine(QStringLiteral("%1 %2").arg(op, job.request.code), 200);
}

QDateTime timeOf(const Job &job)
{
    return job.state == Job::State::Parked && job.debugger ? job.debugger->parkedAt : job.finishedAt;
}
} // namespace

namespace ActivityDigest {

QString summaryOf(const Job &job)
{
    const JobResult &result = job.result;
    if (job.state == Job::State::Parked && job.debugger) {
        const Debugger &d = *job.debugger;
        return QStringLiteral("is parked in debugger %1: [ERROR] %2: %3 (restarts: %4)")
            .arg(d.id).arg(d.conditionType, oneLine(d.message, 120), d.restartList());
    }
    if (job.request.op == QStringLiteral("invoke-restart") && result.ok())
        return QStringLiteral("; the evaluation went on");
    if (job.request.op == QStringLiteral("debugger-frame") && result.ok())
        return result.values.value(0);
    return result.ok() ? JobOutcome::firstValueInOneLine(result.values, 120) : JobOutcome::failure(result, 120);
}

QString text(const QList<JobPtr> &activity)
{
    if (activity.isEmpty())
        return {};
    QStringList lines{QStringLiteral("[Session activity since your last call]")};
    if (activity.size() > MaxEntries)
        lines << QStringLiteral("(%1 earlier entries not shown; the session-transcript tool lists them)").arg(activity.size() - MaxEntries);
    for (const JobPtr &job : recent(activity)) {
        // The description says what a job was for when its code alone does not: "revert GREET to
        // version 1", "staged by claude-code: ...".
        const QString why = job->request.description.isEmpty() ? QString()
                                                                : QStringLiteral(" (%1)").arg(oneLine(job->request.description, 200));
        QString line = QStringLiteral("- %1 at %2%3: %4 %5")
                           .arg(who(job->request.origin), timeOf(*job).toString(QStringLiteral("HH:mm:ss")), why, action(*job),
                                summaryOf(*job));
        // An evaluation whose debugger somebody answered says who, and how.
        if (job->state == Job::State::Done && job->debugger && !job->debugger->isOpen())
            line += QStringLiteral(" (after debugger %1: %2)").arg(job->debugger->id).arg(job->debugger->outcomeSentence());
        lines << line;
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
                                {QStringLiteral("time"), timeOf(*job).toString(Qt::ISODateWithMs)}});
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

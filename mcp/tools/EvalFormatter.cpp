#include "EvalFormatter.h"

#include "DebuggerFormatter.h"
#include "json/JsonTextWriter.h"
#include "schema/JsonSchema.h"
#include "session/JobOutcome.h"

#include <QJsonArray>
#include <QLocale>

namespace {
QString droppedNote(qint64 dropped)
{
    return QStringLiteral("[... %1 more characters of output were cut: the output limit was reached]")
        .arg(QLocale::c().toString(dropped));
}
} // namespace

namespace EvalFormatter {

QString section(const QString &name, QString body, qsizetype maxChars)
{
    // The blank lines and the trailing space that PRINT adds around output would only pad it.
    while (body.startsWith(QLatin1Char('\n')))
        body.remove(0, 1);
    while (!body.isEmpty() && body.back().isSpace())
        body.chop(1);
    if (body.isEmpty())
        return {};
    if (maxChars >= 0 && body.size() > maxChars)
        body = QStringLiteral("[... %1 characters before]\n").arg(body.size() - maxChars) + body.right(maxChars);
    return QStringLiteral("[%1]\n%2").arg(name, body);
}

QString warningsSection(const QStringList &warnings)
{
    return warnings.isEmpty() ? QString() : QStringLiteral("[warnings] %1\n%2").arg(warnings.size()).arg(warnings.join(QLatin1Char('\n')));
}

void appendSection(QString &text, const QString &part)
{
    if (!part.isEmpty())
        text += QStringLiteral("\n\n") + part;
}

bool isErrorResult(const JobResult &result)
{
    return !result.ok();
}

QString text(const JobResult &result)
{
    QStringList parts;
    QString out = result.stdoutText;
    if (result.outputDropped > 0)
        out += QStringLiteral("\n") + droppedNote(result.outputDropped);
    for (const QString &part : {section(QStringLiteral("stdout"), out), section(QStringLiteral("stderr"), result.stderrText),
                                section(QStringLiteral("warnings"), result.warnings.join(QLatin1Char('\n')))}) {
        if (!part.isEmpty())
            parts << part;
    }
    if (result.ok()) {
        parts << JobOutcome::values(result.values);
    } else {
        QString error = QStringLiteral("[ERROR] %1\n%2").arg(result.error.type, result.error.message);
        if (!result.error.backtrace.isEmpty())
            error += QStringLiteral("\n\n[Backtrace]\n") + result.error.backtrace.join(QLatin1Char('\n'));
        parts << error;
    }
    return parts.join(QStringLiteral("\n\n"));
}

StructuredContent structured(const JobResult &result)
{
    // Written as text: every evaluation's answer carries it, and building it as a QJsonObject
    // cost more than the rest of formatting the answer. Tools that add to it get an object then.
    JsonTextWriter json(256 + 3 * (result.stdoutText.size() + result.stderrText.size()));
    json.beginObject()
        .key("status").value(JobResult::statusName(result.status))
        .key("values").strings(result.values)
        .key("stdout").value(result.stdoutText)
        .key("stderr").value(result.stderrText)
        .key("warnings").strings(result.warnings)
        .key("package").value(result.package)
        .key("output_truncated_chars").value(qint64(result.outputDropped))
        .key("elapsed_ms").value(double(result.realMicroseconds) / 1000.0);
    if (!result.ok()) {
        json.key("error").beginObject()
            .key("type").value(result.error.type)
            .key("message").value(result.error.message)
            .key("phase").value(result.error.phase)
            .key("backtrace").strings(result.error.backtrace)
            .endObject();
    }
    const QString resultId = EngineProtocol::EvalReply(result.reply).resultId();
    if (!resultId.isEmpty())
        json.key("result_id").value(resultId);
    json.endObject();
    return StructuredContent::fromText(json.take());
}

ToolResult result(const JobResult &evaluation)
{
    ToolResult result;
    result.text = text(evaluation);
    result.structured = structured(evaluation);
    result.isError = isErrorResult(evaluation);
    return result;
}

QStringList outputRequired()
{
    return {QStringLiteral("status"), QStringLiteral("values"), QStringLiteral("package")};
}

QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject error = object({{QStringLiteral("type"), string(QStringLiteral("Condition type, e.g. DIVISION-BY-ZERO"))},
                                      {QStringLiteral("message"), string(QStringLiteral("The condition's message"))},
                                      {QStringLiteral("phase"), string(QStringLiteral("read, eval, print, setup or host"))},
                                      {QStringLiteral("backtrace"), stringArray(QStringLiteral("Frames of the user's code, innermost first"))}},
                                     {QStringLiteral("type"), QStringLiteral("message")}, false);
    const QJsonObject status = stringEnum(QStringLiteral("ok, error, interrupted, timed-out, engine-restarted, cancelled or failed; "
                                                         "parked: it waits in the debugger (see debugger)"),
                                          {QStringLiteral("ok"), QStringLiteral("error"), QStringLiteral("interrupted"),
                                           QStringLiteral("timed-out"), QStringLiteral("engine-restarted"),
                                           QStringLiteral("cancelled"), QStringLiteral("failed"), QStringLiteral("parked")});
    return {{QStringLiteral("status"), status},
            {QStringLiteral("values"), stringArray(QStringLiteral("The last form's values, printed"))},
            {QStringLiteral("stdout"), string(QStringLiteral("What *standard-output* received"))},
            {QStringLiteral("stderr"), string(QStringLiteral("What *error-output* and *trace-output* received"))},
            {QStringLiteral("warnings"), stringArray(QStringLiteral("Warnings signalled, as TYPE: message"))},
            {QStringLiteral("package"), string(QStringLiteral("The session package after the evaluation"))},
            {QStringLiteral("output_truncated_chars"), integer(QStringLiteral("Characters of output cut by the output limit"), 0, 2147483647)},
            {QStringLiteral("elapsed_ms"), number(QStringLiteral("Real time the evaluation took in the engine"), 0, 1e12)},
            {QStringLiteral("result_id"), string(QStringLiteral("Handle of the primary value for inspect-object"))},
            {QStringLiteral("error"), error},
            {QStringLiteral("debugger"), DebuggerFormatter::schema()}};
}

} // namespace EvalFormatter

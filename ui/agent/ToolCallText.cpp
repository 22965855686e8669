#include "ToolCallText.h"

#include "acp/McpToolName.h"
#include "digest/ActivityDigest.h"

#include "session/JobOutcome.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace ToolCallText {

Shown describe(const Acp::ToolCall &call)
{
    Shown shown;
    QString name = call.title.isEmpty() ? call.name : call.title;
    const QString metaName = call.meta.value(QStringLiteral("claudeCode")).toObject().value(QStringLiteral("toolName")).toString();
    for (const QString &candidate : {name, call.name, metaName}) {
        if (const McpToolName mcp = McpToolName::parse(candidate); mcp.isValid()) {
            shown.server = mcp.server;
            if (candidate == name)
                name = mcp.tool;
            break;
        }
    }
    const QJsonObject input = call.rawInput.toObject();
    shown.code = input.value(QStringLiteral("code")).toString();
    // A title that repeats the code ("evaluate-lisp (+ 1 2)") is shown without it.
    if (!shown.code.isEmpty() && name.endsWith(shown.code) && name.size() > shown.code.size())
        name = name.left(name.size() - shown.code.size()).trimmed();
    shown.name = name.isEmpty() ? QObject::tr("a tool") : name;
    if (shown.code.isEmpty()) {
        for (const char *key : {"command", "file_path", "path", "query", "url", "pattern"}) {
            const QString value = input.value(QLatin1String(key)).toString();
            if (!value.isEmpty() && !shown.name.contains(value)) {
                shown.input = value.section(u'\n', 0, 0);
                break;
            }
        }
    }
    return shown;
}

QString kindLabel(const QString &kind)
{
    if (kind == QLatin1String("execute"))
        return QObject::tr("run");
    if (kind == QLatin1String("other") || kind.isEmpty())
        return QObject::tr("tool");
    if (kind == QLatin1String("switch_mode"))
        return QObject::tr("mode");
    return kind;
}

QString statusLabel(const QString &status)
{
    if (status == QLatin1String("pending"))
        return QObject::tr("waiting");
    if (status == QLatin1String("in_progress"))
        return QObject::tr("running");
    if (status == QLatin1String("completed"))
        return QObject::tr("done");
    return status;
}

QString replResultFromJson(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (!trimmed.startsWith(u'{'))
        return {};
    const QJsonObject object = QJsonDocument::fromJson(trimmed.toUtf8()).object();
    const QString status = object.value(QStringLiteral("status")).toString();
    if (status.isEmpty() || !object.value(QStringLiteral("values")).isArray())
        return {};
    QStringList lines;
    for (const char *stream : {"stdout", "stderr"}) {
        const QString output = object.value(QLatin1String(stream)).toString();
        if (!output.isEmpty())
            lines << (output.endsWith(u'\n') ? output.chopped(1) : output);
    }
    for (const QJsonValue &warning : object.value(QStringLiteral("warnings")).toArray())
        lines << QStringLiteral("; ") + warning.toString();
    if (status == QLatin1String("ok")) {
        QStringList values;
        for (const QJsonValue &value : object.value(QStringLiteral("values")).toArray())
            values << value.toString();
        lines << JobOutcome::values(values);
    } else {
        const QJsonObject error = object.value(QStringLiteral("error")).toObject();
        const QString type = error.value(QStringLiteral("type")).toString();
        const QString message = error.value(QStringLiteral("message")).toString();
        lines << QStringLiteral("[%1] %2").arg(status == QLatin1String("error") ? QStringLiteral("ERROR") : status.toUpper(),
                                                type.isEmpty() ? message : type + QStringLiteral(": ") + message);
    }
    return lines.join(u'\n');
}

QString traceResultText(const RequestTrace &trace)
{
    const QJsonObject result = trace.response().value(QStringLiteral("result")).toObject();
    QStringList texts;
    for (const QJsonValue &block : result.value(QStringLiteral("content")).toArray()) {
        const QJsonObject object = block.toObject();
        if (object.value(QStringLiteral("type")).toString() != QLatin1String("text"))
            continue;
        // The digest of others' activity is for the agent; the person saw it happen.
        QString text = object.value(QStringLiteral("text")).toString();
        if (const qsizetype digest = text.indexOf(ActivityDigest::Heading); digest >= 0)
            text = text.left(digest).trimmed();
        if (!text.isEmpty())
            texts << text;
    }
    if (texts.isEmpty()) {
        const QJsonObject error = trace.response().value(QStringLiteral("error")).toObject();
        if (!error.isEmpty())
            texts << error.value(QStringLiteral("message")).toString();
    }
    return texts.join(u'\n');
}

QString traceStateLabel(RequestTrace::State state)
{
    using State = RequestTrace::State;
    switch (state) {
    case State::Queued: return QObject::tr("queued in the session");
    case State::AwaitingApproval: return QObject::tr("awaiting your approval");
    case State::AwaitingPerson: return QObject::tr("waiting for you");
    case State::Running: return QObject::tr("running in the session");
    case State::Done: return QObject::tr("done");
    case State::Error: return QObject::tr("error");
    case State::Cancelled: return QObject::tr("cancelled");
    case State::Denied: return QObject::tr("denied");
    case State::HandedOff: return QObject::tr("still running in the session");
    case State::Parked: return QObject::tr("parked in the debugger");
    }
    return {};
}

Parked parkedIn(const RequestTrace &trace)
{
    const QJsonObject debugger = trace.response()
                                     .value(QStringLiteral("result")).toObject()
                                     .value(QStringLiteral("structuredContent")).toObject()
                                     .value(QStringLiteral("debugger")).toObject();
    Parked parked;
    parked.debuggerId = debugger.value(QStringLiteral("id")).toInt();
    parked.condition = debugger.value(QStringLiteral("condition_type")).toString();
    parked.message = debugger.value(QStringLiteral("message")).toString();
    return parked;
}

} // namespace ToolCallText

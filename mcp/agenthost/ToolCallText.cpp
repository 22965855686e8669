#include "ToolCallText.h"

#include "acp/McpToolName.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace {
QString json(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return value.isString() ? value.toString() : QString();
}

// "mcp__lisp-duet__evaluate-lisp" -> "evaluate-lisp" when SERVER is ours.
QString toolOf(const QString &qualified, const QString &serverName)
{
    const McpToolName name = McpToolName::parse(qualified);
    return name.server == serverName ? name.tool : QString();
}
} // namespace

namespace ToolCallText {

QString input(const Acp::ToolCall &call)
{
    const QJsonObject raw = call.rawInput.toObject();
    for (const char *key : {"code", "command"}) {
        if (raw.value(QLatin1String(key)).isString())
            return raw.value(QLatin1String(key)).toString();
    }
    if (!raw.isEmpty())
        return json(raw);
    return call.rawInput.isString() ? call.rawInput.toString() : QString();
}

QString result(const Acp::ToolCall &call)
{
    QStringList texts;
    for (const Acp::ToolCallContent &item : call.content) {
        if (item.type == Acp::ToolCallContent::Type::Content && item.content.type == QLatin1String("text"))
            texts << item.content.text;
    }
    if (!texts.isEmpty())
        return texts.join(QLatin1Char('\n'));
    return json(call.rawOutput);
}

QString lispDuetTool(const Acp::ToolCall &call, const QString &serverName)
{
    const QString named = toolOf(call.meta.value(QStringLiteral("claudeCode")).toObject().value(QStringLiteral("toolName")).toString(), serverName);
    if (!named.isEmpty())
        return named;
    const QString titled = toolOf(call.title, serverName);
    return titled.isEmpty() ? toolOf(call.name, serverName) : titled;
}

} // namespace ToolCallText

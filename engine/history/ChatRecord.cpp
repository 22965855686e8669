#include "ChatRecord.h"

#include "session/TextLines.h"

#include <QJsonArray>
#include <QLocale>

namespace {
struct KindName
{
    ChatRecord::Kind kind;
    const char *name;
};
constexpr KindName KindNames[] = {
    {ChatRecord::Kind::Prompt, "prompt"},     {ChatRecord::Kind::Answer, "answer"},     {ChatRecord::Kind::Thought, "thought"},
    {ChatRecord::Kind::ToolCall, "tool-call"}, {ChatRecord::Kind::TurnEnd, "turn-end"}, {ChatRecord::Kind::Notice, "notice"},
};

QString stamp(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QString capped(const QString &text)
{
    if (text.size() <= ChatRecord::TextCap)
        return text;
    return text.left(ChatRecord::TextCap)
        + QStringLiteral("\n\u2026 (%1 more characters were left out of the journal)").arg(text.size() - ChatRecord::TextCap);
}

void insertText(QJsonObject &json, const char *key, const QString &value)
{
    if (!value.isEmpty())
        json.insert(QLatin1String(key), capped(value));
}

QString field(const QJsonObject &json, const char *key)
{
    return json.value(QLatin1String(key)).toString();
}

qint64 count(const QJsonObject &json, const char *key)
{
    const QJsonValue value = json.value(QLatin1String(key));
    return value.isDouble() ? qint64(value.toDouble()) : -1;
}
} // namespace

QString ChatRecord::kindName(Kind kind)
{
    for (const KindName &k : KindNames) {
        if (k.kind == kind)
            return QString::fromLatin1(k.name);
    }
    return {};
}

std::optional<ChatRecord::Kind> ChatRecord::kindNamed(const QString &name)
{
    for (const KindName &k : KindNames) {
        if (name == QLatin1String(k.name))
            return k.kind;
    }
    return std::nullopt;
}

QJsonObject ChatRecord::toJson() const
{
    QJsonObject json{{QStringLiteral("chat"), kindName(kind)},
                     {QStringLiteral("agent"), agent},
                     {QStringLiteral("session"), sessionId},
                     {QStringLiteral("turn"), turn},
                     {QStringLiteral("at"), stamp(at)}};
    if (partial)
        json.insert(QStringLiteral("partial"), true);
    insertText(json, "text", text);
    if (!context.isEmpty())
        json.insert(QStringLiteral("context"), QJsonArray::fromStringList(context));
    insertText(json, "tool_call_id", toolCallId);
    insertText(json, "title", title);
    insertText(json, "tool_kind", toolKind);
    insertText(json, "status", status);
    insertText(json, "input", input);
    insertText(json, "result", result);
    insertText(json, "decision", decision);
    insertText(json, "stop_reason", stopReason);
    insertText(json, "error", error);
    if (inputTokens >= 0)
        json.insert(QStringLiteral("input_tokens"), double(inputTokens));
    if (outputTokens >= 0)
        json.insert(QStringLiteral("output_tokens"), double(outputTokens));
    if (cost) {
        json.insert(QStringLiteral("cost"), *cost);
        json.insert(QStringLiteral("currency"), currency);
    }
    return json;
}

bool ChatRecord::fromJson(const QJsonObject &json, ChatRecord *record)
{
    const std::optional<Kind> kind = kindNamed(field(json, "chat"));
    if (!kind)
        return false;
    ChatRecord r;
    r.kind = *kind;
    r.agent = field(json, "agent");
    r.sessionId = field(json, "session");
    r.turn = json.value(QStringLiteral("turn")).toInt();
    const QDateTime at = QDateTime::fromString(field(json, "at"), Qt::ISODateWithMs);
    r.at = at.isValid() ? at.toLocalTime() : at;
    r.partial = json.value(QStringLiteral("partial")).toBool();
    r.text = field(json, "text");
    for (const QJsonValue &name : json.value(QStringLiteral("context")).toArray())
        r.context << name.toString();
    r.toolCallId = field(json, "tool_call_id");
    r.title = field(json, "title");
    r.toolKind = field(json, "tool_kind");
    r.status = field(json, "status");
    r.input = field(json, "input");
    r.result = field(json, "result");
    r.decision = field(json, "decision");
    r.stopReason = field(json, "stop_reason");
    r.error = field(json, "error");
    r.inputTokens = count(json, "input_tokens");
    r.outputTokens = count(json, "output_tokens");
    if (json.value(QStringLiteral("cost")).isDouble()) {
        r.cost = json.value(QStringLiteral("cost")).toDouble();
        r.currency = field(json, "currency");
    }
    *record = r;
    return true;
}

QString ChatRecord::turnEndText() const
{
    QStringList parts;
    parts << (stopReason.isEmpty() ? QStringLiteral("failed: %1").arg(error) : stopReason);
    if (inputTokens >= 0 || outputTokens >= 0) {
        QLocale c = QLocale::c();
        c.setNumberOptions(QLocale::DefaultNumberOptions); // 1,234: the C locale's separator, shown
        parts << QStringLiteral("%1 tokens in, %2 out").arg(c.toString(qMax<qint64>(0, inputTokens)), c.toString(qMax<qint64>(0, outputTokens)));
    }
    if (cost)
        parts << QStringLiteral("%1 %2").arg(*cost, 0, 'f', 4).arg(currency);
    return parts.join(QStringLiteral(" \u00b7 "));
}

QString ChatRecord::summary(int maxChars) const
{
    switch (kind) {
    case Kind::Prompt:
        return QStringLiteral("You to %1: %2").arg(agent, TextLines::oneLine(text, maxChars));
    case Kind::Answer:
        return QStringLiteral("%1: %2").arg(agent, TextLines::oneLine(text, maxChars));
    case Kind::Thought:
        return QStringLiteral("%1 thought: %2").arg(agent, TextLines::oneLine(text, maxChars));
    case Kind::ToolCall:
        return QStringLiteral("%1's tool call %2 (%3)").arg(agent, TextLines::oneLine(title, maxChars), status);
    case Kind::TurnEnd:
        return QStringLiteral("%1's turn ended: %2").arg(agent, turnEndText());
    case Kind::Notice:
        return QStringLiteral("%1: %2").arg(agent, TextLines::oneLine(text, maxChars));
    }
    return {};
}

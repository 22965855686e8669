#include "AcpTypes.h"

namespace Acp {

QString Error::describe() const
{
    switch (code) {
    case TimedOut:
    case ConnectionClosed:
    case BadAnswer:
        return message;
    case AuthRequired:
        return QStringLiteral("The agent needs you to log in first (%1).").arg(message);
    case -32601:
        return QStringLiteral("The agent does not offer this (%1).").arg(message);
    case -32602:
        return QStringLiteral("The agent refused the request's parameters: %1").arg(message);
    case RequestCancelled:
        return QStringLiteral("Cancelled (%1).").arg(message);
    default:
        return QStringLiteral("The agent answered with an error: %1 (code %2).").arg(message).arg(code);
    }
}

ContentBlock ContentBlock::fromText(const QString &text)
{
    ContentBlock block;
    block.type = QStringLiteral("text");
    block.text = text;
    return block;
}

ContentBlock ContentBlock::fromResource(const QString &uri, const QString &text, const QString &mimeType)
{
    ContentBlock block;
    block.type = QStringLiteral("resource");
    block.uri = uri;
    block.text = text;
    block.mimeType = mimeType;
    return block;
}

QList<ToolCallContent> ToolCall::diffs() const
{
    QList<ToolCallContent> found;
    for (const ToolCallContent &item : content) {
        if (item.type == ToolCallContent::Type::Diff)
            found.append(item);
    }
    return found;
}

} // namespace Acp

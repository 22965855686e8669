#include "McpToolName.h"

McpToolName McpToolName::parse(const QString &qualified)
{
    static const QLatin1StringView prefix("mcp__");
    if (!qualified.startsWith(prefix))
        return {};
    const qsizetype split = qualified.indexOf(QLatin1StringView("__"), prefix.size());
    if (split <= prefix.size() || split + 2 >= qualified.size())
        return {};
    return {qualified.mid(prefix.size(), split - prefix.size()), qualified.mid(split + 2)};
}

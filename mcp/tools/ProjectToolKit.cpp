#include "ProjectToolKit.h"

#include "ProjectFiles.h"


#include <algorithm>

namespace ProjectToolKit {

QString noRootMessage()
{
    return QStringLiteral("No project root is set. Set one with the set-project-root tool, File > Open project... in the "
                          "window, lisp-duet --project DIR, or by offering the folder as an MCP root from your client.");
}

std::optional<ProjectRoot::Resolved> resolve(ProjectFiles *files, const ToolCallPtr &call, const QString &path,
                                             ProjectRoot::Access access)
{
    if (!files->root().isSet()) {
        call->finish(ToolResult::error(noRootMessage()));
        return std::nullopt;
    }
    ProjectRoot::Resolved resolved = files->root().resolve(path, access);
    if (!resolved.ok()) {
        call->finish(ToolResult::error(resolved.error));
        return std::nullopt;
    }
    return resolved;
}

QString numbered(const QStringList &lines, int firstLine)
{
    const int width = int(QString::number(firstLine + int(lines.size()) - 1).size());
    QString out;
    for (qsizetype i = 0; i < lines.size(); ++i)
        out += QStringLiteral("%1│%2\n").arg(firstLine + int(i), std::max(width, 4)).arg(lines[i]);
    return out;
}

} // namespace ProjectToolKit

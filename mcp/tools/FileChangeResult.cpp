#include "FileChangeResult.h"

#include "schema/JsonSchema.h"

namespace FileChangeResult {

QJsonObject structured(const FileChange &applied)
{
    return {{QStringLiteral("path"), applied.path},
            {QStringLiteral("summary"), applied.summary},
            {QStringLiteral("first_line"), applied.firstLine},
            {QStringLiteral("last_line"), applied.lastLine},
            {QStringLiteral("diff"), applied.diff.text},
            {QStringLiteral("created"), applied.created},
            {QStringLiteral("change_id"), double(applied.id)}};
}

ToolResult result(const FileChange &applied, const QString &error)
{
    if (!error.isEmpty())
        return ToolResult::error(error);
    if (applied.diff.isEmpty())
        return ToolResult{QStringLiteral("%1 already has this text; nothing was written.").arg(applied.path), structured(applied), false};
    QString range;
    if (applied.firstLine > 0)
        range = QStringLiteral(" Now at lines %1-%2.").arg(applied.firstLine).arg(applied.lastLine);
    return ToolResult{QStringLiteral("%1: %2 (+%3 -%4).%5\n\n%6")
                          .arg(applied.path, applied.summary).arg(applied.diff.added).arg(applied.diff.removed).arg(range, applied.diff.text),
                      structured(applied), false};
}

QJsonObject outputProperties()
{
    using namespace Schema;
    return {{QStringLiteral("path"), string(QStringLiteral("The file, relative to the root"))},
            {QStringLiteral("summary"), string(QStringLiteral("What changed, in a few words"))},
            {QStringLiteral("first_line"), integer(QStringLiteral("First line of the new or changed text (0 when nothing remains)"), 0, 2147483647)},
            {QStringLiteral("last_line"), integer(QStringLiteral("Last line of the new or changed text"), 0, 2147483647)},
            {QStringLiteral("diff"), string(QStringLiteral("The unified diff; empty when nothing changed"))},
            {QStringLiteral("created"), boolean(QStringLiteral("The file did not exist before"))},
            {QStringLiteral("change_id"), integer(QStringLiteral("The change's number this run"), 0, 2147483647)}};
}

QStringList outputRequired()
{
    return {QStringLiteral("path"), QStringLiteral("diff")};
}

} // namespace FileChangeResult

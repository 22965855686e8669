#include "ProjectTools.h"

#include "project/ProjectFiles.h"
#include "project/ProjectTree.h"
#include "ProjectToolKit.h"
#include "schema/JsonSchema.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

namespace {
const auto Glob = Arg::string(QStringLiteral("glob"),
                              QStringLiteral("e.g. \"src/**/*.lisp\" or \"*.asd\" (default: all)"));
const auto Limit = Arg::integer(QStringLiteral("limit"), QStringLiteral("Most files (default 500)"), 1, 20000);

QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject file{{QStringLiteral("path"), string(QStringLiteral("Relative to the root"))},
                           {QStringLiteral("size"), integer(QStringLiteral("Bytes"), 0, 2147483647)}};
    return {{QStringLiteral("root"), string(QStringLiteral("The project root"))},
            {QStringLiteral("files"), objectArray(QStringLiteral("Sorted by path"), file, {QStringLiteral("path"), QStringLiteral("size")})},
            {QStringLiteral("total"), integer(QStringLiteral("Files that match, listed or not"), 0, 2147483647)}};
}
} // namespace

Tool listFilesTool(ProjectFiles *files)
{
    ToolSpec spec{
        .name = QStringLiteral("list-files"),
        .title = QStringLiteral("List project files"),
        .description = QStringLiteral(
            "Files under the project root with sizes, sorted; skips .git, build folders and compiled files."),
        .arguments = {Glob, Limit},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("root"), QStringLiteral("files"), QStringLiteral("total")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [files](const ToolCallPtr &call, const ToolArguments &arguments) {
        const ProjectRoot &root = files->root();
        if (!root.isSet()) {
            call->finish(ToolResult::error(ProjectToolKit::noRootMessage()));
            return;
        }
        const QString glob = arguments.text(Glob).trimmed();
        const int limit = arguments.value(Limit, 500);
        const ProjectTree::Glob matcher(glob);
        const ProjectTree::Walk walked = ProjectTree::walk(root);
        QJsonArray listed;
        QStringList lines;
        int total = 0;
        for (const QString &relative : walked.files) {
            if (!glob.isEmpty() && !matcher.matches(relative))
                continue;
            if (++total > limit)
                continue;
            const qint64 size = QFileInfo(QDir(root.path()).filePath(relative)).size();
            listed.append(QJsonObject{{QStringLiteral("path"), relative}, {QStringLiteral("size"), double(size)}});
            lines << QStringLiteral("%1  (%2 bytes)").arg(relative).arg(size);
        }
        QString text = total == 0 ? QStringLiteral("No file under %1 matches %2.").arg(root.path(), glob.isEmpty() ? QStringLiteral("(all)") : glob)
                                  : QStringLiteral("%1 file%2 under %3%4:\n%5")
                                        .arg(total).arg(total == 1 ? QString() : QStringLiteral("s"), root.path(),
                                             glob.isEmpty() ? QString() : QStringLiteral(" matching ") + glob, lines.join(QLatin1Char('\n')));
        if (total > limit)
            text += QStringLiteral("\n... %1 more (raise limit, or narrow the glob)").arg(total - limit);
        if (walked.truncated)
            text += QStringLiteral("\nThe walk stopped after %1 files; narrow the glob to see the rest.").arg(ProjectTree::MaxWalkedFiles);
        call->finish(ToolResult{text, {{QStringLiteral("root"), root.path()}, {QStringLiteral("files"), listed}, {QStringLiteral("total"), total}}, false});
    });
}

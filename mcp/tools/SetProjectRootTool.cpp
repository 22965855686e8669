#include "ProjectTools.h"

#include "project/ProjectFiles.h"
#include "schema/JsonSchema.h"
#include "ToolKit.h"

#include <QDir>
#include <QFileInfo>

namespace {
const auto Path = Arg::string(QStringLiteral("path"),
                              QStringLiteral("Absolute, or relative to the current root; ~ is home"))
                      .required(QStringLiteral("the folder of the project"))
                      .notBlank(QStringLiteral("is empty; give the project folder, e.g. \"/home/me/src/shapes\""));

QString absoluteFolder(const ProjectRoot &root, QString path)
{
    if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
        path = QDir::homePath() + path.mid(1);
    if (QDir::isAbsolutePath(path))
        return path;
    return root.isSet() ? QDir(root.path()).filePath(path) : QString();
}
} // namespace

Tool setProjectRootTool(ProjectFiles *files)
{
    ToolSpec spec{
        .name = QStringLiteral("set-project-root"),
        .title = QStringLiteral("Set project root"),
        .description = QStringLiteral(
            "Make a folder the project root: the file tools work inside it; the session's default directory and ASDF follow it."),
        .arguments = {Path, ToolKit::descriptionArgument()},
        .outputProperties = {{QStringLiteral("root"), Schema::string(QStringLiteral("The project root, canonical"))},
                             {QStringLiteral("previous"), Schema::nullableString(QStringLiteral("The root before, if any"))}},
        .outputRequired = {QStringLiteral("root")},
        .hints = Hints::Idempotent,
        .intent = [](const QJsonObject &arguments) {
            return QStringLiteral("make %1 the project root").arg(arguments.value(QStringLiteral("path")).toString());
        },
    };
    return Tool(spec, [files](const ToolCallPtr &call, const ToolArguments &arguments) {
        const QString given = arguments.text(Path).trimmed();
        const QString folder = absoluteFolder(files->root(), given);
        if (folder.isEmpty()) {
            call->finish(ToolResult::error(QStringLiteral("'%1' is relative and no project root is set yet; give an absolute path.").arg(given)));
            return;
        }
        const QString previous = files->root().path();
        QString error;
        const bool same = !previous.isEmpty() && QFileInfo(folder).canonicalFilePath() == previous;
        if (!same && !files->setRoot(folder, call->origin(), &error)) {
            call->finish(ToolResult::error(QStringLiteral("'%1' cannot be the project root: %2").arg(given, error)));
            return;
        }
        const QString root = files->root().path();
        const QString text = root == previous ? QStringLiteral("The project root is already %1.").arg(root)
                                              : QStringLiteral("The project root is now %1. Use project-info to see its systems.").arg(root);
        call->finish(ToolResult{text,
                                {{QStringLiteral("root"), root},
                                 {QStringLiteral("previous"), previous.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(previous)}},
                                false});
    });
}

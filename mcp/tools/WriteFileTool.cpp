#include "ProjectTools.h"

#include "FileChangeResult.h"
#include "project/ProjectFiles.h"
#include "ProjectToolKit.h"
#include "schema/JsonSchema.h"

namespace {
const auto Path = Arg::string(QStringLiteral("path"), QStringLiteral("Relative to the project root; folders are made"))
                      .required(QStringLiteral("the file to write"))
                      .notBlank(QStringLiteral("is empty; give a file path relative to the project root"));
const auto Content = Arg::string(QStringLiteral("content"), QStringLiteral("The whole new text"))
                         .required(QStringLiteral("the file's new text"));
const auto Description = Arg::string(QStringLiteral("description"), QStringLiteral("Why: the person sees it"));

int lineCount(const QString &text)
{
    return int(TextFile::lines(text).size());
}
} // namespace

Tool writeFileTool(ProjectFiles *files)
{
    ToolSpec spec{
        .name = QStringLiteral("write-file"),
        .title = QStringLiteral("Write file"),
        .description = QStringLiteral(
            "Create or replace a whole text file of the project; the person sees the diff (approves it in Ask mode). Returns "
            "the diff. Refused if it changed on disk since you read it. For one form, edit-form is safer."),
        .arguments = {Path, Content, Description},
        .outputProperties = FileChangeResult::outputProperties(),
        .outputRequired = FileChangeResult::outputRequired(),
        .hints = Hints::Destructive,
        .changesFiles = true,
    };
    return Tool(spec, [files](const ToolCallPtr &call, const ToolArguments &arguments) {
        const auto resolved = ProjectToolKit::resolve(files, call, arguments.text(Path), ProjectRoot::Access::Write);
        if (!resolved)
            return;
        const QString content = arguments.text(Content);
        const QString description = arguments.text(Description);
        const QString relative = resolved->relative;
        auto make = [content, description, relative](const TextFileContents &, bool exists, QString *) -> std::optional<FileChange> {
            FileChange change;
            change.kind = FileChange::Kind::Write;
            change.tool = QStringLiteral("write-file");
            change.description = description;
            change.after = content;
            const int lines = lineCount(content);
            change.summary = QStringLiteral("%1 %2 (%3 line%4)").arg(exists ? QStringLiteral("replaced") : QStringLiteral("created"), relative)
                                 .arg(lines).arg(lines == 1 ? QString() : QStringLiteral("s"));
            change.firstLine = lines > 0 ? 1 : 0;
            change.lastLine = lines;
            return change;
        };
        files->propose(
            resolved->absolute, call->origin(), make,
            [call](const FileChange &applied, const QString &error) { call->finish(FileChangeResult::result(applied, error)); },
            call.data());
    });
}

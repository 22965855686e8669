#include "ProjectTools.h"

#include "FileChangeResult.h"
#include "JsonSchema.h"
#include "project/ProjectFiles.h"
#include "ProjectToolKit.h"

namespace {
const auto Path = Arg::string(QStringLiteral("path"), QStringLiteral("The file, relative to the project root; missing folders are created"))
                      .required(QStringLiteral("the file to write"))
                      .notBlank(QStringLiteral("is empty; give a file path relative to the project root"));
const auto Content = Arg::string(QStringLiteral("content"), QStringLiteral("The whole new text of the file (UTF-8)"))
                         .required(QStringLiteral("the file's new text"));
const auto Description = Arg::string(QStringLiteral("description"), QStringLiteral("Why: one sentence shown to the person with the diff"));

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
            "Create a text file in the project, or replace a whole file's text. The person sees the diff (and in Ask mode "
            "approves it); the result is the unified diff. A file you read that changed on disk since is refused: read it "
            "again. To change one Lisp form, edit-form is safer. Binary files are never replaced."),
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

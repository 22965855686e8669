#include "ProjectTools.h"

#include "project/ProjectFiles.h"
#include "ProjectToolKit.h"
#include "schema/JsonSchema.h"

#include <QFileInfo>

namespace {
const auto Path = Arg::string(QStringLiteral("path"), QStringLiteral("Relative to the project root"))
                      .required(QStringLiteral("the file to read"))
                      .notBlank(QStringLiteral("is empty; give a file path relative to the project root"));
const auto Offset = Arg::integer(QStringLiteral("offset"), QStringLiteral("First line (default 1)"), 1, 2147483647);
const auto Limit = Arg::integer(QStringLiteral("limit"), QStringLiteral("Most lines (default 2000)"), 1, 100000);
constexpr int MaxLineChars = 2000;

QJsonObject outputProperties()
{
    using namespace Schema;
    return {{QStringLiteral("path"), string(QStringLiteral("Relative to the root"))},
            {QStringLiteral("first_line"), integer(QStringLiteral("Number of the first line shown"), 1, 2147483647)},
            {QStringLiteral("last_line"), integer(QStringLiteral("Number of the last line shown (first_line - 1 when none)"), 0, 2147483647)},
            {QStringLiteral("total_lines"), integer(QStringLiteral("Lines in the file"), 0, 2147483647)},
            {QStringLiteral("size"), integer(QStringLiteral("Bytes"), 0, 2147483647)},
            {QStringLiteral("digest"), string(QStringLiteral("SHA-256 of the file's bytes"))},
            {QStringLiteral("read_only"), boolean(QStringLiteral("The file is in a read-only root"))},
            {QStringLiteral("content"), string(QStringLiteral("The lines shown, numbered"))}};
}

QStringList shortened(QStringList lines)
{
    for (QString &line : lines) {
        if (line.size() > MaxLineChars)
            line = line.left(MaxLineChars) + QStringLiteral(" ... [%1 more characters]").arg(line.size() - MaxLineChars);
    }
    return lines;
}
} // namespace

Tool readFileTool(ProjectFiles *files)
{
    ToolSpec spec{
        .name = QStringLiteral("read-file"),
        .title = QStringLiteral("Read file"),
        .description = QStringLiteral(
            "A UTF-8 text file as numbered lines (\"  12│text\"), offset/limit for a window. Edits of a file changed on disk "
            "since you read it are refused."),
        .arguments = {Path, Offset, Limit},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("path"), QStringLiteral("first_line"), QStringLiteral("last_line"), QStringLiteral("digest")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [files](const ToolCallPtr &call, const ToolArguments &arguments) {
        const auto resolved = ProjectToolKit::resolve(files, call, arguments.text(Path), ProjectRoot::Access::Read);
        if (!resolved)
            return;
        const int offset = arguments.value(Offset, 1);
        const int limit = arguments.value(Limit, 2000);
        QStringList lines;
        int total = 0;
        QByteArray digest;
        qint64 size = QFileInfo(resolved->absolute).size();
        if (size <= TextFile::MaxWholeFileBytes) {
            const TextFileContents contents = TextFile::read(resolved->absolute);
            if (!contents.ok()) {
                call->finish(ToolResult::error(contents.error));
                return;
            }
            const QStringList all = TextFile::lines(contents.text);
            total = int(all.size());
            lines = all.mid(offset - 1, limit);
            digest = contents.digest;
            size = contents.size;
        } else {
            const TextFileLines window = TextFile::readLines(resolved->absolute, offset, limit);
            if (!window.ok()) {
                call->finish(ToolResult::error(window.error));
                return;
            }
            lines = window.lines;
            total = window.totalLines;
            digest = window.digest;
            size = window.size;
        }
        files->noteSeen(call->origin().clientKey, resolved->absolute, digest);
        const int last = offset + int(lines.size()) - 1;
        const QString content = ProjectToolKit::numbered(shortened(lines), offset);
        QString header;
        if (total == 0)
            header = QStringLiteral("%1 is empty.").arg(resolved->relative);
        else if (lines.isEmpty())
            header = QStringLiteral("%1 has %2 lines; offset %3 is past the end.").arg(resolved->relative).arg(total).arg(offset);
        else
            header = QStringLiteral("%1, lines %2-%3 of %4 (%5 bytes)%6:")
                         .arg(resolved->relative).arg(offset).arg(last).arg(total).arg(size)
                         .arg(resolved->readOnly ? QStringLiteral(", read-only") : QString());
        QString text = header + QLatin1Char('\n') + content;
        if (last < total)
            text += QStringLiteral("... %1 more lines: read-file with offset %2.").arg(total - last).arg(last + 1);
        if (text.endsWith(QLatin1Char('\n')))
            text.chop(1);
        call->finish(ToolResult{text,
                                {{QStringLiteral("path"), resolved->relative},
                                 {QStringLiteral("first_line"), offset},
                                 {QStringLiteral("last_line"), qMax(offset - 1, last)},
                                 {QStringLiteral("total_lines"), total},
                                 {QStringLiteral("size"), double(size)},
                                 {QStringLiteral("digest"), QString::fromLatin1(digest)},
                                 {QStringLiteral("read_only"), resolved->readOnly},
                                 {QStringLiteral("content"), content}},
                                false});
    });
}

#include "ProjectTools.h"

#include "project/ProjectFiles.h"
#include "project/ProjectLisp.h"
#include "ProjectToolKit.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"

#include <QJsonArray>

namespace {
const auto Symbol = Arg::string(QStringLiteral("symbol"), QStringLiteral("\"area\" (any package), \"shapes:area\", \":radius\""))
                        .required(QStringLiteral("the symbol to find"))
                        .notBlank(QStringLiteral("is empty; give a symbol name"));
const auto Limit = Arg::integer(QStringLiteral("limit"), QStringLiteral("Most uses (default 200)"), 1, 10000);
constexpr int MaxLineChars = 200;

QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject hit{{QStringLiteral("file"), string(QStringLiteral("Relative to the root"))},
                          {QStringLiteral("line"), integer(QStringLiteral("1-based"), 1, 2147483647)},
                          {QStringLiteral("column"), integer(QStringLiteral("1-based"), 1, 2147483647)},
                          {QStringLiteral("form"), string(QStringLiteral("The enclosing top-level form's label"))},
                          {QStringLiteral("form_first_line"), integer(QStringLiteral("Its first line"), 1, 2147483647)},
                          {QStringLiteral("form_last_line"), integer(QStringLiteral("Its last line"), 1, 2147483647)},
                          {QStringLiteral("package"), string(QStringLiteral("The package in force there"))},
                          {QStringLiteral("text"), string(QStringLiteral("The line"))}};
    return {{QStringLiteral("references"), objectArray(QStringLiteral("Uses of the symbol in code"), hit, {QStringLiteral("file"), QStringLiteral("line")})},
            {QStringLiteral("total"), integer(QStringLiteral("Uses found, listed or not"), 0, 2147483647)}};
}
} // namespace

Tool findReferencesTool(ProjectFiles *files, Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("find-references"),
        .title = QStringLiteral("Find references"),
        .description = QStringLiteral(
            "Uses of a symbol in the project's Lisp files, read as Lisp (strings and comments never count), each with file, "
            "line and enclosing form."),
        .arguments = {Symbol, Limit},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("references"), QStringLiteral("total")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [files, session](const ToolCallPtr &call, const ToolArguments &arguments) {
        if (!files->root().isSet()) {
            call->finish(ToolResult::error(ProjectToolKit::noRootMessage()));
            return;
        }
        const QString symbol = arguments.text(Symbol).trimmed();
        const SyntaxTree read = SyntaxTree::read(symbol);
        if (read.topLevel().size() != 1 || !read.topLevel().first().is(SyntaxKind::Symbol)) {
            call->finish(ToolResult::error(QStringLiteral("'%1' is not one symbol; give a name such as \"area\" or \"shapes:area\".").arg(symbol)));
            return;
        }
        const int limit = arguments.value(Limit, 200);
        ProjectToolKit::readProjectLisp(files, session, [call, symbol, limit](const ProjectLisp &project) {
            QStringList lines;
            QJsonArray references;
            int total = 0;
            for (size_t i = 0; i < project.files.size(); ++i) {
                const ProjectTree::SourceFile &source = project.sources.files.at(qsizetype(i));
                const LispFile &file = project.files[i];
                const QList<SymbolOccurrence> occurrences = file.occurrences(symbol, project.packages);
                if (occurrences.isEmpty())
                    continue;
                const QStringList fileLines = TextFile::lines(source.text);
                for (const SymbolOccurrence &occurrence : occurrences) {
                    if (++total > limit)
                        continue;
                    const TopLevelForm &form = file.forms().at(occurrence.formIndex);
                    const QString line = fileLines.value(occurrence.line - 1).trimmed().left(MaxLineChars);
                    lines << QStringLiteral("%1:%2:%3  in %4 (%5-%6): %7")
                                 .arg(source.relative, QString::number(occurrence.line), QString::number(occurrence.column), form.label,
                                      QString::number(form.firstLine), QString::number(form.lastLine), line);
                    references.append(QJsonObject{{QStringLiteral("file"), source.relative}, {QStringLiteral("line"), occurrence.line},
                                                  {QStringLiteral("column"), occurrence.column}, {QStringLiteral("form"), form.label},
                                                  {QStringLiteral("form_first_line"), form.firstLine}, {QStringLiteral("form_last_line"), form.lastLine},
                                                  {QStringLiteral("package"), occurrence.package}, {QStringLiteral("text"), line}});
                }
            }
            QString text = total == 0 ? QStringLiteral("No use of %1 in the project's Lisp files.").arg(symbol)
                                      : QStringLiteral("%1 use%2 of %3:\n%4").arg(total).arg(total == 1 ? QString() : QStringLiteral("s"), symbol, lines.join(QLatin1Char('\n')));
            if (total > limit)
                text += QStringLiteral("\n... %1 more (raise limit)").arg(total - limit);
            if (const QString note = ProjectTree::skippedNote(project.sources); !note.isEmpty())
                text += QLatin1Char('\n') + note;
            call->finish(ToolResult{text, {{QStringLiteral("references"), references}, {QStringLiteral("total"), total}}, false});
        });
    });
}

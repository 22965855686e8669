#include "ProjectTools.h"

#include "lispsource/LispFile.h"
#include "project/ProjectFiles.h"
#include "project/ProjectTree.h"
#include "ProjectToolKit.h"
#include "schema/JsonSchema.h"

#include <QJsonArray>

#include <algorithm>
#include <QRegularExpression>

namespace {
const auto Path = Arg::string(QStringLiteral("path"), QStringLiteral("Relative to the project root"))
                      .required(QStringLiteral("the file to view"))
                      .notBlank(QStringLiteral("is empty; give a file path relative to the project root"));
const auto Forms = Arg::string(QStringLiteral("forms"),
                               QStringLiteral("e.g. \"defun area, defmethod area (circle)\""));
const auto Pattern = Arg::string(QStringLiteral("pattern"),
                                 QStringLiteral("Regular expression on the labels"));
constexpr int PlainSliceLines = 200;

QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject form{{QStringLiteral("first_line"), integer(QStringLiteral("1-based"), 1, 2147483647)},
                           {QStringLiteral("last_line"), integer(QStringLiteral("1-based"), 1, 2147483647)},
                           {QStringLiteral("label"), string(QStringLiteral("Kind and name, e.g. \"defun area\""))},
                           {QStringLiteral("package"), string(QStringLiteral("The package in force where it is read"))},
                           {QStringLiteral("depth"), integer(QStringLiteral("0 for a form of the file, 1 inside a top-level progn or eval-when..."), 0, 2147483647)}};
    const QJsonObject shown{{QStringLiteral("first_line"), integer(QStringLiteral("1-based"), 1, 2147483647)},
                            {QStringLiteral("last_line"), integer(QStringLiteral("1-based"), 1, 2147483647)},
                            {QStringLiteral("label"), string(QStringLiteral("Kind and name"))},
                            {QStringLiteral("text"), string(QStringLiteral("The form's text: exactly what edit-form replaces"))}};
    return {{QStringLiteral("path"), string(QStringLiteral("Relative to the root"))},
            {QStringLiteral("forms"), objectArray(QStringLiteral("Every top-level form in order"), form, {QStringLiteral("first_line"), QStringLiteral("label")})},
            {QStringLiteral("shown"), objectArray(QStringLiteral("The forms asked for, in full"), shown, {QStringLiteral("first_line"), QStringLiteral("text")})},
            {QStringLiteral("problems"), stringArray(QStringLiteral("Queries that found no single form, and reader errors"))}};
}

QString shortPackage(const QString &package)
{
    return package == QLatin1String("COMMON-LISP-USER") ? QStringLiteral("CL-USER") : package;
}

// The form's lines, numbered, holding exactly its text: what shares its first line before it is
// blanked out and what follows it on its last line is cut, so that what is shown is what
// edit-form replaces. *partial says whether anything was left out.
QString formInFull(const LispFile &file, const QStringList &lines, const TopLevelForm &form, bool *partial)
{
    QStringList shown = lines.mid(form.firstLine - 1, form.lastLine - form.firstLine + 1);
    if (shown.isEmpty())
        return {};
    *partial = false;
    const int startColumn = file.tree().columnAt(form.start) - 1;
    QString &first = shown.first();
    if (!first.left(startColumn).trimmed().isEmpty()) {
        first.replace(0, startColumn, QString(startColumn, QLatin1Char(' ')));
        *partial = true;
    }
    const int endColumn = form.end > form.start ? file.tree().columnAt(form.end - 1) : 0;
    QString &last = shown.last();
    if (!last.mid(endColumn).trimmed().isEmpty()) {
        last.truncate(endColumn);
        *partial = true;
    }
    return ProjectToolKit::numbered(shown, form.firstLine).chopped(1);
}

// The queries of `forms`: by lines, each a label or comma-separated names (a label holding a
// comma is taken whole).
QStringList queriesIn(const LispFile &file, const QString &forms)
{
    QStringList queries;
    for (const QString &line : forms.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString simplified = line.simplified();
        const bool isLabel = std::any_of(file.forms().begin(), file.forms().end(),
                                         [&](const TopLevelForm &form) { return form.label == simplified; });
        if (isLabel) {
            queries << simplified;
            continue;
        }
        for (const QString &part : line.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (!part.trimmed().isEmpty())
                queries << part.trimmed();
        }
    }
    return queries;
}

// The outline, then the forms asked for in full.
ToolResult view(const LispFile &file, const QString &relative, const QString &queries, const QString &pattern)
{
    const QStringList lines = TextFile::lines(file.text());
    const qsizetype topLevel = std::count_if(file.forms().begin(), file.forms().end(), [](const TopLevelForm &f) { return f.depth == 0; });
    const qsizetype nested = file.forms().size() - topLevel;
    QStringList out{QStringLiteral("%1: %2 top-level forms%3, %4 lines")
                        .arg(relative).arg(topLevel)
                        .arg(nested == 0 ? QString() : QStringLiteral(" (and %1 inside their progn, eval-when... groups, indented)").arg(nested))
                        .arg(lines.size())};
    QJsonArray forms;
    QString package;
    for (const TopLevelForm &form : file.forms()) {
        if (form.package != package) {
            package = form.package;
            out << QStringLiteral("[package %1]").arg(shortPackage(package));
        }
        const QString range = form.firstLine == form.lastLine ? QString::number(form.firstLine)
                                                              : QStringLiteral("%1-%2").arg(form.firstLine).arg(form.lastLine);
        out << QStringLiteral("%1  %2%3%4").arg(range, -9).arg(QString(2 * form.depth, QLatin1Char(' ')), form.label,
                                                 form.node.isComplete() ? QString() : QStringLiteral("   [not closed]"));
        forms.append(QJsonObject{{QStringLiteral("first_line"), form.firstLine}, {QStringLiteral("last_line"), form.lastLine},
                                 {QStringLiteral("label"), form.label}, {QStringLiteral("package"), form.package},
                                 {QStringLiteral("depth"), form.depth}});
    }
    QStringList problems;
    const ReadError error = file.tree().firstError();
    if (error.isValid())
        problems << QStringLiteral("The file does not read cleanly: %1 The outline shows what was read.").arg(error.message);

    QList<TopLevelForm> wanted;
    for (const QString &query : queriesIn(file, queries)) {
        const FormMatches matches = file.find(query);
        if (matches.forms.isEmpty())
            problems << matches.message();
        wanted << matches.forms; // several forms of one name are all shown
    }
    if (!pattern.isEmpty()) {
        const QRegularExpression expression(pattern, QRegularExpression::CaseInsensitiveOption);
        if (!expression.isValid()) {
            problems << QStringLiteral("The pattern '%1' is not a valid regular expression: %2.").arg(pattern, expression.errorString());
        } else {
            int matched = 0;
            for (const TopLevelForm &form : file.forms()) {
                if (expression.match(form.label).hasMatch()) {
                    wanted << form;
                    ++matched;
                }
            }
            if (matched == 0)
                problems << QStringLiteral("No form's label matches the pattern '%1'.").arg(pattern);
        }
    }
    QJsonArray shown;
    QList<int> seen;
    for (const TopLevelForm &form : std::as_const(wanted)) {
        if (seen.contains(form.index))
            continue;
        seen << form.index;
        bool partial = false;
        const QString numbered = formInFull(file, lines, form, &partial);
        out << QString()
            << QStringLiteral("%1 (lines %2-%3, package %4%5):")
                   .arg(form.label, QString::number(form.firstLine), QString::number(form.lastLine), shortPackage(form.package),
                        partial ? QStringLiteral("; the other text on its lines is left out") : QString())
            << numbered;
        shown.append(QJsonObject{{QStringLiteral("first_line"), form.firstLine}, {QStringLiteral("last_line"), form.lastLine},
                                 {QStringLiteral("label"), form.label},
                                 {QStringLiteral("text"), file.text().mid(form.start, form.end - form.start)}});
    }
    if (!problems.isEmpty())
        out << QString() << problems;
    return ToolResult{out.join(QLatin1Char('\n')),
                      {{QStringLiteral("path"), relative}, {QStringLiteral("forms"), forms}, {QStringLiteral("shown"), shown},
                       {QStringLiteral("problems"), QJsonArray::fromStringList(problems)}},
                      false};
}
} // namespace

Tool viewLispFileTool(ProjectFiles *files)
{
    ToolSpec spec{
        .name = QStringLiteral("view-lisp-file"),
        .title = QStringLiteral("View Lisp file"),
        .description = QStringLiteral(
            "Outline of a Lisp file: one line per top-level form (\"12-18  defun area\"), package changes. Forms named in "
            "forms, or whose label matches pattern, in full: exactly the text edit-form replaces."),
        .arguments = {Path, Forms, Pattern},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("path")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [files](const ToolCallPtr &call, const ToolArguments &arguments) {
        const auto resolved = ProjectToolKit::resolve(files, call, arguments.text(Path), ProjectRoot::Access::Read);
        if (!resolved)
            return;
        const TextFileContents contents = TextFile::read(resolved->absolute);
        if (!contents.ok()) {
            call->finish(ToolResult::error(contents.error));
            return;
        }
        files->noteSeen(call->origin().clientKey, resolved->absolute, contents.digest);
        if (!ProjectTree::isLispFile(resolved->absolute)) {
            const QStringList lines = TextFile::lines(contents.text);
            QString text = QStringLiteral("%1 is not a Lisp file (.lisp, .lsp, .cl, .asd); its first lines:\n%2")
                               .arg(resolved->relative, ProjectToolKit::numbered(lines.mid(0, PlainSliceLines), 1));
            if (lines.size() > PlainSliceLines)
                text += QStringLiteral("... %1 more lines: read-file with offset %2.").arg(lines.size() - PlainSliceLines).arg(PlainSliceLines + 1);
            call->finish(ToolResult{text, {{QStringLiteral("path"), resolved->relative}}, false});
            return;
        }
        call->finish(view(LispFile(contents.text), resolved->relative, arguments.text(Forms), arguments.text(Pattern)));
    });
}

#include "ProjectTools.h"

#include "project/ProjectFiles.h"
#include "project/ProjectLisp.h"
#include "ProjectToolKit.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"

#include <QHash>
#include <QJsonArray>
#include <QPointer>

namespace {
const auto Symbol = Arg::string(QStringLiteral("symbol"), QStringLiteral("\"area\" (any package), \"shapes:area\", \":radius\""))
                        .required(QStringLiteral("the symbol to find"))
                        .notBlank(QStringLiteral("is empty; give a symbol name"));
const auto Limit = Arg::integer(QStringLiteral("limit"), QStringLiteral("Most uses (default 200)"), 1, 10000);
const auto Relation = Arg::choice(
    QStringLiteral("relation"),
    QStringLiteral("Instead: the definitions in the session and its loaded sources that call it, it calls, "
                   "reference/bind/set it, expand it, or specialize on it"),
    {QStringLiteral("calls"), QStringLiteral("calls-who"), QStringLiteral("references"), QStringLiteral("binds"),
     QStringLiteral("sets"), QStringLiteral("macroexpands"), QStringLiteral("specializes")});
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
    const QJsonObject related{{QStringLiteral("definition"), string(QStringLiteral("The definition, \"(DEFUN AREA)\""))},
                              {QStringLiteral("name"), string(QStringLiteral("calls-who: the function it calls"))},
                              {QStringLiteral("where"), string(QStringLiteral("file (file, line), session (defined by an evaluation), or unknown"))},
                              {QStringLiteral("file"), string(QStringLiteral("Relative to the root when inside it"))},
                              {QStringLiteral("line"), integer(QStringLiteral("1-based"), 1, 2147483647)}};
    return {{QStringLiteral("references"), objectArray(QStringLiteral("Uses of the symbol in code"), hit, {QStringLiteral("file"), QStringLiteral("line")})},
            {QStringLiteral("related"), objectArray(QStringLiteral("With relation: the definitions so related"), related, {QStringLiteral("definition")})},
            {QStringLiteral("total"), integer(QStringLiteral("Uses found, listed or not"), 0, 2147483647)}};
}

QString relationPhrase(const QString &relation)
{
    static const QHash<QString, QString> phrases{
        {QStringLiteral("calls"), QStringLiteral("calling")},          {QStringLiteral("calls-who"), QStringLiteral("called by")},
        {QStringLiteral("references"), QStringLiteral("referencing")}, {QStringLiteral("binds"), QStringLiteral("binding")},
        {QStringLiteral("sets"), QStringLiteral("setting")},           {QStringLiteral("macroexpands"), QStringLiteral("using the macro")},
        {QStringLiteral("specializes"), QStringLiteral("specializing on")}};
    return phrases.value(relation, relation);
}

// With `relation`: the session's cross-references (the engine's "xref": its definitions and
// every source file it loaded, libraries included), not the project's text.
void answerRelation(const ToolCallPtr &call, ProjectFiles *files, Session *session, const QString &symbol, const QString &relation, int limit)
{
    QPointer<ProjectFiles> guard(files);
    session->query({QStringLiteral("xref"), {{QStringLiteral("kind"), relation}, {QStringLiteral("name"), symbol}}},
                   [call, guard, symbol, relation, limit](const QJsonObject &reply) {
        if (reply.value(QStringLiteral("status")).toString() == QLatin1String("failed")) {
            call->finish(ToolResult::error(QStringLiteral("The session could not be asked: %1")
                                               .arg(reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString())));
            return;
        }
        if (!reply.value(QStringLiteral("found")).toBool()) {
            call->finish(ToolResult::error(QStringLiteral("%1 Give the symbol with its package (\"shapes:area\").")
                                               .arg(reply.value(QStringLiteral("message")).toString())));
            return;
        }
        const QJsonArray found = reply.value(QStringLiteral("references")).toArray();
        QStringList lines;
        QJsonArray related;
        for (const QJsonValue &value : found) {
            if (related.size() >= limit)
                break;
            const QJsonObject entry = value.toObject();
            const QString where = entry.value(QStringLiteral("where")).toString();
            const QString absolute = entry.value(QStringLiteral("file")).toString();
            const QString file = absolute.isEmpty() || !guard ? absolute : guard->root().display(absolute);
            QJsonObject item{{QStringLiteral("definition"), entry.value(QStringLiteral("definition"))}, {QStringLiteral("where"), where}};
            QString place = where == QLatin1String("session") ? QStringLiteral("defined in the session") : QStringLiteral("source unknown");
            if (where == QLatin1String("file")) {
                item.insert(QStringLiteral("file"), file);
                item.insert(QStringLiteral("line"), entry.value(QStringLiteral("line")));
                place = QStringLiteral("%1:%2").arg(file).arg(entry.value(QStringLiteral("line")).toInt());
            }
            QString head = entry.value(QStringLiteral("definition")).toString();
            if (entry.contains(QStringLiteral("name"))) {
                item.insert(QStringLiteral("name"), entry.value(QStringLiteral("name")));
                head = entry.value(QStringLiteral("name")).toString() + (head.isEmpty() ? QString() : QStringLiteral(" ") + head);
            }
            lines << QStringLiteral("%1  %2").arg(head, place);
            related.append(item);
        }
        const QString subject = reply.value(QStringLiteral("symbol")).toString();
        QString text = found.isEmpty()
            ? QStringLiteral("Nothing in the session's definitions or loaded sources %1 %2.").arg(relationPhrase(relation), subject)
            : QStringLiteral("%1 definition%2 %3 %4 (the session's definitions and the %5 source files it loaded):\n%6")
                  .arg(found.size()).arg(found.size() == 1 ? QString() : QStringLiteral("s"), relationPhrase(relation), subject)
                  .arg(reply.value(QStringLiteral("files")).toInt()).arg(lines.join(QLatin1Char('\n')));
        if (found.size() > limit)
            text += QStringLiteral("\n... %1 more (raise limit)").arg(found.size() - limit);
        call->finish(ToolResult{text, {{QStringLiteral("references"), QJsonArray()}, {QStringLiteral("related"), related},
                                       {QStringLiteral("total"), int(found.size())}}, false});
    });
}
} // namespace

Tool findReferencesTool(ProjectFiles *files, Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("find-references"),
        .title = QStringLiteral("Find references"),
        .description = QStringLiteral(
            "Uses of a symbol in the project's Lisp files, read as Lisp (strings and comments never count), each with file, "
            "line and enclosing form; with relation, who calls it (and more) in the session."),
        .arguments = {Symbol, Limit, Relation},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("references"), QStringLiteral("total")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [files, session](const ToolCallPtr &call, const ToolArguments &arguments) {
        if (const QString relation = arguments.text(Relation); !relation.isEmpty()) {
            answerRelation(call, files, session, arguments.text(Symbol).trimmed(), relation, arguments.value(Limit, 200));
            return;
        }
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

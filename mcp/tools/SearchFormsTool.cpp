#include "ProjectTools.h"

#include "project/ProjectFiles.h"
#include "project/ProjectLisp.h"
#include "project/ProjectTree.h"
#include "ProjectToolKit.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"

#include <QJsonArray>
#include <QSet>

namespace {
const auto Kind = Arg::string(QStringLiteral("kind"),
                              QStringLiteral("\"defun\", \"defmethod\"..., or \"function\", \"method\", \"class\""));
const auto Name = Arg::string(QStringLiteral("name"),
                              QStringLiteral("Regular expression, or glob (\"make-*\"), on the defined name"));
const auto Contains = Arg::string(QStringLiteral("contains"), QStringLiteral("A symbol the form uses (never in strings or comments)"));
const auto Limit = Arg::integer(QStringLiteral("limit"), QStringLiteral("Most forms (default 200)"), 1, 10000);

QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject form{{QStringLiteral("file"), string(QStringLiteral("Relative to the root"))},
                           {QStringLiteral("first_line"), integer(QStringLiteral("1-based"), 1, 2147483647)},
                           {QStringLiteral("last_line"), integer(QStringLiteral("1-based"), 1, 2147483647)},
                           {QStringLiteral("label"), string(QStringLiteral("How edit-form names it"))},
                           {QStringLiteral("kind"), string(QStringLiteral("What it defines; empty when nothing"))}};
    return {{QStringLiteral("forms"), objectArray(QStringLiteral("The matching top-level forms"), form, {QStringLiteral("file"), QStringLiteral("first_line"), QStringLiteral("label")})},
            {QStringLiteral("total"), integer(QStringLiteral("Forms found, listed or not"), 0, 2147483647)},
            {QStringLiteral("name_read_as"), stringEnum(QStringLiteral("How 'name' was read; absent without a name"), {QStringLiteral("glob"), QStringLiteral("regex")})}};
}

// How a name was read, and as what.
struct NamePattern
{
    bool glob = false;
    QRegularExpression expression;
};

// "make-*" and "*-p" are globs; "^make-.*$" is a regular expression, though it has a *: with
// other regular-expression syntax beside * and ?, the name is one (as a glob it would find only
// names with a "^" and a "$" in them, that is nothing).
NamePattern namePattern(const QString &name)
{
    static const QRegularExpression regexSyntax(QStringLiteral(R"([\^$.\[\](){}+|\\])"));
    const bool wildcards = name.contains(QLatin1Char('*')) || name.contains(QLatin1Char('?'));
    if (wildcards && !name.contains(regexSyntax)) {
        // Not a path's glob: * matches any characters, "/" too (a name may have one).
        QString pattern;
        for (const QChar c : name)
            pattern += c == QLatin1Char('*') ? QStringLiteral(".*") : c == QLatin1Char('?') ? QStringLiteral(".") : QRegularExpression::escape(QString(c));
        return {true, QRegularExpression(QRegularExpression::anchoredPattern(pattern), QRegularExpression::CaseInsensitiveOption)};
    }
    return {false, QRegularExpression(name, QRegularExpression::CaseInsensitiveOption)};
}

QString howRead(const QString &name, const NamePattern &pattern)
{
    return pattern.glob ? QStringLiteral("name \"%1\" read as a glob (* any characters, ? one)").arg(name)
                        : QStringLiteral("name \"%1\" read as a regular expression, case-insensitive").arg(name);
}
} // namespace

Tool searchFormsTool(ProjectFiles *files, Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("search-forms"),
        .title = QStringLiteral("Search forms"),
        .description = QStringLiteral(
            "Top-level forms of the project's Lisp files by kind, defined name and/or a symbol they use; each with file, "
            "lines and label."),
        .arguments = {Kind, Name, Contains, Limit},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("forms"), QStringLiteral("total")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [files, session](const ToolCallPtr &call, const ToolArguments &arguments) {
        if (!files->root().isSet()) {
            call->finish(ToolResult::error(ProjectToolKit::noRootMessage()));
            return;
        }
        const QString kind = arguments.text(Kind).trimmed().toLower();
        const QString name = arguments.text(Name).trimmed();
        const QString contains = arguments.text(Contains).trimmed();
        const int limit = arguments.value(Limit, 200);
        const NamePattern pattern = namePattern(name);
        const QRegularExpression nameMatch = pattern.expression;
        if (!name.isEmpty() && !nameMatch.isValid()) {
            call->finish(ToolResult::error(QStringLiteral("'name' is not a valid regular expression: %1.").arg(nameMatch.errorString())));
            return;
        }
        ProjectToolKit::readProjectLisp(files, session, [call, kind, name, contains, limit, nameMatch, pattern](const ProjectLisp &project) {
            QStringList lines;
            QJsonArray forms;
            int total = 0;
            for (size_t i = 0; i < project.files.size(); ++i) {
                const ProjectTree::SourceFile &source = project.sources.files.at(qsizetype(i));
                const LispFile &file = project.files[i];
                QSet<int> users;
                if (!contains.isEmpty()) {
                    // A use inside a group's form is a use by that form and by the group.
                    for (const SymbolOccurrence &occurrence : file.occurrences(contains, project.packages)) {
                        for (int at = occurrence.formIndex; at >= 0; at = file.forms().at(at).parent)
                            users.insert(at);
                    }
                }
                for (const TopLevelForm &form : file.forms()) {
                    if (!kind.isEmpty() && form.operatorName != kind && !DefinitionForms::isKind(kind, form.definition.kind))
                        continue;
                    if (!name.isEmpty() && (!form.definition.isValid() || !nameMatch.match(form.definition.name.toLower()).hasMatch()))
                        continue;
                    if (!contains.isEmpty() && !users.contains(form.index))
                        continue;
                    if (++total > limit)
                        continue;
                    lines << QStringLiteral("%1:%2-%3  %4").arg(source.relative, QString::number(form.firstLine), QString::number(form.lastLine), form.label);
                    forms.append(QJsonObject{{QStringLiteral("file"), source.relative}, {QStringLiteral("first_line"), form.firstLine},
                                             {QStringLiteral("last_line"), form.lastLine}, {QStringLiteral("label"), form.label},
                                             {QStringLiteral("kind"), form.definition.kind}});
                }
            }
            QString text = total == 0 ? QStringLiteral("No top-level form matches.")
                                      : QStringLiteral("%1 form%2:\n%3").arg(total).arg(total == 1 ? QString() : QStringLiteral("s"), lines.join(QLatin1Char('\n')));
            if (total > limit)
                text += QStringLiteral("\n... %1 more (raise limit, or narrow the search)").arg(total - limit);
            if (!name.isEmpty())
                text += QStringLiteral("\n(%1)").arg(howRead(name, pattern));
            if (const QString note = ProjectTree::skippedNote(project.sources); !note.isEmpty())
                text += QLatin1Char('\n') + note;
            QJsonObject structured{{QStringLiteral("forms"), forms}, {QStringLiteral("total"), total}};
            if (!name.isEmpty())
                structured.insert(QStringLiteral("name_read_as"), pattern.glob ? QStringLiteral("glob") : QStringLiteral("regex"));
            call->finish(ToolResult{text, structured, false});
        });
    });
}

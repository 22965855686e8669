#include "ProjectTools.h"

#include "client/EngineProtocol.h"
#include "project/ProjectFiles.h"
#include "project/ProjectLisp.h"
#include "ProjectToolKit.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"

#include <QJsonArray>
#include <QPointer>

namespace {
const auto Symbol = Arg::string(QStringLiteral("symbol"), QStringLiteral("e.g. \"area\", \"shapes:area\", \"(setf point-x)\""))
                        .required(QStringLiteral("the name to find"))
                        .notBlank(QStringLiteral("is empty; give the name of a function, class, variable..."));
const auto Package = Arg::string(QStringLiteral("package"), QStringLiteral("Only forms read in this package"));

QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject found{{QStringLiteral("file"), string(QStringLiteral("Relative to the root"))},
                            {QStringLiteral("line"), integer(QStringLiteral("First line of the form"), 1, 2147483647)},
                            {QStringLiteral("last_line"), integer(QStringLiteral("Last line of the form"), 1, 2147483647)},
                            {QStringLiteral("kind"), string(QStringLiteral("function, macro, method, class, variable..."))},
                            {QStringLiteral("label"), string(QStringLiteral("How edit-form names it: \"defmethod area (circle)\""))},
                            {QStringLiteral("package"), string(QStringLiteral("The package in force there"))}};
    const QJsonObject engine{{QStringLiteral("name"), string(QStringLiteral("As the session prints it"))},
                             {QStringLiteral("kind"), string(QStringLiteral("What it names in the session"))},
                             {QStringLiteral("file"), nullableString(QStringLiteral("The file it was loaded from, if known"))},
                             {QStringLiteral("line"), integer(QStringLiteral("1-based; 0 when unknown"), 0, 2147483647)}};
    return {{QStringLiteral("definitions"), objectArray(QStringLiteral("Forms in the project's files that define the name"), found,
                                                        {QStringLiteral("file"), QStringLiteral("line"), QStringLiteral("label")})},
            {QStringLiteral("session"), objectArray(QStringLiteral("What the running session has under that name"), engine, {QStringLiteral("name")})}};
}

struct Wanted
{
    QString symbol;         // as asked
    QString name;           // as the reader interns it: "AREA", "(SETF POINT-X)"
    QString writtenPackage; // the package prefix of the symbol asked for; empty: any
    QString readIn;         // only definitions read in this package; empty: any
    QString error;
};

Wanted wanted(const QString &symbol, const QString &package)
{
    const FormQuery query = FormQuery::parse(QStringLiteral("defun ") + symbol);
    if (!query.isValid())
        return {symbol, {}, {}, {}, QStringLiteral("'%1' does not read as a name: %2.").arg(symbol, query.error)};
    const QString readIn = package.trimmed().isEmpty() ? QString() : DefinitionForms::canonicalPackage(package.trimmed());
    return {symbol, query.name, query.package, readIn, {}};
}

// "(SETF FOO)" names the symbol FOO.
QString symbolPart(const QString &name)
{
    return name.startsWith(QLatin1String("(SETF ")) ? name.mid(6, name.size() - 7) : name;
}

// The name's part after any package prefix, as the engine prints it: "SHAPES::AREA" -> "AREA".
QString bareName(const QString &printed)
{
    if (printed.startsWith(QLatin1Char('(')))
        return printed.toUpper();
    return printed.section(QLatin1Char(':'), -1).toUpper();
}
// What the running session has under the name, after the files' part (text, found).
void askSession(const ToolCallPtr &call, ProjectFiles *files, Session *session, const Wanted &target, const QString &text,
                const QJsonArray &found)
{
    const QString package = target.readIn.isEmpty() ? target.writtenPackage : target.readIn;
    const QString name = target.name;
    QPointer<ProjectFiles> guard(files);
    session->query(EngineProtocol::definitions(package, name.toLower()), [call, text, found, name, guard](const QJsonObject &json) {
        const EngineProtocol::DefinitionsReply reply(json);
        QStringList inSession;
        QJsonArray entries;
        if (!reply.failed() && reply.found()) {
            for (const QJsonValue &value : reply.definitions()) {
                const EngineProtocol::DefinitionsReply::Entry entry(value);
                if (bareName(entry.name()) != name)
                    continue;
                const QString file = entry.file().isString() && guard ? guard->root().display(entry.file().toString()) : QString();
                inSession << QStringLiteral("%1 (%2)%3").arg(entry.name(), entry.kind(),
                                                             file.isEmpty() ? QStringLiteral(", not loaded from a file")
                                                             : entry.line() > 0 ? QStringLiteral(" from %1:%2").arg(file).arg(entry.line())
                                                                                : QStringLiteral(" from %1").arg(file));
                entries.append(QJsonObject{{QStringLiteral("name"), entry.name()}, {QStringLiteral("kind"), entry.kind()},
                                           {QStringLiteral("file"), file.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(file)},
                                           {QStringLiteral("line"), entry.line()}});
            }
        }
        const QString sessionPart = reply.failed() ? QStringLiteral("The session could not be asked: %1").arg(reply.errorMessage())
            : inSession.isEmpty()              ? QStringLiteral("The session defines nothing under that name.")
                                               : QStringLiteral("In the session:\n%1").arg(inSession.join(QLatin1Char('\n')));
        call->finish(ToolResult{text + QStringLiteral("\n\n") + sessionPart,
                                {{QStringLiteral("definitions"), found}, {QStringLiteral("session"), entries}}, false});
    });
}
} // namespace

Tool findDefinitionTool(ProjectFiles *files, Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("find-definition"),
        .title = QStringLiteral("Find definition"),
        .description = QStringLiteral(
            "Where a name is defined: the project's forms (file, lines, kind, label) and what the session has (file:line when "
            "known). \"pkg:name\" resolves as Lisp reads it."),
        .arguments = {Symbol, Package},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("definitions")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [files, session](const ToolCallPtr &call, const ToolArguments &arguments) {
        const QString symbol = arguments.text(Symbol).trimmed();
        const Wanted target = wanted(symbol, arguments.text(Package));
        if (!target.error.isEmpty()) {
            call->finish(ToolResult::error(target.error));
            return;
        }
        auto findIn = [call, files, session, target](const ProjectLisp *project) {
            QStringList lines;
            QJsonArray found;
            if (project) {
                const LispPackages &packages = project->packages;
                // pkg:name is a symbol: the definitions of it wherever they are read (:use, imports).
                const QString home = target.writtenPackage.isEmpty()
                    ? QString() : packages.home(packages.canonical(target.writtenPackage), symbolPart(target.name)).package;
                for (size_t i = 0; i < project->files.size(); ++i) {
                    const QString &relative = project->sources.files.at(qsizetype(i)).relative;
                    for (const TopLevelForm &form : project->files[i].forms()) {
                        const DefinedName &definition = form.definition;
                        if (!definition.isValid() || definition.kind == QLatin1String("package") || definition.name != target.name)
                            continue;
                        const QString package = definition.package.isEmpty() ? form.package : packages.canonical(definition.package);
                        if (!target.readIn.isEmpty() && package != packages.canonical(target.readIn))
                            continue;
                        if (!home.isEmpty() && !packages.home(package, symbolPart(definition.name)).mayBe(home))
                            continue;
                        lines << QStringLiteral("%1:%2-%3  %4  [%5]").arg(relative, QString::number(form.firstLine), QString::number(form.lastLine), form.label, package);
                        found.append(QJsonObject{{QStringLiteral("file"), relative}, {QStringLiteral("line"), form.firstLine},
                                                 {QStringLiteral("last_line"), form.lastLine}, {QStringLiteral("kind"), definition.kind},
                                                 {QStringLiteral("label"), form.label}, {QStringLiteral("package"), package}});
                    }
                }
            }
            QString text = project ? (lines.isEmpty() ? QStringLiteral("No form in the project's files defines %1.").arg(target.symbol)
                                                      : QStringLiteral("In the project's files:\n%1").arg(lines.join(QLatin1Char('\n'))))
                                   : QStringLiteral("No project root is set, so no file was searched (set-project-root sets one).");
            if (project) {
                if (const QString note = ProjectTree::skippedNote(project->sources); !note.isEmpty())
                    text += QLatin1Char('\n') + note;
            }
            askSession(call, files, session, target, text, found);
        };
        if (files->root().isSet())
            ProjectToolKit::readProjectLisp(files, session, [findIn](const ProjectLisp &project) { findIn(&project); });
        else
            findIn(nullptr);
    });
}

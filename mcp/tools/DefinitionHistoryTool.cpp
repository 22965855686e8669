#include "HandoffTools.h"

#include "history/DefinitionLedger.h"
#include "native/NativeCompilation.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"

#include <QJsonArray>

namespace {
constexpr int ShownVersions = 20;

QStringList viaNames()
{
    QStringList names;
    for (const DefinitionVersion::Via via : DefinitionVersion::Vias)
        names << DefinitionVersion::viaName(via);
    return names;
}
void answerHistory(Session *session, DefinitionLedger *ledger, const NativeCompilation *native, const ToolCallPtr &call,
                   const ToolArguments &arguments);

// Issue 30: how the session runs a function, macro, method or generic function now (native
// code, interpreted and why, being compiled): NativeCompilation's answer; nullopt for other
// kinds, or when it is not known.
std::optional<NativeCompilation::Definition> executionOf(const NativeCompilation *native, const DefinitionLedger::History &history)
{
    if (!native || !history.live)
        return std::nullopt;
    return native->runs(history.key, history.latest().kind, nullptr, history.latest().via == DefinitionVersion::Via::File);
}

QJsonObject executionJson(const NativeCompilation::Definition &d)
{
    QJsonObject json{{QStringLiteral("state"), d.execution()},
                     {QStringLiteral("since"), d.since.isValid() ? QJsonValue(d.since.toString(Qt::ISODateWithMs)) : QJsonValue(QJsonValue::Null)},
                     {QStringLiteral("reason"), d.reason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(d.reason)}};
    if (d.afterMs >= 0)
        json.insert(QStringLiteral("after_ms"), double(d.afterMs));
    if (!d.notes.isEmpty())
        json.insert(QStringLiteral("notes"), QJsonArray::fromStringList(d.notes));
    return json;
}
} // namespace

namespace Handoffs {

const Argument<QString> &definitionName()
{
    static const auto name = Arg::string(QStringLiteral("name"),
                                         QStringLiteral("e.g. \"greet\", \"shapes:area\", a method \"area (square)\""))
                                 .required(QStringLiteral("the name of the definition"))
                                 .notBlank(QStringLiteral("is empty; name a definition, e.g. \"greet\" or \"area (square)\""));
    return name;
}

const Argument<QString> &definitionKind()
{
    static const auto kind = Arg::choice(QStringLiteral("kind"), QStringLiteral("Only this kind"),
                                         {QStringLiteral("function"), QStringLiteral("macro"), QStringLiteral("generic-function"),
                                          QStringLiteral("method"), QStringLiteral("variable"), QStringLiteral("constant"),
                                          QStringLiteral("class"), QStringLiteral("structure"), QStringLiteral("condition"),
                                          QStringLiteral("type")});
    return kind;
}

QString versionHeading(const DefinitionVersion &version, const QString &projectRoot)
{
    QString heading = QStringLiteral("Version %1 (%2), ").arg(version.number).arg(version.operatorName);
    heading += version.via == DefinitionVersion::Via::File ? version.byText(projectRoot) : QStringLiteral("by ") + version.byText(projectRoot);
    if (version.at.isValid())
        heading += QStringLiteral(" at ") + version.at.toString(QStringLiteral("HH:mm:ss"));
    else if (version.via == DefinitionVersion::Via::File)
        heading += QStringLiteral(", before the ledger saw it");
    return heading;
}

QJsonObject versionJson(const DefinitionVersion &version, const QString &projectRoot)
{
    QJsonObject json{{QStringLiteral("version"), version.number},
                     {QStringLiteral("kind"), version.kind},
                     {QStringLiteral("operator"), version.operatorName},
                     {QStringLiteral("by"), version.by.name.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(version.by.name)},
                     {QStringLiteral("by_kind"), version.by.name.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(version.by.kindName())},
                     {QStringLiteral("via"), DefinitionVersion::viaName(version.via)},
                     {QStringLiteral("time"), version.at.isValid() ? QJsonValue(version.at.toString(Qt::ISODateWithMs)) : QJsonValue(QJsonValue::Null)},
                     {QStringLiteral("source"), version.source},
                     {QStringLiteral("package"), version.readPackage}};
    if (!version.file.isEmpty()) {
        json.insert(QStringLiteral("file"), DefinitionVersion::place(version.file, 0, projectRoot));
        json.insert(QStringLiteral("line"), version.line);
    }
    if (version.restores > 0)
        json.insert(QStringLiteral("restores"), version.restores);
    if (!version.detail.isEmpty())
        json.insert(QStringLiteral("description"), version.detail);
    return json;
}

} // namespace Handoffs

Tool definitionHistoryTool(Session *session, DefinitionLedger *ledger, const NativeCompilation *native)
{
    using namespace Schema;
    const QJsonObject version = object({{QStringLiteral("version"), integer(QStringLiteral("1-based number in this definition's history"), 1, 2147483647)},
                                        {QStringLiteral("kind"), string(QStringLiteral("function, macro, method, variable, class, ..."))},
                                        {QStringLiteral("operator"), string(QStringLiteral("The defining operator, e.g. defmethod"))},
                                        {QStringLiteral("by"), nullableString(QStringLiteral("Who: You (the person), an agent's name, replay; null when only its file is known"))},
                                        {QStringLiteral("by_kind"), nullableString(QStringLiteral("person, agent or system"))},
                                        {QStringLiteral("via"), stringEnum(QStringLiteral("How it was defined"), viaNames())},
                                        {QStringLiteral("time"), nullableString(QStringLiteral("When (ISO 8601); null when loaded before the ledger saw it"))},
                                        {QStringLiteral("source"), string(QStringLiteral("The defining form's text"))},
                                        {QStringLiteral("package"), string(QStringLiteral("The package it was read in"))},
                                        {QStringLiteral("file"), string(QStringLiteral("via file: the file, relative to the project root when inside it"))},
                                        {QStringLiteral("line"), integer(QStringLiteral("via file: the form's first line"), 1, 2147483647)},
                                        {QStringLiteral("restores"), integer(QStringLiteral("via revert: the version it put back"), 1, 2147483647)},
                                        {QStringLiteral("description"), string(QStringLiteral("Why, as the job that made it said"))}},
                                       {QStringLiteral("version"), QStringLiteral("via"), QStringLiteral("source")}, false);
    const QJsonObject definition = object({{QStringLiteral("name"), string(QStringLiteral("PACKAGE::NAME, methods with qualifiers and specializers"))},
                                           {QStringLiteral("package"), string(QStringLiteral("The symbol's home package"))},
                                           {QStringLiteral("symbol"), string(QStringLiteral("The symbol's name"))},
                                           {QStringLiteral("kind"), string(QStringLiteral("The newest version's kind"))},
                                           {QStringLiteral("live"), boolean(QStringLiteral("The newest version is in the image (false after an engine restart)"))},
                                           {QStringLiteral("versions_total"), integer(QStringLiteral("How many versions the ledger keeps"), 1, 2147483647)},
                                           {QStringLiteral("versions"), array(QStringLiteral("Oldest first; the newest 20"), version)},
                                           {QStringLiteral("execution"),
                                            object({{QStringLiteral("state"), stringEnum(QStringLiteral("How the session runs it now"),
                                                                                         {QStringLiteral("native"), QStringLiteral("interpreted"),
                                                                                          QStringLiteral("compiling"), QStringLiteral("superseded")})},
                                                    {QStringLiteral("since"), nullableString(QStringLiteral("When it came to this state (ISO 8601)"))},
                                                    {QStringLiteral("reason"), nullableString(QStringLiteral("interpreted: why its native version is not in place"))},
                                                    {QStringLiteral("after_ms"), number(QStringLiteral("native: from its definition to its native version"), 0, 1e12)},
                                                    {QStringLiteral("notes"), stringArray(QStringLiteral("What the native compiler remarked although it compiled"))}},
                                                   {QStringLiteral("state")}, false)}},
                                          {QStringLiteral("name"), QStringLiteral("versions")}, false);
    ToolSpec spec{
        .name = QStringLiteral("definition-history"),
        .title = QStringLiteral("Definition history"),
        .description = QStringLiteral(
            "Every version of a definition: who made it (the person, an agent, a file load, edit-form, a staged form, a "
            "revert), when, its text, later ones as diffs; for a function, how it runs now (native since when, "
            "interpreted and why, compiling)."),
        .arguments = {Handoffs::definitionName(), Handoffs::definitionKind()},
        .outputProperties = {{QStringLiteral("definitions"), array(QStringLiteral("One per definition the name matches"), definition)}},
        .outputRequired = {QStringLiteral("definitions")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [session, ledger, native](const ToolCallPtr &call, const ToolArguments &arguments) {
        ledger->whenSettled([session, ledger, native, call, arguments] { answerHistory(session, ledger, native, call, arguments); });
    });
}

namespace {
void answerHistory(Session *session, DefinitionLedger *ledger, const NativeCompilation *native, const ToolCallPtr &call,
                   const ToolArguments &arguments)
{
    QString error;
    const auto found = ledger->find(arguments.text(Handoffs::definitionName()), arguments.value(Handoffs::definitionKind(), QString()), &error);
    if (!error.isEmpty()) {
        call->finish(ToolResult::error(error));
        return;
    }
    if (found.isEmpty()) {
        const QString kind = arguments.value(Handoffs::definitionKind(), QString());
        call->finish(ToolResult{QStringLiteral("The ledger has no %1named %2. It records what the session defines while Lisp Duet "
                                               "runs: evaluations, edit-form, and the files of the project as they load.")
                                    .arg(kind.isEmpty() ? QStringLiteral("definition ") : kind + u' ', arguments.text(Handoffs::definitionName())),
                                {{QStringLiteral("definitions"), QJsonArray()}}});
        return;
    }
    const QString root = session->projectRoot();
    QStringList sections;
    QJsonArray definitions;
    for (const DefinitionLedger::History *history : found) {
        const QList<DefinitionVersion> &all = history->versions;
        const QList<DefinitionVersion> shown = all.mid(qMax<qsizetype>(0, all.size() - ShownVersions));
        QString text = QStringLiteral("%1 (%2): %3 %4; %5.")
                           .arg(history->key.text(), history->latest().kind)
                           .arg(all.size())
                           .arg(all.size() == 1 ? QStringLiteral("version") : QStringLiteral("versions"),
                                history->live ? QStringLiteral("the session has version %1").arg(history->latest().number)
                                              : QStringLiteral("the engine restarted since, so the session has none of them"));
        const std::optional<NativeCompilation::Definition> execution = executionOf(native, *history);
        if (execution)
            text += u' ' + execution->sentence();
        if (shown.size() < all.size())
            text += QStringLiteral(" The %1 oldest are not shown.").arg(all.size() - shown.size());
        QJsonArray versions;
        for (qsizetype i = 0; i < shown.size(); ++i) {
            const DefinitionVersion &v = shown[i];
            text += QStringLiteral("\n\n") + Handoffs::versionHeading(v, root);
            const QString diff = i > 0 ? DefinitionLedger::diff(shown[i - 1], v) : QString();
            text += i > 0 && !diff.isEmpty() ? QStringLiteral(", replaced version %1:\n%2").arg(shown[i - 1].number).arg(diff.trimmed())
                                             : QStringLiteral(":\n") + v.source;
            versions.append(Handoffs::versionJson(v, root));
        }
        sections << text;
        QJsonObject definition{{QStringLiteral("name"), history->key.text()},
                               {QStringLiteral("package"), history->key.package},
                               {QStringLiteral("symbol"), history->key.name},
                               {QStringLiteral("kind"), history->latest().kind},
                               {QStringLiteral("live"), history->live},
                               {QStringLiteral("versions_total"), int(all.size())},
                               {QStringLiteral("versions"), versions}};
        if (execution)
            definition.insert(QStringLiteral("execution"), executionJson(*execution));
        definitions.append(definition);
    }
    call->finish(ToolResult{sections.join(QStringLiteral("\n\n\n")), {{QStringLiteral("definitions"), definitions}}});
}
} // namespace

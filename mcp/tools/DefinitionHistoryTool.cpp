#include "HandoffTools.h"

#include "history/DefinitionLedger.h"
#include "JsonSchema.h"
#include "session/Session.h"

namespace {
constexpr int ShownVersions = 20;
void answerHistory(Session *session, DefinitionLedger *ledger, const ToolCallPtr &call, const ToolArguments &arguments);
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
                     {QStringLiteral("via"), version.via},
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

Tool definitionHistoryTool(Session *session, DefinitionLedger *ledger)
{
    using namespace Schema;
    const QJsonObject version = object({{QStringLiteral("version"), integer(QStringLiteral("1-based number in this definition's history"), 1, 2147483647)},
                                        {QStringLiteral("kind"), string(QStringLiteral("function, macro, method, variable, class, ..."))},
                                        {QStringLiteral("operator"), string(QStringLiteral("The defining operator, e.g. defmethod"))},
                                        {QStringLiteral("by"), nullableString(QStringLiteral("Who: You (the person), an agent's name, replay; null when only its file is known"))},
                                        {QStringLiteral("by_kind"), nullableString(QStringLiteral("person, agent or system"))},
                                        {QStringLiteral("via"), stringEnum(QStringLiteral("How it was defined"),
                                                                           {DefinitionVersion::Via::Evaluation, DefinitionVersion::Via::File,
                                                                            DefinitionVersion::Via::EditForm, DefinitionVersion::Via::StageForm,
                                                                            DefinitionVersion::Via::Revert, DefinitionVersion::Via::Replay})},
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
                                           {QStringLiteral("versions"), array(QStringLiteral("Oldest first; the newest 20"), version)}},
                                          {QStringLiteral("name"), QStringLiteral("versions")}, false);
    ToolSpec spec{
        .name = QStringLiteral("definition-history"),
        .title = QStringLiteral("Definition history"),
        .description = QStringLiteral(
            "Every version of a definition: who made it (the person, an agent, a file load, edit-form, a staged form, a "
            "revert), when, its text, later ones as diffs."),
        .arguments = {Handoffs::definitionName(), Handoffs::definitionKind()},
        .outputProperties = {{QStringLiteral("definitions"), array(QStringLiteral("One per definition the name matches"), definition)}},
        .outputRequired = {QStringLiteral("definitions")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [session, ledger](const ToolCallPtr &call, const ToolArguments &arguments) {
        ledger->whenSettled([session, ledger, call, arguments] { answerHistory(session, ledger, call, arguments); });
    });
}

namespace {
void answerHistory(Session *session, DefinitionLedger *ledger, const ToolCallPtr &call, const ToolArguments &arguments)
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
        definitions.append(QJsonObject{{QStringLiteral("name"), history->key.text()},
                                       {QStringLiteral("package"), history->key.package},
                                       {QStringLiteral("symbol"), history->key.name},
                                       {QStringLiteral("kind"), history->latest().kind},
                                       {QStringLiteral("live"), history->live},
                                       {QStringLiteral("versions_total"), int(all.size())},
                                       {QStringLiteral("versions"), versions}});
    }
    call->finish(ToolResult{sections.join(QStringLiteral("\n\n\n")), {{QStringLiteral("definitions"), definitions}}});
}
} // namespace

#include "HandoffTools.h"

#include "EvalFormatter.h"
#include "history/DefinitionLedger.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"
#include "ToolKit.h"

namespace {
void revert(Session *session, JobHandles *jobs, DefinitionLedger *ledger, const ToolCallPtr &call, const ToolArguments &arguments);

const auto Version = Arg::integer(QStringLiteral("version"),
                                  QStringLiteral("Which (default: the one before the newest)"),
                                  1, 1000000);

QString candidates(const QList<const DefinitionLedger::History *> &found)
{
    QStringList names;
    for (const DefinitionLedger::History *history : found)
        names << QStringLiteral("%1 (%2)").arg(history->key.text(), history->latest().kind);
    return names.join(QStringLiteral(", "));
}

QJsonObject outputProperties()
{
    QJsonObject properties = EvalFormatter::outputProperties();
    properties.insert(QStringLiteral("name"), Schema::string(QStringLiteral("The definition reverted, PACKAGE::NAME")));
    properties.insert(QStringLiteral("reverted_to"), Schema::integer(QStringLiteral("The version put back"), 1, 2147483647));
    properties.insert(QStringLiteral("from_file"), Schema::boolean(QStringLiteral("The version came from a file, and the form as the file has it now was evaluated")));
    return properties;
}
} // namespace

Tool revertDefinitionTool(Session *session, JobHandles *jobs, DefinitionLedger *ledger)
{
    ToolSpec spec{
        .name = QStringLiteral("revert-definition"),
        .title = QStringLiteral("Revert a definition"),
        .description = QStringLiteral(
            "Evaluate an earlier version of a definition again, as its newest (a version from a file: the form as the file "
            "has it now). The name must pick one definition."),
        .arguments = {Handoffs::definitionName(), Handoffs::definitionKind(), Version, ToolKit::descriptionArgument()},
        .outputProperties = outputProperties(),
        .outputRequired = EvalFormatter::outputRequired(),
        .hints = Hints::Destructive,
    };
    return Tool(spec, [session, jobs, ledger](const ToolCallPtr &call, const ToolArguments &arguments) {
        ledger->whenSettled([session, jobs, ledger, call, arguments] { revert(session, jobs, ledger, call, arguments); });
    });
}

namespace {
void revert(Session *session, JobHandles *jobs, DefinitionLedger *ledger, const ToolCallPtr &call, const ToolArguments &arguments)
{
    const QString name = arguments.text(Handoffs::definitionName());
    QString error;
    const auto found = ledger->find(name, arguments.value(Handoffs::definitionKind(), QString()), &error);
    if (!error.isEmpty() || found.isEmpty()) {
        call->finish(ToolResult::error(!error.isEmpty() ? error
                                                        : QStringLiteral("The ledger has no definition named %1, so there is nothing to revert; "
                                                                         "definition-history lists what it has.").arg(name)));
        return;
    }
    if (found.size() > 1) {
        call->finish(ToolResult::error(QStringLiteral("%1 names %2 definitions: %3. Say which with kind, or name a method with its "
                                                      "specializers, e.g. \"%4\".")
                                           .arg(name).arg(found.size()).arg(candidates(found))
                                           .arg(QStringLiteral("area (square)"))));
        return;
    }
    const DefinitionLedger::History *history = found.first();
    const int number = arguments.value(Version, history->latest().number - 1);
    if (number < 1) {
        call->finish(ToolResult::error(QStringLiteral("%1 has only one version in the ledger, so there is no earlier one to put back.")
                                           .arg(history->key.text())));
        return;
    }
    const DefinitionLedger::RevertPlan plan = ledger->planRevert(history->key, number, call->origin());
    if (!plan.ok()) {
        call->finish(ToolResult::error(plan.error));
        return;
    }
    JobRequest request = plan.request;
    if (const QString why = arguments.text(ToolKit::descriptionArgument()); !why.isEmpty())
        request.description += QStringLiteral(": ") + why;
    const DefinitionKey key = history->key;
    const bool fromFile = history->version(number)->via == DefinitionVersion::Via::File;
    const QString summary = plan.summary;
    ToolKit::submit(session, jobs, call, request, [key, number, fromFile, summary](const Job &job) {
        ToolResult result = EvalFormatter::result(job.result);
        const bool failed = EvalFormatter::isErrorResult(job.result);
        result.text = QStringLiteral("%1 %2 to version %3. %4\n\n%5")
                          .arg(failed ? QStringLiteral("Reverting") : QStringLiteral("Reverted"), key.text())
                          .arg(number)
                          .arg(failed ? QStringLiteral("The evaluation failed: ") + summary : summary, result.text);
        result.structured.insert(QStringLiteral("name"), key.text());
        result.structured.insert(QStringLiteral("reverted_to"), number);
        result.structured.insert(QStringLiteral("from_file"), fromFile);
        return result;
    });
}
} // namespace

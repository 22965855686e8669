#include "AproposTool.h"

#include "ToolArguments.h"
#include "ToolKit.h"

#include <QJsonArray>

QJsonObject AproposTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("text"), string(QStringLiteral("Text the symbol names must contain (case-insensitive), e.g. \"hash-table\""))},
         {QStringLiteral("package"), string(QStringLiteral("Only symbols accessible in this package (default: every package)"))},
         {QStringLiteral("limit"), integer(QStringLiteral("Most matches to return (default 100), shortest names first"), 1, 2000)}},
        {QStringLiteral("text")});
    const QJsonObject output = ToolKit::outputSchema(
        {{QStringLiteral("matches"), ToolKit::objectArray(QStringLiteral("Matching symbols, shortest names first"),
                                                          {{QStringLiteral("name"), string(QStringLiteral("The symbol, printed relative to the session package"))},
                                                           {QStringLiteral("package"), ToolKit::nullableString(QStringLiteral("Home package"))},
                                                           {QStringLiteral("kinds"), stringArray(QStringLiteral("What it names; empty for none"))}},
                                                          {QStringLiteral("name"), QStringLiteral("kinds")})},
         {QStringLiteral("total"), integer(QStringLiteral("Matches in all, before the limit"), 0, 2147483647)}},
        {QStringLiteral("matches"), QStringLiteral("total")});
    return ToolKit::descriptor(
        name(), QStringLiteral("Apropos"),
        QStringLiteral("Find symbols whose names contain a string, in every package or in one, with what each names (function, "
                       "macro, variable, class...). Runs no user code and answers even while an evaluation runs."),
        input, output, {});
}

void AproposTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("text"), QStringLiteral("package"), QStringLiteral("limit")});
    const QString text = arguments.requiredString(QStringLiteral("text"), QStringLiteral("the text symbol names must contain"));
    const QString package = arguments.optionalString(QStringLiteral("package")).value_or(QString());
    const int limit = arguments.optionalInteger(QStringLiteral("limit"), 1, 2000).value_or(100);
    if (arguments.ok() && text.trimmed().isEmpty())
        call->finish(ToolResult::error(QStringLiteral("Invalid arguments: 'text' is empty; give part of a symbol name.")));
    if (!arguments.ok())
        call->finish(ToolResult::error(arguments.error()));
    if (call->isFinished())
        return;
    QJsonObject request{{QStringLiteral("text"), text.trimmed()}, {QStringLiteral("options"), QJsonObject{{QStringLiteral("limit"), limit}}}};
    if (!package.isEmpty())
        request.insert(QStringLiteral("package"), package);
    ask(call, QStringLiteral("apropos"), request, [text](const QJsonObject &reply) {
        if (!reply.value(QStringLiteral("found")).toBool())
            return ToolResult::error(QStringLiteral("[ERROR] PACKAGE-ERROR\n%1").arg(ToolKit::string(reply, QStringLiteral("message"))));
        const QJsonArray matches = reply.value(QStringLiteral("matches")).toArray();
        const int total = reply.value(QStringLiteral("total")).toInt();
        QStringList lines;
        for (const QJsonValue &value : matches) {
            const QJsonObject m = value.toObject();
            QStringList kinds;
            for (const QJsonValue &k : m.value(QStringLiteral("kinds")).toArray())
                kinds << k.toString();
            QString name = ToolKit::string(m, QStringLiteral("name"));
            if (!name.contains(QLatin1Char(':')) && m.value(QStringLiteral("package")).isString())
                name += QStringLiteral(" [%1]").arg(ToolKit::string(m, QStringLiteral("package")));
            lines << (kinds.isEmpty() ? name : QStringLiteral("%1 (%2)").arg(name, kinds.join(QStringLiteral(", "))));
        }
        QString body = lines.isEmpty() ? QStringLiteral("No symbols contain \"%1\".").arg(text) : lines.join(QLatin1Char('\n'));
        if (total > matches.size())
            body += QStringLiteral("\n(%1 of %2 matches shown; raise limit or narrow the text)").arg(matches.size()).arg(total);
        return ToolResult{body, {{QStringLiteral("matches"), matches}, {QStringLiteral("total"), total}}, false};
    });
}

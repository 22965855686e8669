#include "CompleteSymbolTool.h"

#include "ToolArguments.h"
#include "ToolKit.h"

#include <QJsonArray>

QJsonObject CompleteSymbolTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("prefix"), string(QStringLiteral("Start of a symbol name: \"mak\", \"cl:mak\", \"my-pkg::int\" or \":ke\""))},
         {QStringLiteral("limit"), integer(QStringLiteral("Most completions to return (default 50), shortest first"), 1, 1000)}},
        {QStringLiteral("prefix")});
    const QJsonObject output = ToolKit::outputSchema(
        {{QStringLiteral("completions"), stringArray(QStringLiteral("Matching names, lower case, with the prefix's package qualifier"))},
         {QStringLiteral("total"), integer(QStringLiteral("Matches in all, before the limit"), 0, 2147483647)}},
        {QStringLiteral("completions"), QStringLiteral("total")});
    return ToolKit::descriptor(
        name(), QStringLiteral("Complete symbol"),
        QStringLiteral("Complete a symbol name from its prefix: symbols accessible in the session's current package, or external "
                       "symbols of the package named before ':' (all of its own symbols with '::'). The same completion the "
                       "console's Tab uses. Answers even while an evaluation runs."),
        input, output, {});
}

void CompleteSymbolTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("prefix"), QStringLiteral("limit")});
    const QString prefix = arguments.requiredString(QStringLiteral("prefix"), QStringLiteral("the start of a symbol name"));
    const int limit = arguments.optionalInteger(QStringLiteral("limit"), 1, 1000).value_or(50);
    if (!arguments.ok()) {
        call->finish(ToolResult::error(arguments.error()));
        return;
    }
    const QJsonObject request{{QStringLiteral("prefix"), prefix.trimmed()},
                              {QStringLiteral("options"), QJsonObject{{QStringLiteral("limit"), limit}}}};
    ask(call, QStringLiteral("complete"), request, [prefix](const QJsonObject &reply) {
        const QJsonArray completions = reply.value(QStringLiteral("completions")).toArray();
        const int total = reply.value(QStringLiteral("total")).toInt();
        QStringList names;
        for (const QJsonValue &c : completions)
            names << c.toString();
        QString text = names.isEmpty() ? QStringLiteral("No symbols start with \"%1\".").arg(prefix) : names.join(QLatin1Char('\n'));
        if (total > names.size())
            text += QStringLiteral("\n(%1 of %2 shown)").arg(names.size()).arg(total);
        return ToolResult{text, {{QStringLiteral("completions"), completions}, {QStringLiteral("total"), total}}, false};
    });
}

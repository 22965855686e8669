#include "Tools.h"

#include "client/EngineProtocol.h"
#include "schema/JsonSchema.h"
#include "ToolKit.h"

namespace {
const auto Prefix = Arg::string(QStringLiteral("prefix"), QStringLiteral("e.g. \"mak\", \"cl:mak\", \"pkg::int\""))
                        .required(QStringLiteral("the start of a symbol name"));
const auto Limit = Arg::integer(QStringLiteral("limit"), QStringLiteral("Most completions (default 50)"), 1, 1000);

ToolResult completed(const EngineProtocol::CompletionReply &reply, const QString &prefix)
{
    const QJsonArray completions = reply.completions();
    QStringList names;
    for (const QJsonValue &c : completions)
        names << c.toString();
    QString text = names.isEmpty() ? QStringLiteral("No symbols start with \"%1\".").arg(prefix) : names.join(QLatin1Char('\n'));
    if (reply.total() > names.size())
        text += QStringLiteral("\n(%1 of %2 shown)").arg(names.size()).arg(reply.total());
    return ToolResult{text, {{QStringLiteral("completions"), completions}, {QStringLiteral("total"), reply.total()}}, false};
}
} // namespace

Tool completeSymbolTool(Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("complete-symbol"),
        .title = QStringLiteral("Complete symbol"),
        .description = QStringLiteral(
            "Complete a symbol name from its prefix, as the console's Tab does: symbols accessible in the current package, or "
            "a package's with \"pkg:\"."),
        .arguments = {Prefix, Limit},
        .outputProperties = {{QStringLiteral("completions"), Schema::stringArray(QStringLiteral("Matching names, lower case, with the prefix's package qualifier"))},
                             {QStringLiteral("total"), Schema::integer(QStringLiteral("Matches in all, before the limit"), 0, 2147483647)}},
        .outputRequired = {QStringLiteral("completions"), QStringLiteral("total")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [session](const ToolCallPtr &call, const ToolArguments &arguments) {
        const QString prefix = arguments.text(Prefix);
        ToolKit::ask(session, call, EngineProtocol::completion(prefix.trimmed(), arguments.value(Limit, 50)),
                     [prefix](const QJsonObject &reply) { return completed(EngineProtocol::CompletionReply(reply), prefix); });
    });
}

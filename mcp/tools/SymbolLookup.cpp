#include "SymbolLookup.h"

#include "ToolKit.h"

namespace SymbolLookup {

const Argument<QString> &packageArgument()
{
    static const auto argument = Arg::string(
        QStringLiteral("package"), QStringLiteral("Package (default: the current one)"));
    return argument;
}

Tool tool(ToolSpec spec, Session *session, const Argument<QString> &symbol,
          std::function<EngineProtocol::Query(const QString &symbol, const QString &package)> question,
          std::function<ToolResult(const QJsonObject &reply, const QString &symbol)> answer)
{
    spec.arguments = {symbol, packageArgument()};
    spec.outputRequired = {QStringLiteral("found")};
    spec.hints = Hints::ReadOnly;
    return Tool(spec, [session, &symbol, question, answer](const ToolCallPtr &call, const ToolArguments &arguments) {
        const QString name = arguments.text(symbol).trimmed();
        ToolKit::ask(session, call, question(name, arguments.text(packageArgument())),
                     [answer, name](const QJsonObject &reply) { return answer(reply, name); });
    });
}

QStringList kindLines(const QStringList &kinds, const QJsonValue &lambdaList)
{
    QStringList lines{QStringLiteral("Kinds: %1").arg(kinds.isEmpty() ? QStringLiteral("none (the symbol names nothing)") : kinds.join(QStringLiteral(", ")))};
    if (const QString list = lambdaList.toString(); !list.isEmpty())
        lines << QStringLiteral("Lambda list: %1").arg(list);
    return lines;
}

} // namespace SymbolLookup

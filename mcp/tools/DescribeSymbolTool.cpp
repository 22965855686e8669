#include "Tools.h"

#include "client/EngineProtocol.h"
#include "schema/JsonSchema.h"
#include "SymbolLookup.h"
#include "ToolKit.h"

namespace {
using EngineProtocol::DescribeReply;

const auto Symbol = Arg::string(QStringLiteral("symbol"), QStringLiteral("e.g. \"mapcar\" or \"alexandria:flatten\""))
                        .required(QStringLiteral("the symbol to describe"))
                        .notBlank(QStringLiteral("is empty; give a symbol name such as \"mapcar\""));

QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject location{{QStringLiteral("kind"), string(QStringLiteral("The kind of definition"))},
                               {QStringLiteral("where"), stringEnum(QStringLiteral("session: evaluated in this session (form given); file: loaded from a file; unknown"),
                                                                    {QStringLiteral("session"), QStringLiteral("file"), QStringLiteral("unknown")})},
                               {QStringLiteral("form"), string(QStringLiteral("The defining form as the session evaluated it"))},
                               {QStringLiteral("file"), string(QStringLiteral("Source or compiled file"))},
                               {QStringLiteral("position"), nullableInteger(QStringLiteral("Byte position in the file where reading of the definition began, if known"))},
                               {QStringLiteral("line"), nullableInteger(QStringLiteral("1-based line of the definition in the file, if known"))}};
    return {{QStringLiteral("found"), boolean(QStringLiteral("Whether the symbol exists"))},
            {QStringLiteral("name"), string(QStringLiteral("The symbol, printed relative to the session package"))},
            {QStringLiteral("package"), nullableString(QStringLiteral("Home package"))},
            {QStringLiteral("kinds"), stringArray(QStringLiteral("What it names: function, macro, generic-function, special-operator, variable, constant, class, structure"))},
            {QStringLiteral("lambda_list"), nullableString(QStringLiteral("Lambda list of its function or macro"))},
            {QStringLiteral("documentation"), object({{QStringLiteral("function"), nullableString(QStringLiteral("Function documentation"))},
                                                      {QStringLiteral("variable"), nullableString(QStringLiteral("Variable documentation"))},
                                                      {QStringLiteral("type"), nullableString(QStringLiteral("Type or class documentation"))}}, {}, false)},
            {QStringLiteral("value"), nullableString(QStringLiteral("Its global value, printed briefly, when bound"))},
            {QStringLiteral("value_result_id"), nullableString(QStringLiteral("Handle of a non-primitive value for inspect-object"))},
            {QStringLiteral("locations"), objectArray(QStringLiteral("Where each definition came from"), location, {QStringLiteral("kind"), QStringLiteral("where")})}};
}

ToolResult described(const Session *session, const DescribeReply &reply, const QString &symbol)
{
    if (!reply.found()) {
        const QString message = reply.message();
        return ToolResult{QStringLiteral("%1 is not a known symbol: %2").arg(symbol, message),
                          {{QStringLiteral("found"), false}, {QStringLiteral("name"), symbol}},
                          message.contains(QStringLiteral("does not exist"))};
    }
    const QJsonArray kinds = reply.kinds();
    QStringList kindNames;
    for (const QJsonValue &k : kinds)
        kindNames << k.toString();
    QStringList lines{QStringLiteral("%1 [%2]").arg(reply.name(), reply.package().toString())};
    lines += SymbolLookup::kindLines(kindNames, reply.lambdaList());
    if (reply.value().isString())
        lines << QStringLiteral("Value: %1").arg(reply.value().toString());
    else if (!kindNames.contains(QStringLiteral("constant")))
        lines << QStringLiteral("Value: unbound");
    const QJsonObject documentation{{QStringLiteral("function"), reply.functionDocumentation()},
                                    {QStringLiteral("variable"), reply.variableDocumentation()},
                                    {QStringLiteral("type"), reply.typeDocumentation()}};
    for (auto it = documentation.begin(); it != documentation.end(); ++it) {
        if (it.value().isString())
            lines << QStringLiteral("Documentation (%1): %2").arg(it.key(), it.value().toString());
    }
    const QJsonArray locations = reply.locations();
    for (const QJsonValue &value : locations) {
        const DescribeReply::Location location(value);
        if (location.where() == QStringLiteral("session"))
            lines << QStringLiteral("Defined (%1) in this session by:\n%2").arg(location.kind(), location.form());
        else if (location.where() == QStringLiteral("file"))
            lines << QStringLiteral("Defined (%1) in %2")
                         .arg(location.kind(), ToolKit::sourcePlace(session, location.file(), location.json.value(QStringLiteral("line")).toInt()));
        else
            lines << QStringLiteral("Defined (%1): unknown").arg(location.kind());
    }
    const QJsonObject structured{{QStringLiteral("found"), true},
                                 {QStringLiteral("name"), reply.name()},
                                 {QStringLiteral("package"), reply.package()},
                                 {QStringLiteral("kinds"), kinds},
                                 {QStringLiteral("lambda_list"), reply.lambdaList()},
                                 {QStringLiteral("documentation"), documentation},
                                 {QStringLiteral("value"), reply.value()},
                                 {QStringLiteral("value_result_id"), reply.valueResultId()},
                                 {QStringLiteral("locations"), locations}};
    return ToolResult{lines.join(QLatin1Char('\n')), structured, false};
}
} // namespace

Tool describeSymbolTool(Session *session)
{
    return SymbolLookup::tool(
        {.name = QStringLiteral("describe-symbol"),
         .title = QStringLiteral("Describe symbol"),
         .description = QStringLiteral(
             "What a symbol names, its lambda list, documentation, value, and where it was defined (the session's form, or "
             "file:line). Runs no user code: answers while an evaluation runs."),
         .outputProperties = outputProperties()},
        session, Symbol, [](const QString &symbol, const QString &package) { return EngineProtocol::description(symbol, package); },
        [session](const QJsonObject &reply, const QString &symbol) { return described(session, DescribeReply(reply), symbol); });
}

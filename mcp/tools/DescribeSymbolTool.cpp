#include "DescribeSymbolTool.h"

#include "ToolArguments.h"
#include "ToolKit.h"

#include <QJsonArray>

QJsonObject DescribeSymbolTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("symbol"), string(QStringLiteral("Symbol name, e.g. \"mapcar\", \"my-function\" or \"alexandria:flatten\""))},
         {QStringLiteral("package"), string(QStringLiteral("Package to look the name up in when it is not qualified (default: the session's current package)"))}},
        {QStringLiteral("symbol")});
    const QJsonObject location{{QStringLiteral("kind"), string(QStringLiteral("The kind of definition"))},
                               {QStringLiteral("where"), ToolKit::stringEnum(QStringLiteral("session: evaluated in this session (form given); file: loaded from a file; unknown"),
                                                                             {QStringLiteral("session"), QStringLiteral("file"), QStringLiteral("unknown")})},
                               {QStringLiteral("form"), string(QStringLiteral("The defining form as the session evaluated it"))},
                               {QStringLiteral("file"), string(QStringLiteral("Source or compiled file"))},
                               {QStringLiteral("position"), ToolKit::nullableInteger(QStringLiteral("Character position in the file, if known"))}};
    const QJsonObject output = ToolKit::outputSchema(
        {{QStringLiteral("found"), boolean(QStringLiteral("Whether the symbol exists"))},
         {QStringLiteral("name"), string(QStringLiteral("The symbol, printed relative to the session package"))},
         {QStringLiteral("package"), ToolKit::nullableString(QStringLiteral("Home package"))},
         {QStringLiteral("kinds"), stringArray(QStringLiteral("What it names: function, macro, generic-function, special-operator, variable, constant, class, structure"))},
         {QStringLiteral("lambda_list"), ToolKit::nullableString(QStringLiteral("Lambda list of its function or macro"))},
         {QStringLiteral("documentation"), object({{QStringLiteral("function"), ToolKit::nullableString(QStringLiteral("Function documentation"))},
                                                   {QStringLiteral("variable"), ToolKit::nullableString(QStringLiteral("Variable documentation"))},
                                                   {QStringLiteral("type"), ToolKit::nullableString(QStringLiteral("Type or class documentation"))}}, {}, false)},
         {QStringLiteral("value"), ToolKit::nullableString(QStringLiteral("Its global value, printed briefly, when bound"))},
         {QStringLiteral("value_result_id"), ToolKit::nullableString(QStringLiteral("Handle of a non-primitive value for inspect-object"))},
         {QStringLiteral("locations"), ToolKit::objectArray(QStringLiteral("Where each definition came from"), location, {QStringLiteral("kind"), QStringLiteral("where")})}},
        {QStringLiteral("found")});
    return ToolKit::descriptor(
        name(), QStringLiteral("Describe symbol"),
        QStringLiteral("Describe a symbol: what it names (function, macro, generic function, variable, constant, class, structure), its "
                       "lambda list, documentation, value, and where it was defined: the form, for definitions evaluated in this "
                       "session; the file, for code loaded from files when ECL recorded it; otherwise \"unknown\". Runs no user code "
                       "and answers even while an evaluation runs."),
        input, output, {});
}

void DescribeSymbolTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("symbol"), QStringLiteral("package")});
    const QString symbol = arguments.requiredString(QStringLiteral("symbol"), QStringLiteral("the symbol to describe")).trimmed();
    const QString package = arguments.optionalString(QStringLiteral("package")).value_or(QString());
    if (arguments.ok() && symbol.isEmpty())
        call->finish(ToolResult::error(QStringLiteral("Invalid arguments: 'symbol' is empty; give a symbol name such as \"mapcar\".")));
    if (!arguments.ok())
        call->finish(ToolResult::error(arguments.error()));
    if (call->isFinished())
        return;
    QJsonObject request{{QStringLiteral("name"), symbol}};
    if (!package.isEmpty())
        request.insert(QStringLiteral("package"), package);
    ask(call, QStringLiteral("describe"), request, [symbol](const QJsonObject &reply) {
        if (!reply.value(QStringLiteral("found")).toBool()) {
            const QString message = ToolKit::string(reply, QStringLiteral("message"));
            return ToolResult{QStringLiteral("%1 is not a known symbol: %2").arg(symbol, message),
                              {{QStringLiteral("found"), false}, {QStringLiteral("name"), symbol}},
                              message.contains(QStringLiteral("does not exist"))};
        }
        const QJsonArray kinds = reply.value(QStringLiteral("kinds")).toArray();
        QStringList kindNames;
        for (const QJsonValue &k : kinds)
            kindNames << k.toString();
        const QString name = ToolKit::string(reply, QStringLiteral("name"));
        QStringList lines{QStringLiteral("%1 [%2]").arg(name, ToolKit::string(reply, QStringLiteral("package"))),
                          QStringLiteral("Kinds: %1").arg(kindNames.isEmpty() ? QStringLiteral("none (the symbol names nothing)") : kindNames.join(QStringLiteral(", ")))};
        const QString lambdaList = ToolKit::string(reply, QStringLiteral("lambda_list"));
        if (!lambdaList.isEmpty())
            lines << QStringLiteral("Lambda list: %1").arg(lambdaList);
        if (reply.value(QStringLiteral("value")).isString())
            lines << QStringLiteral("Value: %1").arg(ToolKit::string(reply, QStringLiteral("value")));
        else if (!kindNames.contains(QStringLiteral("constant")))
            lines << QStringLiteral("Value: unbound");
        const QJsonObject documentation{{QStringLiteral("function"), reply.value(QStringLiteral("function_documentation"))},
                                        {QStringLiteral("variable"), reply.value(QStringLiteral("variable_documentation"))},
                                        {QStringLiteral("type"), reply.value(QStringLiteral("type_documentation"))}};
        for (auto it = documentation.begin(); it != documentation.end(); ++it) {
            if (it.value().isString())
                lines << QStringLiteral("Documentation (%1): %2").arg(it.key(), it.value().toString());
        }
        const QJsonArray locations = reply.value(QStringLiteral("locations")).toArray();
        for (const QJsonValue &value : locations) {
            const QJsonObject location = value.toObject();
            const QString where = ToolKit::string(location, QStringLiteral("where"));
            const QString kind = ToolKit::string(location, QStringLiteral("kind"));
            if (where == QStringLiteral("session"))
                lines << QStringLiteral("Defined (%1) in this session by:\n%2").arg(kind, ToolKit::string(location, QStringLiteral("form")));
            else if (where == QStringLiteral("file"))
                lines << QStringLiteral("Defined (%1) in %2").arg(kind, ToolKit::string(location, QStringLiteral("file")));
            else
                lines << QStringLiteral("Defined (%1): unknown").arg(kind);
        }
        QJsonObject structured{{QStringLiteral("found"), true},
                               {QStringLiteral("name"), name},
                               {QStringLiteral("package"), reply.value(QStringLiteral("package"))},
                               {QStringLiteral("kinds"), kinds},
                               {QStringLiteral("lambda_list"), reply.value(QStringLiteral("lambda_list"))},
                               {QStringLiteral("documentation"), documentation},
                               {QStringLiteral("value"), reply.value(QStringLiteral("value"))},
                               {QStringLiteral("value_result_id"), reply.value(QStringLiteral("value_result_id"))},
                               {QStringLiteral("locations"), locations}};
        return ToolResult{lines.join(QLatin1Char('\n')), structured, false};
    });
}

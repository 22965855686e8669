#include "Tools.h"

#include "client/EngineProtocol.h"
#include "JsonSchema.h"
#include "ToolKit.h"

#include <QJsonArray>

namespace {
using EngineProtocol::DocumentationReply;

const auto Symbol = Arg::string(QStringLiteral("symbol"), QStringLiteral("Symbol (or package) name, e.g. \"loop\", \"*print-base*\", \"my-function\" or \"alexandria:flatten\""))
                        .required(QStringLiteral("the symbol whose documentation to show"))
                        .notBlank(QStringLiteral("is empty; give a symbol name such as \"mapcar\""));
const auto Package = Arg::string(QStringLiteral("package"),
                                 QStringLiteral("Package to look the name up in when it is not qualified (default: the session's current package)"));

// The documentation types in the order they are shown.
const QStringList DocumentationTypes{QStringLiteral("function"), QStringLiteral("variable"), QStringLiteral("type"),
                                     QStringLiteral("structure"), QStringLiteral("setf"), QStringLiteral("compiler-macro"),
                                     QStringLiteral("method-combination"), QStringLiteral("package")};

QJsonObject outputProperties()
{
    using namespace Schema;
    QJsonObject documentation;
    for (const QString &type : DocumentationTypes)
        documentation.insert(type, string(QStringLiteral("Docstring of type %1").arg(type)));
    return {{QStringLiteral("found"), boolean(QStringLiteral("Whether the symbol or package exists"))},
            {QStringLiteral("name"), string(QStringLiteral("The symbol, printed relative to the session package (or the package's name)"))},
            {QStringLiteral("package"), nullableString(QStringLiteral("Home package of the symbol"))},
            {QStringLiteral("standard"), boolean(QStringLiteral("Whether it is a symbol of the COMMON-LISP package"))},
            {QStringLiteral("kinds"), stringArray(QStringLiteral("What it names: function, macro, generic-function, special-operator, variable, constant, class, structure, package"))},
            {QStringLiteral("lambda_list"), nullableString(QStringLiteral("Lambda list of its function or macro"))},
            {QStringLiteral("documentation"), object(documentation, {}, false)}};
}

ToolResult documented(const DocumentationReply &reply, const QString &symbol)
{
    if (!reply.found()) {
        const QString message = reply.message();
        return ToolResult{QStringLiteral("%1: %2").arg(symbol, message), {{QStringLiteral("found"), false}, {QStringLiteral("name"), symbol}},
                          message.contains(QStringLiteral("does not exist"))};
    }
    const QStringList kinds = reply.kinds();
    const QString home = reply.package().toString();
    QStringList lines{QStringLiteral("%1%2%3").arg(reply.name(),
                                                   home.isEmpty() ? QString() : QStringLiteral(" [%1]").arg(home),
                                                   reply.isStandard() ? QStringLiteral(" (standard Common Lisp)") : QString()),
                      QStringLiteral("Kinds: %1").arg(kinds.isEmpty() ? QStringLiteral("none (the symbol names nothing)") : kinds.join(QStringLiteral(", ")))};
    const QString lambdaList = reply.lambdaList().toString();
    if (!lambdaList.isEmpty())
        lines << QStringLiteral("Lambda list: %1").arg(lambdaList);
    const QJsonObject documentation = reply.documentation();
    for (const QString &type : DocumentationTypes) {
        if (documentation.value(type).isString())
            lines << QStringLiteral("\nDocumentation (%1):\n%2").arg(type, documentation.value(type).toString());
    }
    if (documentation.isEmpty())
        lines << QStringLiteral("No documentation string.");
    const QJsonObject structured{{QStringLiteral("found"), true},
                                 {QStringLiteral("name"), reply.name()},
                                 {QStringLiteral("package"), reply.package()},
                                 {QStringLiteral("standard"), reply.isStandard()},
                                 {QStringLiteral("kinds"), QJsonArray::fromStringList(kinds)},
                                 {QStringLiteral("lambda_list"), reply.lambdaList()},
                                 {QStringLiteral("documentation"), documentation}};
    return ToolResult{lines.join(QLatin1Char('\n')), structured, false};
}
} // namespace

Tool documentationTool(Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("documentation"),
        .title = QStringLiteral("Documentation"),
        .description = QStringLiteral(
            "The documentation strings of a symbol: for the standard's symbols ECL's own (e.g. loop, mapcar, *print-base*), "
            "for the user's the docstrings of their definitions; every type that has one (function, variable, type, "
            "structure, setf, compiler-macro, method-combination, and package when the name is a package's), with what the "
            "symbol names, its lambda list and whether it is standard Common Lisp. Runs no user code and answers even "
            "while an evaluation runs."),
        .arguments = {Symbol, Package},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("found")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [session](const ToolCallPtr &call, const ToolArguments &arguments) {
        const QString symbol = arguments.text(Symbol).trimmed();
        ToolKit::ask(session, call, EngineProtocol::documentation(symbol, arguments.text(Package)),
                     [symbol](const QJsonObject &reply) { return documented(DocumentationReply(reply), symbol); });
    });
}

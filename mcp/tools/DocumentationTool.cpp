#include "Tools.h"

#include "client/EngineProtocol.h"
#include "schema/JsonSchema.h"
#include "SymbolLookup.h"
#include "ToolKit.h"

#include <QJsonArray>

namespace {
using EngineProtocol::DocumentationReply;

const auto Symbol = Arg::string(QStringLiteral("symbol"), QStringLiteral("Symbol or package name, e.g. \"loop\""))
                        .required(QStringLiteral("the symbol whose documentation to show"))
                        .notBlank(QStringLiteral("is empty; give a symbol name such as \"mapcar\""));

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
                                                   reply.isStandard() ? QStringLiteral(" (standard Common Lisp)") : QString())};
    lines += SymbolLookup::kindLines(kinds, reply.lambdaList());
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
    return SymbolLookup::tool(
        {.name = QStringLiteral("documentation"),
         .title = QStringLiteral("Documentation"),
         .description = QStringLiteral(
             "Every docstring of a symbol (ECL's own for standard symbols such as loop), what it names, its lambda list, and "
             "whether it is standard Common Lisp. Runs no user code."),
         .outputProperties = outputProperties()},
        session, Symbol, [](const QString &symbol, const QString &package) { return EngineProtocol::documentation(symbol, package); },
        [](const QJsonObject &reply, const QString &symbol) { return documented(DocumentationReply(reply), symbol); });
}

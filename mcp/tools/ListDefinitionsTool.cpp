#include "ListDefinitionsTool.h"

#include "ToolArguments.h"
#include "ToolKit.h"

#include <QJsonArray>

namespace {
// Seed 001's sections, then the two this session adds, in this order.
struct Section
{
    QString title;
    QStringList kinds;
};
const QList<Section> &sections()
{
    static const QList<Section> list{
        {QStringLiteral("Functions"), {QStringLiteral("function")}},
        {QStringLiteral("Variables"), {QStringLiteral("variable"), QStringLiteral("constant")}},
        {QStringLiteral("Macros"), {QStringLiteral("macro")}},
        {QStringLiteral("Generic Functions"), {QStringLiteral("generic-function")}},
        {QStringLiteral("Classes"), {QStringLiteral("class"), QStringLiteral("structure")}},
    };
    return list;
}

QString entryLine(const QJsonObject &entry)
{
    const QString kind = ToolKit::string(entry, QStringLiteral("kind"));
    QString line = QStringLiteral("- ") + ToolKit::string(entry, QStringLiteral("name"));
    const QString lambdaList = ToolKit::string(entry, QStringLiteral("lambda_list"));
    const QString value = ToolKit::string(entry, QStringLiteral("value"));
    if (!lambdaList.isEmpty())
        line += QLatin1Char(' ') + lambdaList;
    else if (!value.isEmpty())
        line += QStringLiteral(" = ") + value;
    if (kind == QStringLiteral("structure"))
        line += QStringLiteral(" (structure)");
    return line;
}
} // namespace

QJsonObject ListDefinitionsTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("package"), string(QStringLiteral("Only definitions whose symbols live in this package (case-insensitive), e.g. \"CL-USER\". Default: every package the session created, and CL-USER"))},
         {QStringLiteral("pattern"), string(QStringLiteral("Only names containing this text (case-insensitive); with * it is a glob matched against the whole name, e.g. \"make-*\""))}});
    const QJsonObject entry{{QStringLiteral("name"), string(QStringLiteral("The symbol, printed relative to the session package"))},
                            {QStringLiteral("package"), string(QStringLiteral("The symbol's home package"))},
                            {QStringLiteral("kind"), ToolKit::stringEnum(QStringLiteral("What the symbol names"),
                                                                         {QStringLiteral("function"), QStringLiteral("macro"), QStringLiteral("generic-function"),
                                                                          QStringLiteral("variable"), QStringLiteral("constant"), QStringLiteral("class"),
                                                                          QStringLiteral("structure")})},
                            {QStringLiteral("lambda_list"), ToolKit::nullableString(QStringLiteral("Lambda list of a function, macro or generic function"))},
                            {QStringLiteral("value"), ToolKit::nullableString(QStringLiteral("Value of a variable or constant, printed briefly"))},
                            {QStringLiteral("documentation"), ToolKit::nullableString(QStringLiteral("Documentation string, if any"))}};
    const QJsonObject output = ToolKit::outputSchema(
        {{QStringLiteral("definitions"), ToolKit::objectArray(QStringLiteral("One entry per symbol and kind, sorted by name"), entry,
                                                              {QStringLiteral("name"), QStringLiteral("package"), QStringLiteral("kind")})},
         {QStringLiteral("count"), integer(QStringLiteral("Number of entries"), 0, 2147483647)},
         {QStringLiteral("package"), ToolKit::nullableString(QStringLiteral("The package asked for, by its real name"))}},
        {QStringLiteral("definitions"), QStringLiteral("count")});
    return ToolKit::descriptor(
        name(), QStringLiteral("List definitions"),
        QStringLiteral("List the functions, variables, macros, generic functions and classes (structures too) the session itself defined: "
                       "symbols of CL-USER and of packages created in the session, not those of the implementation or of systems "
                       "loaded with load-system (name their package to see those). Text: [Functions] with lambda lists, [Variables] "
                       "with values, [Macros], [Generic Functions], [Classes]."),
        input, output, {});
}

void ListDefinitionsTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("package"), QStringLiteral("pattern")});
    const QString package = arguments.optionalString(QStringLiteral("package")).value_or(QString());
    const QString pattern = arguments.optionalString(QStringLiteral("pattern")).value_or(QString());
    if (!arguments.ok()) {
        call->finish(ToolResult::error(arguments.error()));
        return;
    }
    QJsonObject request;
    if (!package.isEmpty())
        request.insert(QStringLiteral("package"), package);
    if (!pattern.isEmpty())
        request.insert(QStringLiteral("pattern"), pattern);
    ask(call, QStringLiteral("definitions"), request, [package, pattern](const QJsonObject &reply) {
        if (!reply.value(QStringLiteral("found")).toBool()) {
            return ToolResult::error(QStringLiteral("[ERROR] PACKAGE-ERROR\n%1").arg(ToolKit::string(reply, QStringLiteral("message"))));
        }
        const QJsonArray definitions = reply.value(QStringLiteral("definitions")).toArray();
        QStringList parts;
        for (const Section &section : sections()) {
            QStringList lines;
            for (const QJsonValue &value : definitions) {
                const QJsonObject entry = value.toObject();
                if (section.kinds.contains(ToolKit::string(entry, QStringLiteral("kind"))))
                    lines << entryLine(entry);
            }
            if (!lines.isEmpty())
                parts << QStringLiteral("[%1]\n%2").arg(section.title, lines.join(QLatin1Char('\n')));
        }
        QString text = parts.join(QStringLiteral("\n\n"));
        if (text.isEmpty()) {
            text = pattern.isEmpty() && package.isEmpty()
                ? QStringLiteral("No definitions yet.")
                : QStringLiteral("No definitions match%1%2.")
                      .arg(pattern.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(pattern),
                           package.isEmpty() ? QString() : QStringLiteral(" in %1").arg(ToolKit::string(reply, QStringLiteral("package"))));
        }
        return ToolResult{text,
                          {{QStringLiteral("definitions"), definitions},
                           {QStringLiteral("count"), definitions.size()},
                           {QStringLiteral("package"), reply.value(QStringLiteral("package"))}},
                          false};
    });
}

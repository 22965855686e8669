#include "Tools.h"

#include "client/EngineProtocol.h"
#include "schema/JsonSchema.h"
#include "ToolKit.h"

namespace {
const auto Package = Arg::string(QStringLiteral("package"),
                                 QStringLiteral("Only this package, e.g. \"CL-USER\""));
const auto Pattern = Arg::string(QStringLiteral("pattern"),
                                 QStringLiteral("Only names containing this, or matching a glob (\"make-*\")"));

// Seed 001's sections, then the two Lisp Duet adds, in this order.
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

QString entryLine(const Session *session, const EngineProtocol::DefinitionsReply::Entry &entry)
{
    QString line = QStringLiteral("- ") + entry.name();
    const QString lambdaList = entry.lambdaList().toString();
    const QString value = entry.value().toString();
    if (!lambdaList.isEmpty())
        line += QLatin1Char(' ') + lambdaList;
    else if (!value.isEmpty())
        line += QStringLiteral(" = ") + value;
    if (entry.kind() == QStringLiteral("structure"))
        line += QStringLiteral(" (structure)");
    if (entry.file().isString())
        line += QStringLiteral("  [%1]").arg(ToolKit::sourcePlace(session, entry.file().toString(), entry.line()));
    // Issue 30: a definition whose native version failed says so (the others run native, or
    // are being compiled, or native compilation is off: structuredContent's "execution").
    if (entry.execution() == QStringLiteral("interpreted") && !entry.nativeReason().isEmpty())
        line += QStringLiteral("  (interpreted: %1)").arg(entry.nativeReason());
    return line;
}

QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject entry{{QStringLiteral("name"), string(QStringLiteral("The symbol, printed relative to the session package"))},
                            {QStringLiteral("package"), string(QStringLiteral("The symbol's home package"))},
                            {QStringLiteral("kind"), stringEnum(QStringLiteral("What the symbol names"),
                                                                {QStringLiteral("function"), QStringLiteral("macro"), QStringLiteral("generic-function"),
                                                                 QStringLiteral("variable"), QStringLiteral("constant"), QStringLiteral("class"),
                                                                 QStringLiteral("structure")})},
                            {QStringLiteral("lambda_list"), nullableString(QStringLiteral("Lambda list of a function, macro or generic function"))},
                            {QStringLiteral("value"), nullableString(QStringLiteral("Value of a variable or constant, printed briefly"))},
                            {QStringLiteral("documentation"), nullableString(QStringLiteral("Documentation string, if any"))},
                            {QStringLiteral("file"), nullableString(QStringLiteral("Source file of a function or macro loaded from a file (absolute); else null"))},
                            {QStringLiteral("line"), nullableInteger(QStringLiteral("1-based line of its definition in that file; else null"))},
                            {QStringLiteral("execution"), stringEnum(QStringLiteral("Functions, macros and generic functions: how they run now"),
                                                                     {QStringLiteral("native"), QStringLiteral("interpreted"), QStringLiteral("compiling")})},
                            {QStringLiteral("native_since_ms"), nullableInteger(QStringLiteral("Since when it runs native code (Unix ms), when the session compiled it; else null"))},
                            {QStringLiteral("native_reason"), nullableString(QStringLiteral("Why its native version is not in place (a compile that failed); else null"))}};
    return {{QStringLiteral("definitions"), objectArray(QStringLiteral("One entry per symbol and kind, sorted by name"), entry,
                                                        {QStringLiteral("name"), QStringLiteral("package"), QStringLiteral("kind")})},
            {QStringLiteral("count"), integer(QStringLiteral("Number of entries"), 0, 2147483647)},
            {QStringLiteral("package"), nullableString(QStringLiteral("The package asked for, by its real name"))}};
}

ToolResult listing(const Session *session, const EngineProtocol::DefinitionsReply &reply, const QString &package, const QString &pattern)
{
    if (!reply.found())
        return ToolResult::error(QStringLiteral("[ERROR] PACKAGE-ERROR\n%1").arg(reply.message()));
    const QJsonArray definitions = reply.definitions();
    QStringList parts;
    for (const Section &section : sections()) {
        QStringList lines;
        for (const QJsonValue &value : definitions) {
            const EngineProtocol::DefinitionsReply::Entry entry(value);
            if (section.kinds.contains(entry.kind()))
                lines << entryLine(session, entry);
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
                       package.isEmpty() ? QString() : QStringLiteral(" in %1").arg(reply.package().toString()));
    }
    return ToolResult{text,
                      {{QStringLiteral("definitions"), definitions},
                       {QStringLiteral("count"), definitions.size()},
                       {QStringLiteral("package"), reply.package()}},
                      false};
}
} // namespace

Tool listDefinitionsTool(Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("list-definitions"),
        .title = QStringLiteral("List definitions"),
        .description = QStringLiteral(
            "What the session itself defined (CL-USER and packages made in it, not loaded libraries): functions with lambda "
            "lists, variables with values, macros, generic functions, classes; file:line if loaded from a file; how each "
            "function runs (native, interpreted: why, compiling)."),
        .arguments = {Package, Pattern},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("definitions"), QStringLiteral("count")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [session](const ToolCallPtr &call, const ToolArguments &arguments) {
        const QString package = arguments.text(Package);
        const QString pattern = arguments.text(Pattern);
        ToolKit::ask(session, call, EngineProtocol::definitions(package, pattern), [session, package, pattern](const QJsonObject &reply) {
            return listing(session, EngineProtocol::DefinitionsReply(reply), package, pattern);
        });
    });
}

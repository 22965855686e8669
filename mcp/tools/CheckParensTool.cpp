#include "Tools.h"

#include "lispsource/LispSource.h"
#include "schema/JsonSchema.h"

namespace {
const auto Code = Arg::string(QStringLiteral("code"), QStringLiteral("Lisp source text")).required(QStringLiteral("the Lisp text to check"));
const auto Brackets = Arg::boolean(QStringLiteral("brackets"),
                                   QStringLiteral("Also check [ ] and { } (default true)"));

QJsonObject outputProperties()
{
    using namespace Schema;
    return {{QStringLiteral("ok"), boolean(QStringLiteral("True when every delimiter is balanced"))},
            {QStringLiteral("kind"), string(QStringLiteral("extra-close, mismatch, unclosed, unterminated-string, unterminated-comment or unterminated-symbol"))},
            {QStringLiteral("line"), integer(QStringLiteral("1-based line of the problem"), 0, 2147483647)},
            {QStringLiteral("column"), integer(QStringLiteral("1-based column of the problem"), 0, 2147483647)},
            {QStringLiteral("offset"), integer(QStringLiteral("0-based character offset of the problem"), -1, 2147483647)},
            {QStringLiteral("expected"), string(QStringLiteral("The closer that would have fitted, if any"))},
            {QStringLiteral("found"), string(QStringLiteral("The closer found, if any"))},
            {QStringLiteral("message"), string(QStringLiteral("The problem in one sentence"))}};
}

ToolResult checked(const ParenCheck &check)
{
    if (check.ok)
        return ToolResult{QStringLiteral("Balanced: no delimiter problems."), {{QStringLiteral("ok"), true}}, false};
    QJsonObject structured{{QStringLiteral("ok"), false},
                           {QStringLiteral("kind"), check.kind},
                           {QStringLiteral("line"), check.line},
                           {QStringLiteral("column"), check.column},
                           {QStringLiteral("offset"), check.offset},
                           {QStringLiteral("message"), check.message}};
    if (!check.expected.isNull())
        structured.insert(QStringLiteral("expected"), QString(check.expected));
    if (!check.found.isNull())
        structured.insert(QStringLiteral("found"), QString(check.found));
    return ToolResult{QStringLiteral("Unbalanced (%1) at line %2, column %3: %4").arg(check.kind).arg(check.line).arg(check.column).arg(check.message),
                      structured, false};
}
} // namespace

Tool checkParensTool()
{
    ToolSpec spec{
        .name = QStringLiteral("check-parens"),
        .title = QStringLiteral("Check parens"),
        .description = QStringLiteral(
            "The first unbalanced delimiter of Lisp code, with line and column (strings, comments, #\\( and |symbols| "
            "skipped). Only scans."),
        .arguments = {Code, Brackets},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("ok")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [](const ToolCallPtr &call, const ToolArguments &arguments) {
        const bool brackets = arguments.value(Brackets, true);
        call->finish(checked(LispSource::checkParens(arguments.text(Code), brackets ? LispSource::Brackets::All : LispSource::Brackets::Parentheses)));
    });
}

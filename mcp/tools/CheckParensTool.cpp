#include "CheckParensTool.h"

#include "LispSource.h"
#include "ToolArguments.h"
#include "ToolKit.h"

QJsonObject CheckParensTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("code"), string(QStringLiteral("Lisp source text to check"))},
         {QStringLiteral("brackets"), boolean(QStringLiteral("Also check [ ] and { } (default true); false checks only parentheses, as the standard reader sees them"))}},
        {QStringLiteral("code")});
    const QJsonObject output = ToolKit::outputSchema(
        {{QStringLiteral("ok"), boolean(QStringLiteral("True when every delimiter is balanced"))},
         {QStringLiteral("kind"), string(QStringLiteral("extra-close, mismatch, unclosed, unterminated-string, unterminated-comment or unterminated-symbol"))},
         {QStringLiteral("line"), integer(QStringLiteral("1-based line of the problem"), 0, 2147483647)},
         {QStringLiteral("column"), integer(QStringLiteral("1-based column of the problem"), 0, 2147483647)},
         {QStringLiteral("offset"), integer(QStringLiteral("0-based character offset of the problem"), -1, 2147483647)},
         {QStringLiteral("expected"), string(QStringLiteral("The closer that would have fitted, if any"))},
         {QStringLiteral("found"), string(QStringLiteral("The closer found, if any"))},
         {QStringLiteral("message"), string(QStringLiteral("The problem in one sentence"))}},
        {QStringLiteral("ok")});
    return ToolKit::descriptor(
        name(), QStringLiteral("Check parens"),
        QStringLiteral("Check that the parentheses (and, unless brackets is false, [ ] and { }) of Lisp code are balanced, ignoring "
                       "strings, ; and #| |# comments, character literals like #\\( and |escaped symbols|. Reports the first problem "
                       "with its line and column; for an unclosed list, the list that is never closed. Reads nothing into the "
                       "session: the code is only scanned."),
        input, output, {});
}

void CheckParensTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("code"), QStringLiteral("brackets")});
    const QString code = arguments.requiredString(QStringLiteral("code"), QStringLiteral("the Lisp text to check"));
    const bool brackets = arguments.optionalBool(QStringLiteral("brackets")).value_or(true);
    if (!arguments.ok()) {
        call->finish(ToolResult::error(arguments.error()));
        return;
    }
    const ParenCheck check = LispSource::checkParens(code, brackets ? LispSource::Brackets::All : LispSource::Brackets::Parentheses);
    if (check.ok) {
        call->finish(ToolResult{QStringLiteral("Balanced: no delimiter problems."), {{QStringLiteral("ok"), true}}, false});
        return;
    }
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
    call->finish(ToolResult{QStringLiteral("Unbalanced (%1) at line %2, column %3: %4").arg(check.kind).arg(check.line).arg(check.column).arg(check.message),
                            structured, false});
}

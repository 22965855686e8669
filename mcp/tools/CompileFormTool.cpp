#include "CompileFormTool.h"

#include "ToolArguments.h"
#include "ToolKit.h"

#include <QJsonArray>

QJsonObject CompileFormTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("code"), string(QStringLiteral("One or more top-level forms to compile, e.g. \"(defun f (x) (car x 1))\""))},
         {QStringLiteral("package"), string(QStringLiteral("Package to read the code in (default: the session's current package)"))},
         {QStringLiteral("timeout_seconds"), number(QStringLiteral("Time limit (default: the session's)"), 1, 3600)}},
        {QStringLiteral("code")});
    QJsonObject properties = ToolKit::jobStatusSchema();
    properties.insert(QStringLiteral("compiled"), boolean(QStringLiteral("True when ECL's compiler produced code without errors or warnings")));
    properties.insert(QStringLiteral("forms"), ToolKit::objectArray(QStringLiteral("The top-level forms read"),
                                                                    {{QStringLiteral("index"), integer(QStringLiteral("0-based position"), 0, 2147483647)},
                                                                     {QStringLiteral("line"), integer(QStringLiteral("1-based line where it starts"), 1, 2147483647)},
                                                                     {QStringLiteral("text"), string(QStringLiteral("The form, printed briefly"))}}));
    properties.insert(QStringLiteral("diagnostics"),
                      ToolKit::objectArray(QStringLiteral("What the compiler and our checks found"),
                                           {{QStringLiteral("severity"), ToolKit::stringEnum(QStringLiteral("How serious"), {QStringLiteral("error"), QStringLiteral("warning"), QStringLiteral("style-warning"), QStringLiteral("note")})},
                                            {QStringLiteral("form"), ToolKit::nullableInteger(QStringLiteral("Index of the form it belongs to, if known"))},
                                            {QStringLiteral("line"), ToolKit::nullableInteger(QStringLiteral("Line of that form"))},
                                            {QStringLiteral("source"), ToolKit::stringEnum(QStringLiteral("Who found it"), {QStringLiteral("ecl-compiler"), QStringLiteral("lisp-duet"), QStringLiteral("reader")})},
                                            {QStringLiteral("message"), string(QStringLiteral("What is wrong"))}},
                                           {QStringLiteral("severity"), QStringLiteral("message")}));
    properties.insert(QStringLiteral("counts"), object({{QStringLiteral("error"), integer(QStringLiteral("Errors"), 0, 2147483647)},
                                                        {QStringLiteral("warning"), integer(QStringLiteral("Warnings"), 0, 2147483647)},
                                                        {QStringLiteral("style-warning"), integer(QStringLiteral("Style warnings"), 0, 2147483647)},
                                                        {QStringLiteral("note"), integer(QStringLiteral("Notes"), 0, 2147483647)}}, {}, false));
    return ToolKit::descriptor(
        name(), QStringLiteral("Compile form"),
        QStringLiteral("Compile code with ECL's native compiler without running it, inside one compilation unit, and report errors, "
                       "warnings, style warnings and notes with the form they belong to. Nothing is defined or executed, except what "
                       "compiling itself does: macros used in the code are expanded (their code runs), EVAL-WHEN (:COMPILE-TOPLEVEL) "
                       "forms and #. run, DEFPACKAGE creates its package (DEFMACRO is undone afterwards). ECL's compiler finds less "
                       "than SBCL's: it does not report calls to undefined functions, unused variables bound by LET (only as notes), "
                       "or most type conflicts; Lisp Duet's own checks add undefined functions, wrong argument counts against known "
                       "lambda lists, and unused variables (source \"lisp-duet\"). Compiling needs gcc and takes a few hundred ms."),
        input, ToolKit::outputSchema(properties, {QStringLiteral("status")}), {true, false, true});
}

void CompileFormTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("code"), QStringLiteral("package"), QStringLiteral("timeout_seconds")});
    JobRequest request;
    request.op = QStringLiteral("compile");
    request.code = arguments.requiredString(QStringLiteral("code"), QStringLiteral("the Lisp code to compile"));
    request.package = arguments.optionalString(QStringLiteral("package")).value_or(QString());
    if (const auto timeout = arguments.optionalNumber(QStringLiteral("timeout_seconds"), 1, 3600))
        request.timeoutMs = int(*timeout * 1000);
    if (!arguments.ok()) {
        call->finish(ToolResult::error(arguments.error()));
        return;
    }
    request.description = QStringLiteral("compile-form (nothing is run)");
    submit(call, request, [](const Job &job) {
        if (!job.result.ok())
            return ToolKit::jobError(job);
        const QJsonObject reply = job.result.reply;
        const QJsonArray forms = reply.value(QStringLiteral("forms")).toArray();
        const QJsonArray diagnostics = reply.value(QStringLiteral("diagnostics")).toArray();
        const bool compiled = reply.value(QStringLiteral("compiled")).toBool();
        QJsonObject counts{{QStringLiteral("error"), 0}, {QStringLiteral("warning"), 0}, {QStringLiteral("style-warning"), 0}, {QStringLiteral("note"), 0}};
        for (const QJsonValue &d : diagnostics) {
            const QString severity = d.toObject().value(QStringLiteral("severity")).toString();
            counts.insert(severity, counts.value(severity).toInt() + 1);
        }
        QStringList summary;
        for (const QString &severity : {QStringLiteral("error"), QStringLiteral("warning"), QStringLiteral("style-warning"), QStringLiteral("note")}) {
            const int n = counts.value(severity).toInt();
            if (n > 0)
                summary << QStringLiteral("%1 %2%3").arg(n).arg(severity).arg(n == 1 ? QString() : QStringLiteral("s"));
        }
        QStringList parts{QStringLiteral("Compiled: %1 (%2 form%3; nothing was defined or run)%4")
                              .arg(compiled ? QStringLiteral("yes") : QStringLiteral("no"))
                              .arg(forms.size())
                              .arg(forms.size() == 1 ? QString() : QStringLiteral("s"))
                              .arg(summary.isEmpty() ? QString() : QStringLiteral("\n") + summary.join(QStringLiteral(", ")))};
        // Diagnostics grouped under the form they belong to, in the order of the code.
        auto linesFor = [&diagnostics](const QJsonValue &formIndex) {
            QStringList lines;
            for (const QJsonValue &value : diagnostics) {
                const QJsonObject d = value.toObject();
                if (d.value(QStringLiteral("form")) == formIndex)
                    lines << QStringLiteral("  %1: %2").arg(d.value(QStringLiteral("severity")).toString().toUpper(),
                                                            d.value(QStringLiteral("message")).toString());
            }
            return lines;
        };
        const QStringList unplaced = linesFor(QJsonValue(QJsonValue::Null));
        if (!unplaced.isEmpty())
            parts << QStringLiteral("[code]\n") + unplaced.join(QLatin1Char('\n'));
        for (const QJsonValue &value : forms) {
            const QJsonObject form = value.toObject();
            const QStringList lines = linesFor(form.value(QStringLiteral("index")));
            if (!lines.isEmpty())
                parts << QStringLiteral("[form %1, line %2] %3\n%4")
                             .arg(form.value(QStringLiteral("index")).toInt() + 1)
                             .arg(form.value(QStringLiteral("line")).toInt())
                             .arg(form.value(QStringLiteral("text")).toString(), lines.join(QLatin1Char('\n')));
        }
        QJsonObject structured = ToolKit::jobStatus(job.result);
        structured.insert(QStringLiteral("compiled"), compiled);
        structured.insert(QStringLiteral("forms"), forms);
        structured.insert(QStringLiteral("diagnostics"), diagnostics);
        structured.insert(QStringLiteral("counts"), counts);
        return ToolResult{parts.join(QStringLiteral("\n\n")), structured, false};
    });
}

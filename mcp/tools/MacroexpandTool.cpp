#include "MacroexpandTool.h"

#include "ToolArguments.h"
#include "ToolKit.h"

QJsonObject MacroexpandTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("code"), string(QStringLiteral("One form to expand, e.g. \"(with-open-file (s \\\"x\\\") (read s))\""))},
         {QStringLiteral("full"), boolean(QStringLiteral("Expand until the form is no longer a macro call (MACROEXPAND); default false: one step (MACROEXPAND-1). Subforms are not expanded either way"))},
         {QStringLiteral("package"), string(QStringLiteral("Package to read the form in (default: the session's current package)"))}},
        {QStringLiteral("code")});
    QJsonObject properties = ToolKit::jobStatusSchema();
    properties.insert(QStringLiteral("expansion"), string(QStringLiteral("The expansion, pretty-printed")));
    properties.insert(QStringLiteral("expanded"), boolean(QStringLiteral("False when the form was not a macro call")));
    properties.insert(QStringLiteral("full"), boolean(QStringLiteral("Whether it was expanded fully")));
    return ToolKit::descriptor(
        name(), QStringLiteral("Macroexpand"),
        QStringLiteral("Show what a macro form expands into: one step (macroexpand-1) or until it is no longer a macro call "
                       "(macroexpand), pretty-printed. The macro's own code runs to do this, so it waits its turn in the session "
                       "queue. ECL's expansions of standard macros use ECL internals (SI:: and EXT:: operators)."),
        input, ToolKit::outputSchema(properties, {QStringLiteral("status")}), {true, false, true});
}

void MacroexpandTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("code"), QStringLiteral("full"), QStringLiteral("package")});
    JobRequest request;
    request.op = QStringLiteral("macroexpand");
    request.code = arguments.requiredString(QStringLiteral("code"), QStringLiteral("the form to expand"));
    request.package = arguments.optionalString(QStringLiteral("package")).value_or(QString());
    const bool full = arguments.optionalBool(QStringLiteral("full")).value_or(false);
    if (!arguments.ok()) {
        call->finish(ToolResult::error(arguments.error()));
        return;
    }
    request.arguments.insert(QStringLiteral("full"), full);
    request.description = full ? QStringLiteral("macroexpand") : QStringLiteral("macroexpand-1");
    submit(call, request, [](const Job &job) {
        if (!job.result.ok())
            return ToolKit::jobError(job);
        const QJsonObject reply = job.result.reply;
        const bool expanded = reply.value(QStringLiteral("expanded")).toBool();
        const QString expansion = ToolKit::string(reply, QStringLiteral("expansion"));
        QJsonObject structured = ToolKit::jobStatus(job.result);
        structured.insert(QStringLiteral("expansion"), expansion);
        structured.insert(QStringLiteral("expanded"), expanded);
        structured.insert(QStringLiteral("full"), reply.value(QStringLiteral("full")).toBool());
        const QString text = expanded ? expansion : QStringLiteral("%1\n; not a macro call: nothing to expand").arg(expansion);
        return ToolResult{text, structured, false};
    });
}

#include "Tools.h"

#include "JobHandles.h"

#include "client/EngineProtocol.h"
#include "schema/JsonSchema.h"
#include "ToolKit.h"

namespace {
const auto Code = Arg::string(QStringLiteral("code"), QStringLiteral("One form, e.g. \"(incf x)\""))
                      .required(QStringLiteral("the form to expand"));
const auto Full = Arg::boolean(QStringLiteral("full"),
                               QStringLiteral("Until it is no macro call (default: one step)"));
const auto Package = Arg::string(QStringLiteral("package"), QStringLiteral("Package (default: the current one)"));

QJsonObject outputProperties()
{
    using namespace Schema;
    QJsonObject properties = ToolKit::jobStatusProperties();
    properties.insert(QStringLiteral("expansion"), string(QStringLiteral("The expansion, pretty-printed")));
    properties.insert(QStringLiteral("expanded"), boolean(QStringLiteral("False when the form was not a macro call")));
    properties.insert(QStringLiteral("full"), boolean(QStringLiteral("Whether it was expanded fully")));
    return properties;
}

ToolResult expanded(const Job &job)
{
    if (!job.result.ok())
        return ToolKit::jobError(job);
    const EngineProtocol::MacroexpandReply reply(job.result.reply);
    QJsonObject structured = ToolKit::jobStatus(job.result);
    structured.insert(QStringLiteral("expansion"), reply.expansion());
    structured.insert(QStringLiteral("expanded"), reply.expanded());
    structured.insert(QStringLiteral("full"), reply.full());
    const QString text = reply.expanded() ? reply.expansion()
                                          : QStringLiteral("%1\n; not a macro call: nothing to expand").arg(reply.expansion());
    return ToolResult{text, structured, false};
}
} // namespace

Tool macroexpandTool(Session *session, JobHandles *jobs)
{
    ToolSpec spec{
        .name = QStringLiteral("macroexpand"),
        .title = QStringLiteral("Macroexpand"),
        .description = QStringLiteral(
            "Expand a macro form one step (macroexpand-1) or fully (macroexpand), pretty-printed. The macro's code runs, so "
            "it waits its turn in the queue."),
        .arguments = {Code, Full, Package},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("status")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [session, jobs](const ToolCallPtr &call, const ToolArguments &arguments) {
        const bool full = arguments.value(Full, false);
        JobRequest request = EngineProtocol::macroexpansion(arguments.text(Code), full, arguments.text(Package));
        request.description = full ? QStringLiteral("macroexpand") : QStringLiteral("macroexpand-1");
        ToolKit::submit(session, jobs, call, request, expanded);
    });
}

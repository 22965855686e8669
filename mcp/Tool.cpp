#include "Tool.h"

#include "ActivityDigest.h"
#include "JsonSchema.h"

Tool::Tool(ToolSpec spec, Serve serve) : m_spec(std::move(spec)), m_serve(std::move(serve))
{
    QJsonObject output = m_spec.outputProperties;
    output.insert(QStringLiteral("session_activity"), ActivityDigest::schema());
    const ToolHints &hints = m_spec.hints;
    m_descriptor = {{QStringLiteral("name"), m_spec.name},
                    {QStringLiteral("title"), m_spec.title},
                    {QStringLiteral("description"), m_spec.description},
                    {QStringLiteral("inputSchema"), m_spec.arguments.inputSchema()},
                    {QStringLiteral("outputSchema"), Schema::object(output, m_spec.outputRequired, false)},
                    {QStringLiteral("annotations"), QJsonObject{{QStringLiteral("title"), m_spec.title},
                                                                {QStringLiteral("readOnlyHint"), hints.readOnly},
                                                                {QStringLiteral("destructiveHint"), hints.destructive},
                                                                {QStringLiteral("idempotentHint"), hints.idempotent},
                                                                {QStringLiteral("openWorldHint"), false}}}};
}

void Tool::call(const ToolCallPtr &call) const
{
    const QString problem = m_spec.arguments.problemWith(call->arguments());
    if (!problem.isEmpty()) {
        call->finish(ToolResult::error(problem));
        return;
    }
    m_serve(call, ToolArguments(call->arguments()));
}

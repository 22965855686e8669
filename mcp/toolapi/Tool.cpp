#include "Tool.h"

#include "digest/ActivityDigest.h"
#include "schema/JsonSchema.h"

#include <QJsonArray>
#include <QJsonDocument>

Tool::Tool(ToolSpec spec, Serve serve) : m_spec(std::move(spec)), m_serve(std::move(serve))
{
    QJsonObject output = m_spec.outputProperties;
    output.insert(QStringLiteral("session_activity"), ActivityDigest::schema());
    m_fullOutputSchema = Schema::object(output, m_spec.outputRequired, false);
    const ToolHints &hints = m_spec.hints;
    // The annotations a client acts on (Claude Code runs read-only tools in plan mode and in
    // parallel); destructive and idempotent mean something only for tools that change things,
    // and the title is said once, beside the name.
    QJsonObject annotations{{QStringLiteral("readOnlyHint"), hints.readOnly}, {QStringLiteral("openWorldHint"), false}};
    if (!hints.readOnly) {
        annotations.insert(QStringLiteral("destructiveHint"), hints.destructive);
        annotations.insert(QStringLiteral("idempotentHint"), hints.idempotent);
    }
    m_descriptor = {{QStringLiteral("name"), m_spec.name},
                    {QStringLiteral("title"), m_spec.title},
                    {QStringLiteral("description"), m_spec.description},
                    {QStringLiteral("inputSchema"), m_spec.arguments.inputSchema()},
                    {QStringLiteral("outputSchema"), Schema::outline(m_fullOutputSchema)},
                    {QStringLiteral("annotations"), annotations}};
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

QString Tool::intent(const QJsonObject &arguments) const
{
    if (m_spec.intent) {
        const QString text = m_spec.intent(arguments);
        if (!text.isEmpty())
            return text;
    }
    // The arguments as given; the description is shown apart, as the agent's reason.
    QStringList parts;
    for (auto it = arguments.begin(); it != arguments.end(); ++it) {
        if (it.key() == QLatin1String("description"))
            continue;
        const QJsonValue value = it.value();
        parts << it.key() + QLatin1Char('=')
                + (value.isString() ? value.toString() : QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1));
    }
    return parts.isEmpty() ? QStringLiteral("call %1").arg(name()) : QStringLiteral("call %1 with %2").arg(name(), parts.join(QStringLiteral(", ")));
}

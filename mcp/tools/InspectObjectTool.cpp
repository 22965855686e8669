#include "Tools.h"

#include "client/EngineProtocol.h"
#include "schema/JsonSchema.h"
#include "ToolKit.h"

#include <QJsonDocument>

namespace {
using EngineProtocol::InspectReply;

// A number is taken too: an agent may pass the id's digits.
const auto ResultId = Arg::string(QStringLiteral("result_id"),
                                  QStringLiteral("A value's result_id"))
                          .required(QStringLiteral("a result_id from evaluate-lisp"))
                          .acceptingNumbers();
const auto Offset = Arg::integer(QStringLiteral("offset"), QStringLiteral("First element (default 0)"), 0, 2147483647);
const auto Limit = Arg::integer(QStringLiteral("limit"), QStringLiteral("Most elements (default 50)"), 1, 1000);

QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject element{{QStringLiteral("key"), string(QStringLiteral("Index, slot name, hash key or \"tail\""))},
                              {QStringLiteral("value"), string(QStringLiteral("The element, printed briefly"))},
                              {QStringLiteral("result_id"), string(QStringLiteral("Handle to inspect the element itself (non-primitive values only)"))},
                              {QStringLiteral("key_result_id"), string(QStringLiteral("Handle of a non-primitive hash key"))},
                              {QStringLiteral("cycle"), boolean(QStringLiteral("True when the element is the inspected object or one it was reached from"))}};
    return {{QStringLiteral("found"), boolean(QStringLiteral("False when the id is unknown or expired"))},
            {QStringLiteral("result_id"), string(QStringLiteral("The object's handle"))},
            {QStringLiteral("kind"), string(QStringLiteral("list, vector, array, string, hash-table, structure, instance, condition, function, generic-function or object"))},
            {QStringLiteral("type"), string(QStringLiteral("TYPE-OF the object"))},
            {QStringLiteral("summary"), string(QStringLiteral("The object, printed"))},
            {QStringLiteral("offset"), integer(QStringLiteral("First element shown"), 0, 2147483647)},
            {QStringLiteral("total"), integer(QStringLiteral("Elements in all"), 0, 2147483647)},
            {QStringLiteral("elements"), objectArray(QStringLiteral("This page of elements"), element, {QStringLiteral("key"), QStringLiteral("value")})},
            {QStringLiteral("attributes"), object({}, {}, false)},
            {QStringLiteral("message"), string(QStringLiteral("Why nothing was found"))}};
}

QString shown(const QJsonValue &v)
{
    return v.isString() ? v.toString()
        : v.isDouble()  ? QString::number(v.toDouble(), 'g', 15)
        : v.isBool()    ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
        : v.isNull()    ? QStringLiteral("none")
                        : QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
}

ToolResult inspected(const InspectReply &reply)
{
    if (!reply.found())
        return ToolResult::error(reply.message(), {{QStringLiteral("found"), false}, {QStringLiteral("message"), reply.message()}});
    const QJsonObject attributes = reply.attributes();
    const QJsonArray elements = reply.elements();
    const int offset = reply.offset();
    const int total = reply.total();
    QStringList lines{QStringLiteral("%1 [%2, %3]").arg(reply.summary().toString(), reply.kind().toString(), reply.type().toString())};
    for (auto it = attributes.begin(); it != attributes.end(); ++it)
        lines << QStringLiteral("%1: %2").arg(it.key(), shown(it.value()));
    for (const QJsonValue &value : elements) {
        const InspectReply::Element element(value);
        QString line = QStringLiteral("  %1: %2").arg(element.key(), element.value());
        if (!element.resultId().isEmpty())
            line += QStringLiteral("  [result_id %1]").arg(element.resultId());
        if (element.isCycle())
            line += QStringLiteral("  (cycle)");
        lines << line;
    }
    if (offset + elements.size() < total)
        lines << QStringLiteral("(%1-%2 of %3 shown; pass offset %4 for more)").arg(offset).arg(offset + elements.size() - 1).arg(total).arg(offset + elements.size());
    return ToolResult{lines.join(QLatin1Char('\n')),
                      {{QStringLiteral("found"), true},
                       {QStringLiteral("result_id"), reply.resultId()},
                       {QStringLiteral("kind"), reply.kind()},
                       {QStringLiteral("type"), reply.type()},
                       {QStringLiteral("summary"), reply.summary()},
                       {QStringLiteral("offset"), offset},
                       {QStringLiteral("total"), total},
                       {QStringLiteral("elements"), elements},
                       {QStringLiteral("attributes"), attributes}},
                      false};
}
} // namespace

Tool inspectObjectTool(Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("inspect-object"),
        .title = QStringLiteral("Inspect object"),
        .description = QStringLiteral(
            "Look inside a value by its result_id: elements of lists and vectors, hash table entries, slots of structures, "
            "instances and conditions, a function's details; paged. Nested values get result_ids."),
        .arguments = {ResultId, Offset, Limit},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("found")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [session](const ToolCallPtr &call, const ToolArguments &arguments) {
        const auto query = EngineProtocol::inspection(arguments.text(ResultId).trimmed(), arguments.value(Offset, 0), arguments.value(Limit, 50));
        ToolKit::ask(session, call, query, [](const QJsonObject &reply) { return inspected(InspectReply(reply)); });
    });
}

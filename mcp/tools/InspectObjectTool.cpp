#include "InspectObjectTool.h"

#include "ToolArguments.h"
#include "ToolKit.h"

#include <QJsonArray>
#include <QJsonDocument>

QJsonObject InspectObjectTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("result_id"), string(QStringLiteral("A result_id from evaluate-lisp, time-execution, describe-symbol or an earlier inspect-object, e.g. \"4711-3\""))},
         {QStringLiteral("offset"), integer(QStringLiteral("First element to show (default 0)"), 0, 2147483647)},
         {QStringLiteral("limit"), integer(QStringLiteral("Most elements to show (default 50)"), 1, 1000)}},
        {QStringLiteral("result_id")});
    const QJsonObject element{{QStringLiteral("key"), string(QStringLiteral("Index, slot name, hash key or \"tail\""))},
                              {QStringLiteral("value"), string(QStringLiteral("The element, printed briefly"))},
                              {QStringLiteral("result_id"), string(QStringLiteral("Handle to inspect the element itself (non-primitive values only)"))},
                              {QStringLiteral("key_result_id"), string(QStringLiteral("Handle of a non-primitive hash key"))},
                              {QStringLiteral("cycle"), boolean(QStringLiteral("True when the element is the inspected object or one it was reached from"))}};
    const QJsonObject output = ToolKit::outputSchema(
        {{QStringLiteral("found"), boolean(QStringLiteral("False when the id is unknown or expired"))},
         {QStringLiteral("result_id"), string(QStringLiteral("The object's handle"))},
         {QStringLiteral("kind"), string(QStringLiteral("list, vector, array, string, hash-table, structure, instance, condition, function, generic-function or object"))},
         {QStringLiteral("type"), string(QStringLiteral("TYPE-OF the object"))},
         {QStringLiteral("summary"), string(QStringLiteral("The object, printed"))},
         {QStringLiteral("offset"), integer(QStringLiteral("First element shown"), 0, 2147483647)},
         {QStringLiteral("total"), integer(QStringLiteral("Elements in all"), 0, 2147483647)},
         {QStringLiteral("elements"), ToolKit::objectArray(QStringLiteral("This page of elements"), element, {QStringLiteral("key"), QStringLiteral("value")})},
         {QStringLiteral("attributes"), object({}, {}, false)},
         {QStringLiteral("message"), string(QStringLiteral("Why nothing was found"))}},
        {QStringLiteral("found")});
    return ToolKit::descriptor(
        name(), QStringLiteral("Inspect object"),
        QStringLiteral("Look inside a value by its result_id: the elements of lists (dotted and circular too), vectors and arrays, "
                       "the entries of hash tables, the slots of structures, CLOS instances and conditions, and the name, lambda "
                       "list and methods of functions, one page at a time (offset, limit). Nested non-primitive values get their "
                       "own result_ids; elements that lead back to an object already on the way are marked as cycles. Result ids "
                       "are forgotten when the session is reset."),
        input, output, {});
}

void InspectObjectTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("result_id"), QStringLiteral("offset"), QStringLiteral("limit")});
    // Accept a number too: an agent may pass the id's digits.
    QString id;
    const QJsonValue raw = call->arguments().value(QStringLiteral("result_id"));
    if (raw.isDouble())
        id = QString::number(raw.toDouble(), 'f', 0);
    else
        id = arguments.requiredString(QStringLiteral("result_id"), QStringLiteral("a result_id from evaluate-lisp")).trimmed();
    const int offset = arguments.optionalInteger(QStringLiteral("offset"), 0, 2147483647).value_or(0);
    const int limit = arguments.optionalInteger(QStringLiteral("limit"), 1, 1000).value_or(50);
    if (!arguments.ok()) {
        call->finish(ToolResult::error(arguments.error()));
        return;
    }
    const QJsonObject request{{QStringLiteral("result_id"), id},
                              {QStringLiteral("options"), QJsonObject{{QStringLiteral("offset"), offset}, {QStringLiteral("limit"), limit}}}};
    ask(call, QStringLiteral("inspect"), request, [](const QJsonObject &reply) {
        if (!reply.value(QStringLiteral("found")).toBool()) {
            const QString message = ToolKit::string(reply, QStringLiteral("message"));
            return ToolResult::error(message, {{QStringLiteral("found"), false}, {QStringLiteral("message"), message}});
        }
        static const QStringList known{QStringLiteral("id"), QStringLiteral("status"), QStringLiteral("found"), QStringLiteral("result_id"),
                                       QStringLiteral("kind"), QStringLiteral("type"), QStringLiteral("summary"), QStringLiteral("offset"),
                                       QStringLiteral("total"), QStringLiteral("elements")};
        QJsonObject attributes;
        for (auto it = reply.begin(); it != reply.end(); ++it) {
            if (!known.contains(it.key()))
                attributes.insert(it.key(), it.value());
        }
        const QJsonArray elements = reply.value(QStringLiteral("elements")).toArray();
        const int offset = reply.value(QStringLiteral("offset")).toInt();
        const int total = reply.value(QStringLiteral("total")).toInt();
        QStringList lines{QStringLiteral("%1 [%2, %3]").arg(ToolKit::string(reply, QStringLiteral("summary")),
                                                           ToolKit::string(reply, QStringLiteral("kind")),
                                                           ToolKit::string(reply, QStringLiteral("type")))};
        for (auto it = attributes.begin(); it != attributes.end(); ++it) {
            const QJsonValue v = it.value();
            const QString shown = v.isString() ? v.toString()
                : v.isDouble()                 ? QString::number(v.toDouble(), 'g', 15)
                : v.isBool()                   ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
                : v.isNull()                   ? QStringLiteral("none")
                                               : QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
            lines << QStringLiteral("%1: %2").arg(it.key(), shown);
        }
        for (const QJsonValue &value : elements) {
            const QJsonObject e = value.toObject();
            QString line = QStringLiteral("  %1: %2").arg(ToolKit::string(e, QStringLiteral("key")), ToolKit::string(e, QStringLiteral("value")));
            if (e.contains(QStringLiteral("result_id")))
                line += QStringLiteral("  [result_id %1]").arg(ToolKit::string(e, QStringLiteral("result_id")));
            if (e.value(QStringLiteral("cycle")).toBool())
                line += QStringLiteral("  (cycle)");
            lines << line;
        }
        if (offset + elements.size() < total)
            lines << QStringLiteral("(%1-%2 of %3 shown; pass offset %4 for more)").arg(offset).arg(offset + elements.size() - 1).arg(total).arg(offset + elements.size());
        return ToolResult{lines.join(QLatin1Char('\n')),
                          {{QStringLiteral("found"), true},
                           {QStringLiteral("result_id"), reply.value(QStringLiteral("result_id"))},
                           {QStringLiteral("kind"), reply.value(QStringLiteral("kind"))},
                           {QStringLiteral("type"), reply.value(QStringLiteral("type"))},
                           {QStringLiteral("summary"), reply.value(QStringLiteral("summary"))},
                           {QStringLiteral("offset"), offset},
                           {QStringLiteral("total"), total},
                           {QStringLiteral("elements"), elements},
                           {QStringLiteral("attributes"), attributes}},
                          false};
    });
}

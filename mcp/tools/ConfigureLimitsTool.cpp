#include "ConfigureLimitsTool.h"

#include "SessionLimits.h"
#include "ToolArguments.h"
#include "ToolKit.h"

#include <QLocale>

QJsonObject ConfigureLimitsTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("timeout_seconds"), number(QStringLiteral("Time limit of each evaluation in seconds (default 30; 0 = none). Code that runs longer is interrupted; the session survives"), 0, 86400)},
         {QStringLiteral("max_output_chars"), integer(QStringLiteral("Cap on the output an evaluation may produce (default 100000); the rest is dropped as it is produced and counted"), 100, 100000000)},
         {QStringLiteral("print_length"), integer(QStringLiteral("*print-length* for printed values (default 100)"), 1, 1000000)},
         {QStringLiteral("print_level"), integer(QStringLiteral("*print-level* for printed values (default 10)"), 1, 1000)},
         {QStringLiteral("heap_limit_mb"), integer(QStringLiteral("Limit of the engine's Lisp heap in MiB (ECL's default is 4096); past it, code gets STORAGE-EXHAUSTED instead of exhausting the machine"), 32, 1048576)}});
    const QJsonObject output = ToolKit::outputSchema(
        {{QStringLiteral("timeout_seconds"), number(QStringLiteral("Time limit of each evaluation (0 = none)"), 0, 1e9)},
         {QStringLiteral("max_output_chars"), integer(QStringLiteral("Output cap per evaluation"), 0, 2147483647)},
         {QStringLiteral("print_length"), integer(QStringLiteral("*print-length* for values"), 0, 2147483647)},
         {QStringLiteral("print_level"), integer(QStringLiteral("*print-level* for values"), 0, 2147483647)},
         {QStringLiteral("heap_limit_mb"), number(QStringLiteral("The engine's heap limit in MiB, as the engine reports it"), 0, 1e12)}},
        {QStringLiteral("timeout_seconds"), QStringLiteral("max_output_chars"), QStringLiteral("print_length"), QStringLiteral("print_level")});
    return ToolKit::descriptor(
        name(), QStringLiteral("Configure limits"),
        QStringLiteral("Read or change the session's limits: the time limit of each evaluation, the output cap, *print-length* and "
                       "*print-level* for values, and the engine's heap limit. Call without arguments to read them. They apply "
                       "to every later evaluation, by the person and every agent, unless an evaluate-lisp call passes its own, "
                       "and survive an engine restart or reset-session. Returns the limits in force."),
        input, output, {false, false, true});
}

void ConfigureLimitsTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("timeout_seconds"), QStringLiteral("max_output_chars"), QStringLiteral("print_length"),
                             QStringLiteral("print_level"), QStringLiteral("heap_limit_mb")});
    SessionLimits::Change change;
    if (const auto timeout = arguments.optionalNumber(QStringLiteral("timeout_seconds"), 0, 86400))
        change.timeoutMs = int(*timeout * 1000);
    change.maxOutputChars = arguments.optionalInteger(QStringLiteral("max_output_chars"), 100, 100000000);
    change.printLength = arguments.optionalInteger(QStringLiteral("print_length"), 1, 1000000);
    change.printLevel = arguments.optionalInteger(QStringLiteral("print_level"), 1, 1000);
    if (const auto heap = arguments.optionalInteger(QStringLiteral("heap_limit_mb"), 32, 1048576))
        change.heapLimitBytes = qint64(*heap) * 1024 * 1024;
    if (!arguments.ok()) {
        call->finish(ToolResult::error(arguments.error()));
        return;
    }
    SessionLimits *limits = m_limits;
    limits->apply(change, [call, limits](const QJsonObject &reply) {
        if (reply.value(QStringLiteral("status")).toString() != QStringLiteral("ok")) {
            call->finish(ToolResult::error(QStringLiteral("[ERROR] %1\n%2")
                                               .arg(reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("type")).toString(QStringLiteral("ENGINE")),
                                                    reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString())));
            return;
        }
        const double timeout = limits->timeoutMs() / 1000.0;
        const double heapMb = reply.value(QStringLiteral("heap_limit_bytes")).toDouble() / (1024.0 * 1024.0);
        const int maxOutput = reply.value(QStringLiteral("max_output_chars")).toInt();
        const int printLength = reply.value(QStringLiteral("print_length")).toInt();
        const int printLevel = reply.value(QStringLiteral("print_level")).toInt();
        QLocale c = QLocale::c();
        c.setNumberOptions(QLocale::DefaultNumberOptions); // 100,000: grouped, as people read it
        const QString text = QStringLiteral("[limits]\ntimeout: %1\nmax output: %2 characters\nprint length: %3\nprint level: %4\nheap limit: %5 MiB")
                                 .arg(timeout > 0 ? QStringLiteral("%1 s").arg(timeout) : QStringLiteral("none"),
                                      c.toString(maxOutput), QString::number(printLength), QString::number(printLevel),
                                      c.toString(heapMb, 'f', 0));
        call->finish(ToolResult{text,
                                {{QStringLiteral("timeout_seconds"), timeout},
                                 {QStringLiteral("max_output_chars"), maxOutput},
                                 {QStringLiteral("print_length"), printLength},
                                 {QStringLiteral("print_level"), printLevel},
                                 {QStringLiteral("heap_limit_mb"), heapMb}},
                                false});
    });
}

#include "Tools.h"

#include "client/EngineProtocol.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"
#include "ToolKit.h"

#include <QLocale>

namespace {
using namespace EngineProtocol;

const auto Timeout = Arg::number(QStringLiteral("timeout_seconds"),
                                 QStringLiteral("Time limit per evaluation (default %1; 0: none)")
                                     .arg(DefaultTimeoutMs / 1000),
                                 0, 86400);
const auto MaxOutput = Arg::integer(QStringLiteral("max_output_chars"),
                                    QStringLiteral("Output cap per evaluation (default %1)")
                                        .arg(DefaultMaxOutputChars),
                                    100, 100000000);
const auto PrintLength = Arg::integer(QStringLiteral("print_length"), QStringLiteral("*print-length* of values (default %1)").arg(DefaultPrintLength), 1, 1000000);
const auto PrintLevel = Arg::integer(QStringLiteral("print_level"), QStringLiteral("*print-level* of values (default %1)").arg(DefaultPrintLevel), 1, 1000);
const auto HeapLimit = Arg::integer(QStringLiteral("heap_limit_mb"),
                                    QStringLiteral("Heap limit in MiB (ECL's default 4096); past it: STORAGE-EXHAUSTED"),
                                    32, 1048576);

QJsonObject outputProperties()
{
    using namespace Schema;
    return {{QStringLiteral("timeout_seconds"), number(QStringLiteral("Time limit of each evaluation (0 = none)"), 0, 1e9)},
            {QStringLiteral("max_output_chars"), integer(QStringLiteral("Output cap per evaluation"), 0, 2147483647)},
            {QStringLiteral("print_length"), integer(QStringLiteral("*print-length* for values"), 0, 2147483647)},
            {QStringLiteral("print_level"), integer(QStringLiteral("*print-level* for values"), 0, 2147483647)},
            {QStringLiteral("heap_limit_mb"), number(QStringLiteral("The engine's heap limit in MiB, as the engine reports it"), 0, 1e12)}};
}

ToolResult inForce(const LimitsReply &reply, int timeoutMs)
{
    if (!reply.ok()) {
        return ToolResult::error(QStringLiteral("[ERROR] %1\n%2")
                                     .arg(reply.errorType().isEmpty() ? QStringLiteral("ENGINE") : reply.errorType(), reply.errorMessage()));
    }
    const double timeout = timeoutMs / 1000.0;
    const double heapMb = reply.heapLimitBytes() / (1024.0 * 1024.0);
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions); // 100,000: grouped, as people read it
    const QString text = QStringLiteral("[limits]\ntimeout: %1\nmax output: %2 characters\nprint length: %3\nprint level: %4\nheap limit: %5 MiB")
                             .arg(timeout > 0 ? QStringLiteral("%1 s").arg(timeout) : QStringLiteral("none"),
                                  c.toString(reply.maxOutputChars()), QString::number(reply.printLength()),
                                  QString::number(reply.printLevel()), c.toString(heapMb, 'f', 0));
    return ToolResult{text,
                      {{QStringLiteral("timeout_seconds"), timeout},
                       {QStringLiteral("max_output_chars"), reply.maxOutputChars()},
                       {QStringLiteral("print_length"), reply.printLength()},
                       {QStringLiteral("print_level"), reply.printLevel()},
                       {QStringLiteral("heap_limit_mb"), heapMb}},
                      false};
}
} // namespace

Tool configureLimitsTool(Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("configure-limits"),
        .title = QStringLiteral("Configure limits"),
        .description = QStringLiteral(
            "Read (no arguments) or set the limits of every later evaluation, the person's too: time limit, output cap, "
            "*print-length*, *print-level*, heap. They survive engine restarts. Returns the limits in force."),
        .arguments = {Timeout, MaxOutput, PrintLength, PrintLevel, HeapLimit, ToolKit::descriptionArgument()},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("timeout_seconds"), QStringLiteral("max_output_chars"), QStringLiteral("print_length"),
                           QStringLiteral("print_level")},
        .hints = Hints::Idempotent,
        .intent = [](const QJsonObject &arguments) {
            QStringList changes;
            for (auto it = arguments.begin(); it != arguments.end(); ++it) {
                if (it.key() != QLatin1String("description")) // the why is shown apart
                    changes << QStringLiteral("%1 %2").arg(it.key(), QString::number(it.value().toDouble()));
            }
            return changes.isEmpty() ? QStringLiteral("show the session's limits")
                                     : QStringLiteral("change the session's limits: %1").arg(changes.join(QStringLiteral(", ")));
        },
    };
    return Tool(spec, [session](const ToolCallPtr &call, const ToolArguments &arguments) {
        Session::LimitsChange change;
        if (const auto timeout = arguments.value(Timeout))
            change.timeoutMs = int(*timeout * 1000);
        change.maxOutputChars = arguments.value(MaxOutput);
        change.printLength = arguments.value(PrintLength);
        change.printLevel = arguments.value(PrintLevel);
        if (const auto heap = arguments.value(HeapLimit))
            change.heapLimitBytes = qint64(*heap) * 1024 * 1024;
        session->changeLimits(change, [call, session](const QJsonObject &reply) {
            call->finish(inForce(LimitsReply(reply), session->limits().timeoutMs));
        });
    });
}

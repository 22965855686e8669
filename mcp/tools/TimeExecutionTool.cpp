#include "TimeExecutionTool.h"

#include "EvalFormatter.h"
#include "ToolArguments.h"
#include "ToolKit.h"

#include <QLocale>

namespace {
QLocale grouped()
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    return c;
}

QString milliseconds(double ms)
{
    return QStringLiteral("%1 ms").arg(QLocale::c().toString(ms, 'f', ms < 10 ? 3 : 1));
}
} // namespace

QJsonObject TimeExecutionTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject input = object(
        {{QStringLiteral("code"), string(QStringLiteral("Common Lisp form(s) to evaluate and time"))},
         {QStringLiteral("package"), string(QStringLiteral("Package context (default: the session's current package)"))},
         {QStringLiteral("description"), string(QStringLiteral("A short reason, shown to the person who shares the session"))},
         {QStringLiteral("timeout_seconds"), number(QStringLiteral("Time limit in seconds (default: the session's)"), 0.1, 3600)}},
        {QStringLiteral("code")});
    QJsonObject output = EvalFormatter::outputSchema();
    QJsonObject properties = output.value(QStringLiteral("properties")).toObject();
    properties.insert(QStringLiteral("timing"),
                      object({{QStringLiteral("real_ms"), number(QStringLiteral("Wall-clock time"), 0, 1e12)},
                              {QStringLiteral("run_ms"), number(QStringLiteral("CPU time of the engine process"), 0, 1e12)},
                              {QStringLiteral("gc_ms"), number(QStringLiteral("Time in full garbage collections (Boehm GC's own clock)"), 0, 1e12)},
                              {QStringLiteral("gc_count"), integer(QStringLiteral("Garbage collections during the evaluation"), 0, 2147483647)},
                              {QStringLiteral("bytes_allocated"), number(QStringLiteral("Bytes allocated (by every engine thread) during the evaluation"), 0, 1e18)}},
                             {QStringLiteral("real_ms"), QStringLiteral("run_ms"), QStringLiteral("gc_ms"), QStringLiteral("gc_count"), QStringLiteral("bytes_allocated")}, false));
    output.insert(QStringLiteral("properties"), properties);
    return ToolKit::descriptor(
        name(), QStringLiteral("Time execution"),
        QStringLiteral("Evaluate code like evaluate-lisp (same text: [stdout], [stderr], [warnings], '=> value' lines or [ERROR]) and "
                       "add a [timing] section: real time, run time, GC time and count, and bytes allocated. Timing covers reading, "
                       "evaluating and printing; ECL evaluates with its bytecode compiler, so compile functions first (compile-form "
                       "does not define them; (compile 'name) in evaluate-lisp does) to time native code."),
        input, output, {false, true, false});
}

void TimeExecutionTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("code"), QStringLiteral("package"), QStringLiteral("description"), QStringLiteral("timeout_seconds")});
    JobRequest request;
    request.op = QStringLiteral("time");
    request.code = arguments.requiredString(QStringLiteral("code"), QStringLiteral("the Lisp code to time"));
    request.package = arguments.optionalString(QStringLiteral("package")).value_or(QString());
    request.description = arguments.optionalString(QStringLiteral("description")).value_or(QString());
    if (const auto timeout = arguments.optionalNumber(QStringLiteral("timeout_seconds"), 0.1, 3600))
        request.timeoutMs = int(*timeout * 1000);
    if (!arguments.ok()) {
        call->finish(ToolResult::error(arguments.error()));
        return;
    }
    submit(call, request, [](const Job &job) {
        const JobResult &result = job.result;
        QString text = EvalFormatter::text(result);
        QJsonObject structured = EvalFormatter::structured(result);
        if (result.reply.contains(QStringLiteral("bytes_allocated"))) {
            const double realMs = double(result.realMicroseconds) / 1000.0;
            const double runMs = double(result.runMicroseconds) / 1000.0;
            const double gcMs = result.reply.value(QStringLiteral("gc_ms")).toDouble();
            const int gcCount = result.reply.value(QStringLiteral("gc_count")).toInt();
            const double bytes = result.reply.value(QStringLiteral("bytes_allocated")).toDouble();
            text += QStringLiteral("\n\n[timing]\nreal time: %1\nrun time: %2\nGC time: %3 (%4 collection%5)\nbytes allocated: %6")
                        .arg(milliseconds(realMs), milliseconds(runMs), milliseconds(gcMs))
                        .arg(gcCount)
                        .arg(gcCount == 1 ? QString() : QStringLiteral("s"))
                        .arg(grouped().toString(qint64(bytes)));
            structured.insert(QStringLiteral("timing"), QJsonObject{{QStringLiteral("real_ms"), realMs},
                                                                    {QStringLiteral("run_ms"), runMs},
                                                                    {QStringLiteral("gc_ms"), gcMs},
                                                                    {QStringLiteral("gc_count"), gcCount},
                                                                    {QStringLiteral("bytes_allocated"), bytes}});
        }
        return ToolResult{text, structured, EvalFormatter::isErrorResult(result)};
    });
}

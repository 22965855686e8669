#include "Tools.h"

#include "JobHandles.h"

#include "client/EngineProtocol.h"
#include "EvalFormatter.h"
#include "JsonSchema.h"
#include "ToolKit.h"

#include <QLocale>

namespace {
const auto Code = Arg::string(QStringLiteral("code"), QStringLiteral("Lisp form(s) to evaluate and time")).required(QStringLiteral("the Lisp code to time"));
const auto Package = Arg::string(QStringLiteral("package"), QStringLiteral("Package (default: the current one)"));
const auto Description = Arg::string(QStringLiteral("description"), QStringLiteral("Why: the person sees it"));
const auto Debug = Arg::boolean(QStringLiteral("debug"),
                                QStringLiteral("As evaluate-lisp's"));
const auto Timeout = Arg::number(QStringLiteral("timeout_seconds"), QStringLiteral("Time limit (default: the session's)"), 0.1, 3600);

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

QJsonObject outputProperties()
{
    using namespace Schema;
    QJsonObject properties = EvalFormatter::outputProperties();
    properties.insert(QStringLiteral("timing"),
                      object({{QStringLiteral("real_ms"), number(QStringLiteral("Wall-clock time"), 0, 1e12)},
                              {QStringLiteral("run_ms"), number(QStringLiteral("CPU time of the engine process"), 0, 1e12)},
                              {QStringLiteral("gc_ms"), number(QStringLiteral("Time in full garbage collections (Boehm GC's own clock)"), 0, 1e12)},
                              {QStringLiteral("gc_count"), integer(QStringLiteral("Garbage collections during the evaluation"), 0, 2147483647)},
                              {QStringLiteral("bytes_allocated"), number(QStringLiteral("Bytes allocated (by every engine thread) during the evaluation"), 0, 1e18)}},
                             {QStringLiteral("real_ms"), QStringLiteral("run_ms"), QStringLiteral("gc_ms"), QStringLiteral("gc_count"), QStringLiteral("bytes_allocated")}, false));
    return properties;
}

ToolResult timed(const Job &job)
{
    const JobResult &result = job.result;
    ToolResult timed = EvalFormatter::result(result);
    const EngineProtocol::TimingReply reply(result.reply);
    if (!reply.hasTiming())
        return timed;
    const double realMs = double(result.realMicroseconds) / 1000.0;
    const double runMs = double(result.runMicroseconds) / 1000.0;
    const int gcCount = reply.gcCount();
    timed.text += QStringLiteral("\n\n[timing]\nreal time: %1\nrun time: %2\nGC time: %3 (%4 collection%5)\nbytes allocated: %6")
                      .arg(milliseconds(realMs), milliseconds(runMs), milliseconds(reply.gcMs()))
                      .arg(gcCount)
                      .arg(gcCount == 1 ? QString() : QStringLiteral("s"))
                      .arg(grouped().toString(qint64(reply.bytesAllocated())));
    timed.structured.insert(QStringLiteral("timing"), QJsonObject{{QStringLiteral("real_ms"), realMs},
                                                                  {QStringLiteral("run_ms"), runMs},
                                                                  {QStringLiteral("gc_ms"), reply.gcMs()},
                                                                  {QStringLiteral("gc_count"), gcCount},
                                                                  {QStringLiteral("bytes_allocated"), reply.bytesAllocated()}});
    return timed;
}
} // namespace

Tool timeExecutionTool(Session *session, JobHandles *jobs)
{
    ToolSpec spec{
        .name = QStringLiteral("time-execution"),
        .title = QStringLiteral("Time execution"),
        .description = QStringLiteral(
            "evaluate-lisp plus [timing]: real, run and GC time, GC count, bytes allocated. ECL evaluates with its bytecode "
            "compiler: compile functions first to time native code."),
        .arguments = {Code, Package, Description, Timeout, Debug, ToolKit::waitSecondsArgument()},
        .outputProperties = ToolKit::withRunningProperties(outputProperties()),
        .outputRequired = {QStringLiteral("status")},
        .hints = Hints::Destructive,
    };
    return Tool(spec, [session, jobs](const ToolCallPtr &call, const ToolArguments &arguments) {
        JobRequest request = EngineProtocol::timedEvaluation(arguments.text(Code), arguments.text(Package));
        request.description = arguments.text(Description);
        request.debug = arguments.value(Debug, false);
        if (const auto timeout = arguments.value(Timeout))
            request.timeoutMs = int(*timeout * 1000);
        ToolKit::submit(session, jobs, call, request, timed, ToolKit::waitMsOf(arguments));
    });
}

#include "Tools.h"

#include "JobHandles.h"

#include "client/EngineProtocol.h"
#include "EvalFormatter.h"
#include "native/NativeCompilation.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"
#include "ToolKit.h"

#include <QLocale>

namespace {
const auto Code = Arg::string(QStringLiteral("code"), QStringLiteral("Lisp form(s) to evaluate and time")).required(QStringLiteral("the Lisp code to time"));
const auto Package = Arg::string(QStringLiteral("package"), QStringLiteral("Package (default: the current one)"));
const auto Description = Arg::string(QStringLiteral("description"), QStringLiteral("Why: the person sees it"));
const auto Debug = Arg::boolean(QStringLiteral("debug"),
                                QStringLiteral("As evaluate-lisp's"));
const auto AsTyped = Arg::boolean(QStringLiteral("as_typed"), QStringLiteral("Time it as typed (bytecode), not its native version"));
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
                              {QStringLiteral("bytes_allocated"), number(QStringLiteral("Bytes allocated (by every engine thread) during the evaluation"), 0, 1e18)},
                              {QStringLiteral("timed"), stringEnum(QStringLiteral("What the figures are of: the code's native version, or the code as typed (bytecode)"),
                                                                   {QStringLiteral("native"), QStringLiteral("as-typed")})},
                              {QStringLiteral("compile_ms"), number(QStringLiteral("Time spent compiling the code to native code first (not in the figures)"), 0, 1e12)},
                              {QStringLiteral("settle_ms"), number(QStringLiteral("Time spent waiting for the session's definitions to become native first (not in the figures)"), 0, 1e12)},
                              {QStringLiteral("native_note"), nullableString(QStringLiteral("Why the code ran as typed although its native version was asked for; null otherwise"))}},
                             {QStringLiteral("real_ms"), QStringLiteral("run_ms"), QStringLiteral("gc_ms"), QStringLiteral("gc_count"), QStringLiteral("bytes_allocated")}, false));
    return properties;
}

// The [timing] section's last line: which version the figures are of, and what was left out
// of them. `asTyped`: the call asked for the code as typed.
QString whatWasTimed(const EngineProtocol::TimingReply &reply, bool asTyped, const NativeCompilation *native, QString *note)
{
    if (reply.timed() == QStringLiteral("native")) {
        const double compileMs = double(reply.compileMicroseconds()) / 1000.0;
        const double settleMs = double(reply.settleMicroseconds()) / 1000.0;
        QString line = QStringLiteral("timed: the native version (compiling it took %1").arg(milliseconds(compileMs));
        if (settleMs >= 1)
            line += QStringLiteral(", waiting for the session's definitions to become native %1").arg(milliseconds(settleMs));
        return line + QStringLiteral("; not counted)");
    }
    if (reply.timed().isEmpty())
        return {}; // an engine without native code
    if (asTyped)
        return QStringLiteral("timed: as typed (bytecode), as asked; functions it calls run as they are now");
    // Native compilation the host turned off reads as the person's setting, not the engine's switch.
    *note = native && !native->isWanted() ? native->reason() : reply.nativeNote();
    return note->isEmpty() ? QStringLiteral("timed: as typed (bytecode)") : QStringLiteral("timed: as typed (bytecode): %1").arg(*note);
}

ToolResult timed(const Job &job, const NativeCompilation *native)
{
    const JobResult &result = job.result;
    ToolResult timed = EvalFormatter::result(result);
    const EngineProtocol::TimingReply reply(result.reply);
    if (!reply.hasTiming())
        return timed;
    const double realMs = double(result.realMicroseconds) / 1000.0;
    const double runMs = double(result.runMicroseconds) / 1000.0;
    const int gcCount = reply.gcCount();
    QString note;
    const QString what = whatWasTimed(reply, job.request.asTyped, native, &note);
    timed.text += QStringLiteral("\n\n[timing]\nreal time: %1\nrun time: %2\nGC time: %3 (%4 collection%5)\nbytes allocated: %6")
                      .arg(milliseconds(realMs), milliseconds(runMs), milliseconds(reply.gcMs()))
                      .arg(gcCount)
                      .arg(gcCount == 1 ? QString() : QStringLiteral("s"))
                      .arg(grouped().toString(qint64(reply.bytesAllocated())));
    if (!what.isEmpty())
        timed.text += u'\n' + what;
    QJsonObject timing{{QStringLiteral("real_ms"), realMs},
                       {QStringLiteral("run_ms"), runMs},
                       {QStringLiteral("gc_ms"), reply.gcMs()},
                       {QStringLiteral("gc_count"), gcCount},
                       {QStringLiteral("bytes_allocated"), reply.bytesAllocated()}};
    if (!reply.timed().isEmpty()) {
        timing.insert(QStringLiteral("timed"), reply.timed());
        timing.insert(QStringLiteral("compile_ms"), double(reply.compileMicroseconds()) / 1000.0);
        timing.insert(QStringLiteral("settle_ms"), double(reply.settleMicroseconds()) / 1000.0);
        timing.insert(QStringLiteral("native_note"), note.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(note));
    }
    timed.structured.insert(QStringLiteral("timing"), timing);
    return timed;
}
} // namespace

Tool timeExecutionTool(Session *session, JobHandles *jobs, const NativeCompilation *native)
{
    ToolSpec spec{
        .name = QStringLiteral("time-execution"),
        .title = QStringLiteral("Time execution"),
        .description = QStringLiteral(
            "evaluate-lisp plus [timing]: real, run and GC time, GC count, bytes allocated, of the code's native version "
            "(compiled first, not counted; the last line says when it could not be) unless as_typed."),
        .arguments = {Code, Package, AsTyped, Description, Timeout, Debug, ToolKit::waitSecondsArgument()},
        .outputProperties = ToolKit::withRunningProperties(outputProperties()),
        .outputRequired = {QStringLiteral("status")},
        .hints = Hints::Destructive,
    };
    return Tool(spec, [session, jobs, native](const ToolCallPtr &call, const ToolArguments &arguments) {
        JobRequest request = EngineProtocol::timedEvaluation(arguments.text(Code), arguments.text(Package), arguments.value(AsTyped, false));
        request.description = arguments.text(Description);
        request.debug = arguments.value(Debug, false);
        if (const auto timeout = arguments.value(Timeout))
            request.timeoutMs = int(*timeout * 1000);
        ToolKit::submit(session, jobs, call, request, [native](const Job &job) { return timed(job, native); }, ToolKit::waitMsOf(arguments));
    });
}

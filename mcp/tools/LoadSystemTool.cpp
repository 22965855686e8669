#include "Tools.h"

#include "JobHandles.h"

#include "client/EngineProtocol.h"
#include "EvalFormatter.h"
#include "native/LibraryCompilation.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"
#include "ToolKit.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QPointer>
#include <QTimer>

namespace {
const auto System = Arg::string(QStringLiteral("system"), QStringLiteral("ASDF system name, e.g. \"alexandria\""))
                        .required(QStringLiteral("the ASDF system name"))
                        .notBlank(QStringLiteral("must name an ASDF system, but it is empty"));
const auto Force = Arg::boolean(QStringLiteral("force"), QStringLiteral("Recompile its own files even if loaded"));
const auto Timeout = Arg::number(QStringLiteral("timeout_seconds"), QStringLiteral("Time limit (default 300)"), 1, 3600);
const auto Verbose = Arg::boolean(QStringLiteral("verbose"), QStringLiteral("Include the compiler's output"));
const auto UntilNative = Arg::boolean(QStringLiteral("until_native"),
                                      QStringLiteral("Wait for native code"));

// ASDF says 'Component "x" not found'; for the system the agent named, seed 001's wording
// ('System "x" not found.') is clearer and still true.
QString missingMessage(const QString &message)
{
    QString text = message;
    if (text.startsWith(QStringLiteral("Component \"")))
        text.replace(0, 9, QStringLiteral("System"));
    if (!text.endsWith(QLatin1Char('.')))
        text += QLatin1Char('.');
    return text;
}

QJsonObject outputProperties()
{
    using namespace Schema;
    QJsonObject properties = ToolKit::jobStatusProperties();
    properties.insert(QStringLiteral("system"), string(QStringLiteral("The system asked for")));
    properties.insert(QStringLiteral("version"), nullableString(QStringLiteral("The system's version, if it declares one")));
    properties.insert(QStringLiteral("forced"), boolean(QStringLiteral("Whether a reload was forced")));
    properties.insert(QStringLiteral("warnings"), stringArray(QStringLiteral("Warnings signalled while compiling and loading")));
    properties.insert(QStringLiteral("warning_count"), integer(QStringLiteral("Number of warnings"), 0, 2147483647));
    properties.insert(QStringLiteral("compiler_output"), nullableString(QStringLiteral("What the compiler printed (only with verbose)")));
    properties.insert(QStringLiteral("source_file"), nullableString(QStringLiteral("The system's .asd file")));
    properties.insert(QStringLiteral("duration_ms"), number(QStringLiteral("Time the load took"), 0, 1e12));
    const QJsonObject library{
        {QStringLiteral("system"), string(QStringLiteral("The library"))},
        {QStringLiteral("state"), string(QStringLiteral("native, queued, compiling, swapping, partial or bytecode"))},
        {QStringLiteral("compiled"), integer(QStringLiteral("Files compiled natively in the background so far"), 0, 2147483647)},
        {QStringLiteral("total"), integer(QStringLiteral("...of this many"), 0, 2147483647)},
        {QStringLiteral("bytecode_files"), integer(QStringLiteral("Its files running as bytecode now"), 0, 2147483647)},
        {QStringLiteral("native_files"), integer(QStringLiteral("Its files loaded as bytecode that run native now"), 0, 2147483647)},
        {QStringLiteral("sentence"), string(QStringLiteral("What it runs as, and why"))}};
    properties.insert(QStringLiteral("libraries"),
                      objectArray(QStringLiteral("The libraries it loaded: a first load runs as bytecode at once and becomes native in the background"),
                                  library, {QStringLiteral("system"), QStringLiteral("state")}));
    return properties;
}

// Issue 39: what the libraries the load brought in run as, and that bytecode works now.
QString librariesSection(const QList<LibraryCompilation::Library> &libraries)
{
    QStringList lines;
    QStringList native;
    bool busy = false;
    for (const LibraryCompilation::Library &library : libraries) {
        if (library.state == LibraryCompilation::State::Native) {
            native << library.system;
            continue;
        }
        busy = busy || library.isBusy();
        lines << QStringLiteral("- ") + library.sentence();
    }
    if (!native.isEmpty())
        lines << QStringLiteral("- native: %1").arg(native.join(QStringLiteral(", ")));
    if (busy)
        lines << QStringLiteral("Bytecode works now, only slower; it becomes native in the background without a restart "
                                "(project-info tells how far; until_native waits for it).");
    return lines.isEmpty() ? QString() : QStringLiteral("Libraries:\n") + lines.join(QLatin1Char('\n'));
}

ToolResult loaded(const Job &job, const QString &system, bool force, const LibraryCompilation *libraryStates)
{
    const EngineProtocol::LoadSystemReply reply(job.result.reply);
    QJsonObject structured = ToolKit::jobStatus(job.result);
    structured.insert(QStringLiteral("system"), system);
    structured.insert(QStringLiteral("forced"), force);
    structured.insert(QStringLiteral("duration_ms"), double(job.result.realMicroseconds) / 1000.0);
    if (!job.result.ok()) {
        Job shown = job;
        if (shown.result.error.type.endsWith(QStringLiteral("MISSING-COMPONENT"))) {
            shown.result.error.message = missingMessage(shown.result.error.message);
            shown.result.error.backtrace.clear();
        }
        structured.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("type"), shown.result.error.type},
                                                               {QStringLiteral("message"), shown.result.error.message}});
        return ToolResult::error(ToolKit::jobError(shown).text, structured);
    }
    const QStringList warnings = reply.loadWarnings() + job.result.warnings;
    const QString version = reply.version().toString();
    const QString compilerOutput = reply.compilerOutput().toString();
    structured.insert(QStringLiteral("version"), reply.version());
    structured.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(warnings));
    structured.insert(QStringLiteral("warning_count"), warnings.size());
    structured.insert(QStringLiteral("compiler_output"), reply.compilerOutput());
    structured.insert(QStringLiteral("source_file"), reply.sourceFile());
    const QList<EngineProtocol::LibraryEntry> entries = EngineProtocol::libraryEntries(job.result.reply);
    QList<LibraryCompilation::Library> libraries;
    for (const EngineProtocol::LibraryEntry &entry : entries)
        libraries << LibraryCompilation::Library::from(entry);
    if (libraryStates)
        libraries = libraryStates->newest(entries); // what they run as by now
    QJsonArray libraryFields;
    for (const LibraryCompilation::Library &library : std::as_const(libraries))
        libraryFields.append(library.toJson());
    structured.insert(QStringLiteral("libraries"), libraryFields);

    QString text = QStringLiteral("Loading system: %1\nLoaded: %1 (version %2)")
                       .arg(system, version.isEmpty() ? QStringLiteral("unspecified") : version);
    if (force)
        text += QStringLiteral("\nForced a reload of its files.");
    EvalFormatter::appendSection(text, librariesSection(libraries));
    EvalFormatter::appendSection(text, EvalFormatter::warningsSection(warnings));
    EvalFormatter::appendSection(text, EvalFormatter::section(QStringLiteral("compiler output"), compilerOutput.trimmed()));
    EvalFormatter::appendSection(text, EvalFormatter::section(QStringLiteral("output"), (job.result.stdoutText + job.result.stderrText).trimmed()));
    return ToolResult{text, structured, false};
}

// until_native: the call waits for the libraries its load queued, telling k of n files as
// progress, and answers when none compiles any more, or when wait_seconds are over.
void answerWhenNative(const ToolCallPtr &call, const JobPtr &job, const QString &system, bool force, const LibraryCompilation *libraries,
                      Session *session, const QDeadlineTimer &deadline)
{
    QStringList waitingFor;
    for (const EngineProtocol::LibraryEntry &entry : EngineProtocol::libraryEntries(job->result.reply))
        waitingFor << entry.system();
    const auto stillBusy = [libraries, waitingFor] { return !libraries->busyLine(waitingFor).isEmpty(); };
    if (!stillBusy() || call->isFinished()) {
        call->finish(loaded(*job, system, force, libraries));
        return;
    }
    auto *context = new QObject(session);
    const auto answer = [call, job, system, force, libraries, context](bool timedOut) {
        context->deleteLater();
        ToolResult result = loaded(*job, system, force, libraries);
        if (timedOut)
            result.text += QStringLiteral("\n\nStill compiling when wait_seconds ran out; the libraries keep working as bytecode meanwhile.");
        call->finish(result);
    };
    const auto tell = [call, libraries, waitingFor] {
        call->reportProgress(0, QStringLiteral("Compiling natively in the background: %1").arg(libraries->busyLine(waitingFor)));
    };
    tell();
    QObject::connect(libraries, &LibraryCompilation::changed, context, [stillBusy, answer, tell] {
        if (stillBusy())
            tell();
        else
            answer(false);
    });
    QObject::connect(call.data(), &ToolCall::cancelled, context, [context] { context->deleteLater(); });
    QTimer::singleShot(int(qMax<qint64>(0, deadline.remainingTime())), context, [answer] { answer(true); });
}
} // namespace

Tool loadSystemTool(Session *session, JobHandles *jobs, const LibraryCompilation *libraries)
{
    ToolSpec spec{
        .name = QStringLiteral("load-system"),
        .title = QStringLiteral("Load system"),
        .description = QStringLiteral(
            "Load an ASDF system (registry, project root, LISP_DUET_SYSTEM_PATHS; no Quicklisp); the project's own natively "
            "at (debug 3), so their frames show in the debugger. Lists warnings."),
        .arguments = {System, Force, Timeout, Verbose, UntilNative, ToolKit::descriptionArgument(), ToolKit::waitSecondsArgument()},
        .outputProperties = ToolKit::withRunningProperties(outputProperties()),
        .outputRequired = {QStringLiteral("status")},
        .hints = Hints::Idempotent,
        .intent = [](const QJsonObject &arguments) {
            const QString system = arguments.value(QStringLiteral("system")).toString();
            return arguments.value(QStringLiteral("force")).toBool() ? QStringLiteral("load system %1, recompiling its own files").arg(system)
                                                                    : QStringLiteral("load system %1").arg(system);
        },
    };
    return Tool(spec, [session, jobs, libraries](const ToolCallPtr &call, const ToolArguments &arguments) {
        const QString system = arguments.text(System).trimmed();
        const bool force = arguments.value(Force, false);
        JobRequest request = EngineProtocol::systemLoad(system, force, arguments.value(Verbose, false));
        request.timeoutMs = int(arguments.value(Timeout, EngineProtocol::DefaultTimeoutMs / 1000) * 1000);
        request.description = arguments.text(ToolKit::descriptionArgument()); // the transcript names the system itself
        const int waitMs = ToolKit::waitMsOf(arguments);
        ToolKit::Delivery deliver;
        if (libraries && arguments.value(UntilNative, false)) {
            const QDeadlineTimer deadline(waitMs);
            deliver = [call, system, force, libraries, session, deadline](const ToolResult &result, const JobPtr &job) {
                if (!job->result.ok())
                    call->finish(result);
                else
                    answerWhenNative(call, job, system, force, libraries, session, deadline);
            };
        }
        ToolKit::submit(session, jobs, call, request, [system, force, libraries](const Job &job) { return loaded(job, system, force, libraries); },
                        waitMs, deliver);
    });
}

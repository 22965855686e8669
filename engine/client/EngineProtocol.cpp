#include "EngineProtocol.h"

#include "json/JsonTextWriter.h"

#include <QJsonDocument>

#include <algorithm>

QString JobResult::statusName(Status status)
{
    switch (status) {
    case Status::Ok: return QStringLiteral("ok");
    case Status::Error: return QStringLiteral("error");
    case Status::Interrupted: return QStringLiteral("interrupted");
    case Status::TimedOut: return QStringLiteral("timed-out");
    case Status::EngineRestarted: return QStringLiteral("engine-restarted");
    case Status::Cancelled: return QStringLiteral("cancelled");
    case Status::Failed: return QStringLiteral("failed");
    case Status::Parked: return QStringLiteral("parked");
    }
    return {};
}

namespace EngineProtocol {

namespace {
EngineJob job(EngineJob::Kind kind, const QString &code = {}, const QString &package = {})
{
    EngineJob job;
    job.kind = kind;
    job.code = code;
    job.package = package;
    return job;
}

struct KindName
{
    EngineJob::Kind kind;
    QLatin1StringView name;
};
constexpr KindName KindNames[] = {
    {EngineJob::Kind::Evaluate, QLatin1StringView("eval")},
    {EngineJob::Kind::Time, QLatin1StringView("time")},
    {EngineJob::Kind::Compile, QLatin1StringView("compile")},
    {EngineJob::Kind::Macroexpand, QLatin1StringView("macroexpand")},
    {EngineJob::Kind::LoadSystem, QLatin1StringView("load-system")},
    {EngineJob::Kind::RunTests, QLatin1StringView("run-tests")},
    {EngineJob::Kind::InvokeRestart, QLatin1StringView("invoke-restart")},
    {EngineJob::Kind::FrameEvaluation, QLatin1StringView("debugger-eval")},
    {EngineJob::Kind::FrameLook, QLatin1StringView("debugger-frame")},
    {EngineJob::Kind::EditorListen, QLatin1StringView("editor-listen")},
    {EngineJob::Kind::EditorClose, QLatin1StringView("editor-close")},
    {EngineJob::Kind::LoadInit, QLatin1StringView("load-init")},
    {EngineJob::Kind::NativeSettle, QLatin1StringView("native-settle")},
    {EngineJob::Kind::LibraryWarmUp, QLatin1StringView("library-warmup")},
};

bool sendsCode(EngineJob::Kind kind)
{
    using K = EngineJob::Kind;
    return kind == K::Evaluate || kind == K::Time || kind == K::Compile || kind == K::Macroexpand || kind == K::FrameEvaluation;
}
} // namespace

EngineJob evaluation(const QString &code, const QString &package, const EvalOptions &options)
{
    EngineJob request = job(EngineJob::Kind::Evaluate, code, package);
    request.options = options;
    return request;
}

EngineJob timedEvaluation(const QString &code, const QString &package, bool asTyped)
{
    EngineJob request = job(EngineJob::Kind::Time, code, package);
    request.asTyped = asTyped;
    return request;
}

EngineJob compilation(const QString &code, const QString &package)
{
    return job(EngineJob::Kind::Compile, code, package);
}

EngineJob macroexpansion(const QString &code, bool full, const QString &package)
{
    EngineJob request = job(EngineJob::Kind::Macroexpand, code, package);
    request.fullExpansion = full;
    return request;
}

EngineJob systemLoad(const QString &system, bool force, bool verbose)
{
    EngineJob request = job(EngineJob::Kind::LoadSystem);
    request.system = system;
    request.force = force;
    request.verbose = verbose;
    return request;
}

EngineJob testRun(const QString &system, const QString &test)
{
    EngineJob request = job(EngineJob::Kind::RunTests);
    request.system = system;
    request.test = test;
    request.timeoutMs = DefaultTestRunTimeoutMs;
    return request;
}

EngineJob restartInvocation(quint64 target, int level, const QString &restart, const QStringList &arguments)
{
    EngineJob request = job(EngineJob::Kind::InvokeRestart);
    request.target = target;
    request.level = level;
    request.restart = restart;
    request.restartArguments = arguments;
    return request;
}

EngineJob frameEvaluation(quint64 target, int level, int frame, const QString &code)
{
    EngineJob request = job(EngineJob::Kind::FrameEvaluation, code);
    request.target = target;
    request.level = level;
    request.frame = frame;
    return request;
}

EngineJob frameLook(int frame)
{
    EngineJob request = job(EngineJob::Kind::FrameLook);
    request.frame = frame;
    return request;
}

EngineJob editorListen(int port, const QString &secretFile, const QString &descriptorToken)
{
    EngineJob request = job(EngineJob::Kind::EditorListen);
    request.port = port;
    request.file = secretFile;
    request.descriptorToken = descriptorToken;
    return request;
}

EngineJob editorClose()
{
    return job(EngineJob::Kind::EditorClose);
}

EngineJob initFileLoad(const QString &file, int timeLimitMs)
{
    EngineJob request = job(EngineJob::Kind::LoadInit);
    request.file = file;
    request.timeLimitMs = timeLimitMs;
    return request;
}

EngineJob nativeSettling(int timeoutMs, qint64 sinceSerial)
{
    EngineJob request = job(EngineJob::Kind::NativeSettle);
    request.timeLimitMs = timeoutMs;
    request.sinceSerial = sinceSerial;
    return request;
}

EngineJob libraryWarmUp(const QStringList &systems, const QStringList &dependenciesOf)
{
    EngineJob request = job(EngineJob::Kind::LibraryWarmUp);
    request.systems = systems;
    request.dependenciesOf = dependenciesOf;
    return request;
}

std::optional<EngineJob> editorJob(const QJsonObject &request)
{
    const QString op = request.value(QStringLiteral("op")).toString();
    if (op != QLatin1String("eval") && op != QLatin1String("debugger-eval"))
        return std::nullopt;
    std::optional<EngineJob> made = recordedJob(op, request.value(QStringLiteral("code")).toString(),
                                                request.value(QStringLiteral("package")).toString(), request);
    if (made)
        made->editorRequest = request.value(QStringLiteral("editor_request")).toInteger();
    return made;
}

QString operationName(EngineJob::Kind kind)
{
    for (const KindName &known : KindNames) {
        if (known.kind == kind)
            return known.name;
    }
    return {};
}

QJsonObject jobFields(const EngineJob &job)
{
    using K = EngineJob::Kind;
    QJsonObject fields;
    switch (job.kind) {
    case K::Evaluate: {
        QJsonObject options;
        if (job.options.printLength)
            options.insert(QStringLiteral("print_length"), *job.options.printLength);
        if (job.options.printLevel)
            options.insert(QStringLiteral("print_level"), *job.options.printLevel);
        if (job.options.maxOutputChars)
            options.insert(QStringLiteral("max_output_chars"), *job.options.maxOutputChars);
        if (!options.isEmpty())
            fields.insert(QStringLiteral("options"), options);
        break;
    }
    case K::Macroexpand:
        fields.insert(QStringLiteral("full"), job.fullExpansion);
        break;
    case K::LoadSystem:
        fields = {{QStringLiteral("system"), job.system}, {QStringLiteral("force"), job.force}, {QStringLiteral("verbose"), job.verbose}};
        break;
    case K::RunTests:
        fields.insert(QStringLiteral("system"), job.system);
        if (!job.test.isEmpty())
            fields.insert(QStringLiteral("test"), job.test);
        break;
    case K::InvokeRestart:
        fields = {{QStringLiteral("target"), double(job.target)},
                  {QStringLiteral("level"), job.level},
                  {QStringLiteral("restart"), job.restart},
                  {QStringLiteral("arguments"), QJsonArray::fromStringList(job.restartArguments)}};
        if (!job.by.isEmpty())
            fields.insert(QStringLiteral("by"), job.by);
        break;
    case K::FrameEvaluation:
        fields = {{QStringLiteral("target"), double(job.target)}, {QStringLiteral("level"), job.level}, {QStringLiteral("frame"), job.frame}};
        break;
    case K::FrameLook:
        fields.insert(QStringLiteral("frame"), job.frame);
        break;
    case K::EditorListen:
        fields.insert(QStringLiteral("port"), job.port);
        if (!job.descriptorToken.isEmpty())
            fields.insert(QStringLiteral("descriptor_token"), job.descriptorToken);
        if (!job.file.isEmpty())
            fields.insert(QStringLiteral("secret_file"), job.file);
        break;
    case K::LoadInit:
        fields = {{QStringLiteral("file"), job.file}, {QStringLiteral("time_limit_ms"), job.timeLimitMs}};
        break;
    case K::Time:
        if (job.asTyped)
            fields.insert(QStringLiteral("as_typed"), true);
        break;
    case K::NativeSettle:
        fields.insert(QStringLiteral("timeout_ms"), job.timeLimitMs);
        if (job.sinceSerial > 0)
            fields.insert(QStringLiteral("since_serial"), job.sinceSerial);
        break;
    case K::LibraryWarmUp:
        fields = {{QStringLiteral("systems"), QJsonArray::fromStringList(job.systems)},
                  {QStringLiteral("dependencies_of"), QJsonArray::fromStringList(job.dependenciesOf)}};
        break;
    case K::Compile:
    case K::EditorClose:
        break;
    }
    if (job.editorRequest > 0)
        fields.insert(QStringLiteral("editor_request"), job.editorRequest);
    return fields;
}

std::optional<EngineJob> recordedJob(const QString &op, const QString &code, const QString &package, const QJsonObject &fields)
{
    const auto known = std::find_if(std::begin(KindNames), std::end(KindNames), [&op](const KindName &k) { return k.name == op; });
    if (known == std::end(KindNames))
        return std::nullopt;
    EngineJob recorded = job(known->kind, sendsCode(known->kind) ? code : QString(), package);
    const QJsonObject options = fields.value(QStringLiteral("options")).toObject();
    const auto option = [&options](const char *name) -> std::optional<int> {
        const QJsonValue value = options.value(QLatin1String(name));
        return value.isDouble() ? std::optional<int>(value.toInt()) : std::nullopt;
    };
    recorded.options = {option("print_length"), option("print_level"), option("max_output_chars")};
    recorded.fullExpansion = fields.value(QStringLiteral("full")).toBool();
    recorded.system = fields.value(QStringLiteral("system")).toString();
    recorded.force = fields.value(QStringLiteral("force")).toBool();
    recorded.verbose = fields.value(QStringLiteral("verbose")).toBool();
    recorded.test = fields.value(QStringLiteral("test")).toString();
    recorded.target = quint64(fields.value(QStringLiteral("target")).toDouble());
    recorded.level = fields.value(QStringLiteral("level")).toInt();
    recorded.frame = fields.value(QStringLiteral("frame")).toInt(-1);
    const QJsonValue restart = fields.value(QStringLiteral("restart"));
    recorded.restart = restart.isDouble() ? QString::number(restart.toInt()) : restart.toString();
    recorded.restartArguments = toStringList(fields.value(QStringLiteral("arguments")));
    recorded.by = fields.value(QStringLiteral("by")).toString();
    recorded.port = fields.value(QStringLiteral("port")).toInt();
    recorded.file = fields.value(known->kind == EngineJob::Kind::EditorListen ? QStringLiteral("secret_file") : QStringLiteral("file")).toString();
    recorded.timeLimitMs = fields.value(known->kind == EngineJob::Kind::NativeSettle ? QStringLiteral("timeout_ms") : QStringLiteral("time_limit_ms")).toInt();
    recorded.asTyped = fields.value(QStringLiteral("as_typed")).toBool();
    recorded.sinceSerial = fields.value(QStringLiteral("since_serial")).toInteger();
    recorded.systems = toStringList(fields.value(QStringLiteral("systems")));
    recorded.dependenciesOf = toStringList(fields.value(QStringLiteral("dependencies_of")));
    // Not editor_request: a recorded job is run again (replay) long after its editor's request.
    return recorded;
}

QByteArray jobLine(quint64 id, const EngineJob &job, const QString &origin)
{
    // Written field by field: a QJsonObject for this line cost more than the rest of sending it.
    JsonTextWriter line(128 + 3 * job.code.size());
    line.beginObject();
    line.key("id").value(qint64(id)).key("op").value(operationName(job.kind));
    if (sendsCode(job.kind))
        line.key("code").value(job.code);
    if (!job.package.isEmpty())
        line.key("package").value(job.package);
    if (job.debug) {
        line.key("debug").value(true);
        if (!origin.isEmpty()) // who asked, for the person who opens it from their editor
            line.key("origin").value(origin);
    }
    const QJsonObject fields = jobFields(job);
    for (auto it = fields.constBegin(); it != fields.constEnd(); ++it)
        line.key(QLatin1StringView(it.key().toLatin1())).value(it.value());
    line.endObject();
    return line.take();
}

Query completion(const QString &prefix, std::optional<int> limit)
{
    Query query{QStringLiteral("complete"), {{QStringLiteral("prefix"), prefix}}};
    if (limit)
        query.fields.insert(QStringLiteral("options"), QJsonObject{{QStringLiteral("limit"), *limit}});
    return query;
}

Query packageCompletion(const QString &prefix, std::optional<int> limit)
{
    Query query = completion(prefix, limit);
    query.fields.insert(QStringLiteral("what"), QStringLiteral("packages"));
    return query;
}

Query arglist(const QString &name)
{
    return {QStringLiteral("arglist"), {{QStringLiteral("name"), name}}};
}

Query definitions(const QString &package, const QString &pattern)
{
    Query query{QStringLiteral("definitions"), {}};
    if (!package.isEmpty())
        query.fields.insert(QStringLiteral("package"), package);
    if (!pattern.isEmpty())
        query.fields.insert(QStringLiteral("pattern"), pattern);
    return query;
}

Query description(const QString &name, const QString &package)
{
    Query query{QStringLiteral("describe"), {{QStringLiteral("name"), name}}};
    if (!package.isEmpty())
        query.fields.insert(QStringLiteral("package"), package);
    return query;
}

Query apropos(const QString &text, const QString &package, int limit)
{
    Query query{QStringLiteral("apropos"), {{QStringLiteral("text"), text}, {QStringLiteral("options"), QJsonObject{{QStringLiteral("limit"), limit}}}}};
    if (!package.isEmpty())
        query.fields.insert(QStringLiteral("package"), package);
    return query;
}

Query inspection(const QString &resultId, int offset, int limit)
{
    return {QStringLiteral("inspect"),
            {{QStringLiteral("result_id"), resultId},
             {QStringLiteral("options"), QJsonObject{{QStringLiteral("offset"), offset}, {QStringLiteral("limit"), limit}}}}};
}

Query limits(const Limits &limits)
{
    QJsonObject fields{{QStringLiteral("print_length"), limits.printLength},
                       {QStringLiteral("print_level"), limits.printLevel},
                       {QStringLiteral("max_output_chars"), limits.maxOutputChars}};
    if (limits.heapLimitBytes > 0)
        fields.insert(QStringLiteral("heap_limit_bytes"), double(limits.heapLimitBytes));
    return {QStringLiteral("limits"), {{QStringLiteral("limits"), fields}}};
}

Query documentation(const QString &name, const QString &package)
{
    Query query{QStringLiteral("documentation"), {{QStringLiteral("name"), name}}};
    if (!package.isEmpty())
        query.fields.insert(QStringLiteral("package"), package);
    return query;
}

Query projectRoot(const QString &directory)
{
    return {QStringLiteral("project-root"), {{QStringLiteral("root"), directory}}};
}

Query packages(const QStringList &names, const QStringList &characterNames)
{
    QJsonObject fields{{QStringLiteral("names"), QJsonArray::fromStringList(names)}};
    if (!characterNames.isEmpty())
        fields.insert(QStringLiteral("characters"), QJsonArray::fromStringList(characterNames));
    return {QStringLiteral("packages"), fields};
}

Query resolveNames(const QList<NameToResolve> &names, const QStringList &conditions)
{
    QJsonArray list;
    for (const NameToResolve &name : names)
        list.append(QJsonObject{{QStringLiteral("package"), name.package}, {QStringLiteral("name"), name.name}});
    return {QStringLiteral("resolve-names"),
            {{QStringLiteral("names"), list}, {QStringLiteral("conditions"), QJsonArray::fromStringList(conditions)}}};
}

Query editorDrop(qint64 editorRequest, const QString &reason)
{
    return {QStringLiteral("editor-drop"), {{QStringLiteral("editor_request"), editorRequest}, {QStringLiteral("reason"), reason}}};
}

Query nativeCompilation(std::optional<bool> enabled)
{
    Query query{QStringLiteral("native"), {}};
    if (enabled)
        query.fields.insert(QStringLiteral("enabled"), *enabled);
    return query;
}

Query libraries()
{
    return Query{QStringLiteral("libraries"), {}};
}

Query editorMessage(const QString &text, qint64 editor)
{
    Query query{QStringLiteral("editor-message"), {{QStringLiteral("text"), text}}};
    if (editor > 0)
        query.fields.insert(QStringLiteral("editor"), editor);
    return query;
}

QJsonObject queryLine(quint64 id, const Query &query)
{
    QJsonObject line = query.fields;
    line.insert(QStringLiteral("id"), double(id));
    line.insert(QStringLiteral("op"), query.op);
    return line;
}

Query frameInspection(quint64 target, int level, int frame)
{
    return {QStringLiteral("debugger-frame"),
            {{QStringLiteral("target"), double(target)}, {QStringLiteral("level"), level}, {QStringLiteral("frame"), frame}}};
}

QJsonObject interruptLine(quint64 runningJob, bool breakIn, const QString &by)
{
    QJsonObject line{{QStringLiteral("op"), QStringLiteral("interrupt")}, {QStringLiteral("target"), double(runningJob)}};
    if (breakIn) {
        line.insert(QStringLiteral("break"), true);
        line.insert(QStringLiteral("by"), by);
    }
    return line;
}

} // namespace EngineProtocol

#include "EngineMessages.h"

#include <QJsonDocument>

namespace EngineProtocol {

QStringList toStringList(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list << item.toString();
    return list;
}

Incoming Incoming::decode(const QByteArray &line)
{
    Incoming incoming;
    incoming.m_json = QJsonDocument::fromJson(line).object();
    if (incoming.m_json.isEmpty())
        return incoming;
    const QString event = incoming.m_json.value(QStringLiteral("event")).toString();
    if (event == QStringLiteral("output"))
        incoming.m_kind = Kind::Output;
    else if (event == QStringLiteral("ready"))
        incoming.m_kind = Kind::Ready;
    else if (event == QStringLiteral("parked"))
        incoming.m_kind = Kind::Parked;
    else if (event == QStringLiteral("unparked"))
        incoming.m_kind = Kind::Unparked;
    else if (event == QStringLiteral("still-parked"))
        incoming.m_kind = Kind::StillParked;
    else if (event.isEmpty() && incoming.m_json.contains(QStringLiteral("id")))
        incoming.m_kind = Kind::Reply;
    else
        incoming.m_kind = Kind::OtherEvent;
    return incoming;
}

quint64 Incoming::id() const
{
    return quint64(m_json.value(QStringLiteral("id")).toDouble());
}

quint64 ParkedEvent::id() const { return quint64(m_json.value(QStringLiteral("id")).toDouble()); }
int ParkedEvent::level() const { return m_json.value(QStringLiteral("level")).toInt(); }
QString ParkedEvent::conditionType() const { return m_json.value(QStringLiteral("condition_type")).toString(); }
QString ParkedEvent::message() const { return m_json.value(QStringLiteral("message")).toString(); }
QString ParkedEvent::package() const { return m_json.value(QStringLiteral("package")).toString(); }
bool ParkedEvent::isBreak() const { return m_json.value(QStringLiteral("break")).toBool(); }

QList<DebuggerRestart> ParkedEvent::restarts() const
{
    QList<DebuggerRestart> list;
    for (const QJsonValue &item : m_json.value(QStringLiteral("restarts")).toArray()) {
        const QJsonObject r = item.toObject();
        list.append({r.value(QStringLiteral("index")).toInt(), r.value(QStringLiteral("name")).toString(),
                     r.value(QStringLiteral("description")).toString()});
    }
    return list;
}

QList<DebuggerFrame> ParkedEvent::frames() const
{
    QList<DebuggerFrame> list;
    for (const QJsonValue &item : m_json.value(QStringLiteral("frames")).toArray()) {
        const QJsonObject f = item.toObject();
        list.append({f.value(QStringLiteral("index")).toInt(), f.value(QStringLiteral("text")).toString(),
                     f.value(QStringLiteral("locals")).toBool()});
    }
    return list;
}

JobError ParkedEvent::error() const
{
    const QJsonObject e = m_json.value(QStringLiteral("error")).toObject();
    return {e.value(QStringLiteral("type")).toString(), e.value(QStringLiteral("message")).toString(),
            e.value(QStringLiteral("phase")).toString(), toStringList(e.value(QStringLiteral("backtrace")))};
}

quint64 UnparkedEvent::id() const { return quint64(m_json.value(QStringLiteral("id")).toDouble()); }
int UnparkedEvent::level() const { return m_json.value(QStringLiteral("level")).toInt(); }
QString UnparkedEvent::restart() const { return m_json.value(QStringLiteral("restart")).toString(); }

bool leavesALevel(const QJsonObject &reply)
{
    return reply.value(QStringLiteral("continuing")).toBool() || reply.value(QStringLiteral("unwound")).toBool();
}

QString RestartReply::restart() const { return text("restart"); }
int RestartReply::level() const { return int(number("level")); }
bool RestartReply::continuing() const { return flag("continuing"); }

bool FrameReply::found() const { return flag("found"); }
QString FrameReply::message() const { return Reply::text("message"); }
QString FrameReply::text() const { return Reply::text("text"); }
QJsonValue FrameReply::function() const { return field("function"); }
bool FrameReply::localsAvailable() const { return flag("locals_available"); }
QJsonValue FrameReply::note() const { return field("note"); }
QJsonArray FrameReply::arguments() const { return array("arguments"); }
QJsonArray FrameReply::locals() const { return array("locals"); }
QJsonValue FrameReply::source() const { return field("source"); }
QString FrameReply::package() const { return Reply::text("package"); }
QString FrameReply::Variable::name() const { return json.value(QStringLiteral("name")).toString(); }
QString FrameReply::Variable::value() const { return json.value(QStringLiteral("value")).toString(); }
QString FrameReply::Variable::resultId() const { return json.value(QStringLiteral("result_id")).toString(); }

QString ReadyEvent::version() const { return m_json.value(QStringLiteral("version")).toString(); }
QString ReadyEvent::implementation() const { return m_json.value(QStringLiteral("implementation")).toString(); }
QString ReadyEvent::package() const { return m_json.value(QStringLiteral("package")).toString(); }

NativeStatus NativeStatus::from(const QJsonObject &json)
{
    NativeStatus status;
    status.known = json.contains(QStringLiteral("enabled"));
    status.enabled = json.value(QStringLiteral("enabled")).toBool();
    status.available = json.value(QStringLiteral("available")).toBool();
    status.reason = json.value(QStringLiteral("reason")).toString();
    status.pending = json.value(QStringLiteral("pending")).toInt();
    return status;
}

NativeStatus ReadyEvent::native() const { return NativeStatus::from(m_json.value(QStringLiteral("native")).toObject()); }

QString eventName(const QJsonObject &json) { return json.value(QStringLiteral("event")).toString(); }

qint64 NativeDefinition::serial() const { return qint64(json.value(QStringLiteral("serial")).toDouble()); }
QString NativeDefinition::kind() const { return json.value(QStringLiteral("kind")).toString(); }
QString NativeDefinition::package() const { return json.value(QStringLiteral("package")).toString(); }
QString NativeDefinition::name() const { return json.value(QStringLiteral("name")).toString(); }
QStringList NativeDefinition::qualifiers() const { return toStringList(json.value(QStringLiteral("qualifiers"))); }
QStringList NativeDefinition::specializers() const { return toStringList(json.value(QStringLiteral("specializers"))); }
QString NativeDefinition::state() const { return json.value(QStringLiteral("state")).toString(); }
qint64 NativeDefinition::sinceMs() const { return qint64(json.value(QStringLiteral("since_ms")).toDouble()); }
qint64 NativeDefinition::afterMs() const
{
    const QJsonValue after = json.value(QStringLiteral("after_ms"));
    return after.isDouble() ? qint64(after.toDouble()) : -1;
}
quint64 NativeDefinition::job() const { return quint64(json.value(QStringLiteral("job")).toDouble()); }
QString NativeDefinition::reason() const { return json.value(QStringLiteral("reason")).toString(); }
QStringList NativeDefinition::notes() const { return toStringList(json.value(QStringLiteral("notes"))); }

namespace {
QList<NativeDefinition> nativeList(const QJsonValue &array)
{
    QList<NativeDefinition> list;
    for (const QJsonValue &v : array.toArray())
        list.append(NativeDefinition(v));
    return list;
}
} // namespace

QList<NativeDefinition> nativeDefinitions(const QJsonObject &reply) { return nativeList(reply.value(QStringLiteral("native"))); }
QList<NativeDefinition> NativeEvent::definitions() const { return nativeList(m_json.value(QStringLiteral("definitions"))); }
int NativeEvent::pending() const { return m_json.value(QStringLiteral("pending")).toInt(); }
bool NativeEvent::saysUnavailable() const
{
    const QJsonValue available = m_json.value(QStringLiteral("available"));
    return available.isBool() && !available.toBool();
}
QString NativeEvent::reason() const { return m_json.value(QStringLiteral("reason")).toString(); }

quint64 ProgressEvent::id() const { return quint64(m_json.value(QStringLiteral("id")).toDouble()); }
QString ProgressEvent::operation() const { return m_json.value(QStringLiteral("operation")).toString(); }
int ProgressEvent::current() const { return m_json.value(QStringLiteral("current")).toInt(); }
int ProgressEvent::total() const { return m_json.value(QStringLiteral("total")).toInt(); }
QString ProgressEvent::file() const { return m_json.value(QStringLiteral("file")).toString(); }
QString ProgressEvent::message() const { return m_json.value(QStringLiteral("message")).toString(); }

quint64 OutputEvent::id() const { return quint64(m_json.value(QStringLiteral("id")).toDouble()); }
QString OutputEvent::stream() const { return m_json.value(QStringLiteral("stream")).toString(); }
QString OutputEvent::text() const { return m_json.value(QStringLiteral("text")).toString(); }

QJsonObject Reply::failure(const QString &message)
{
    return {{QStringLiteral("status"), QStringLiteral("failed")},
            {QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), message}}}};
}

bool Reply::ok() const { return text("status") == QStringLiteral("ok"); }
bool Reply::failed() const { return text("status") == QStringLiteral("failed"); }
QString Reply::errorType() const { return m_json.value(QStringLiteral("error")).toObject().value(QStringLiteral("type")).toString(); }
QString Reply::errorMessage() const { return m_json.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString(); }
QString Reply::text(const char *name) const
{
    const QJsonValue v = field(name);
    return v.isString() ? v.toString() : QString();
}
QJsonValue Reply::field(const char *name) const { return m_json.value(QLatin1String(name)); }
QJsonArray Reply::array(const char *name) const { return field(name).toArray(); }
bool Reply::flag(const char *name) const { return field(name).toBool(); }
double Reply::number(const char *name) const { return field(name).toDouble(); }

JobResult jobResult(const QJsonObject &json)
{
    JobResult result;
    const QString status = json.value(QStringLiteral("status")).toString();
    result.status = status == QStringLiteral("ok")            ? JobResult::Status::Ok
                    : status == QStringLiteral("error")       ? JobResult::Status::Error
                    : status == QStringLiteral("interrupted") ? JobResult::Status::Interrupted
                                                              : JobResult::Status::Failed;
    result.values = toStringList(json.value(QStringLiteral("values")));
    result.warnings = toStringList(json.value(QStringLiteral("warnings")));
    result.package = json.value(QStringLiteral("package")).toString();
    result.outputDropped = qint64(json.value(QStringLiteral("output_dropped")).toDouble());
    result.realMicroseconds = qint64(json.value(QStringLiteral("real_us")).toDouble());
    result.runMicroseconds = qint64(json.value(QStringLiteral("run_us")).toDouble());
    const QJsonObject error = json.value(QStringLiteral("error")).toObject();
    if (!error.isEmpty()) {
        result.error = {error.value(QStringLiteral("type")).toString(), error.value(QStringLiteral("message")).toString(),
                        error.value(QStringLiteral("phase")).toString(), toStringList(error.value(QStringLiteral("backtrace")))};
    }
    result.reply = json;
    return result;
}

QString EvalReply::resultId() const { return text("result_id"); }

bool TimingReply::hasTiming() const { return m_json.contains(QStringLiteral("bytes_allocated")); }
double TimingReply::gcMs() const { return number("gc_ms"); }
int TimingReply::gcCount() const { return int(number("gc_count")); }
double TimingReply::bytesAllocated() const { return number("bytes_allocated"); }
QString TimingReply::timed() const { return text("timed"); }
qint64 TimingReply::compileMicroseconds() const { return qint64(number("compile_us")); }
qint64 TimingReply::settleMicroseconds() const { return qint64(number("settle_us")); }
QString TimingReply::nativeNote() const { return text("native_note"); }

bool CompileReply::compiled() const { return flag("compiled"); }
QJsonArray CompileReply::forms() const { return array("forms"); }
QJsonArray CompileReply::diagnostics() const { return array("diagnostics"); }
QJsonValue CompileReply::Form::index() const { return json.value(QStringLiteral("index")); }
int CompileReply::Form::line() const { return json.value(QStringLiteral("line")).toInt(); }
QString CompileReply::Form::text() const { return json.value(QStringLiteral("text")).toString(); }
QString CompileReply::Diagnostic::severity() const { return json.value(QStringLiteral("severity")).toString(); }
QJsonValue CompileReply::Diagnostic::form() const { return json.value(QStringLiteral("form")); }
QString CompileReply::Diagnostic::message() const { return json.value(QStringLiteral("message")).toString(); }

QString MacroexpandReply::expansion() const { return text("expansion"); }
bool MacroexpandReply::expanded() const { return flag("expanded"); }
bool MacroexpandReply::full() const { return flag("full"); }

QJsonValue LoadSystemReply::version() const { return field("version"); }
QStringList LoadSystemReply::loadWarnings() const { return toStringList(field("load_warnings")); }
QJsonValue LoadSystemReply::compilerOutput() const { return field("compiler_output"); }
QJsonValue LoadSystemReply::sourceFile() const { return field("source_file"); }

QJsonArray CompletionReply::completions() const { return array("completions"); }
int CompletionReply::total() const { return int(number("total")); }

QString ArglistReply::name() const { return text("name"); }
QString ArglistReply::kind() const { return text("kind"); }
QString ArglistReply::lambdaList() const { return text("lambda_list"); }

bool LookupReply::found() const { return flag("found"); }
QString LookupReply::message() const { return text("message"); }

bool DefinitionsReply::hasDefinitions() const { return m_json.contains(QStringLiteral("definitions")); }
QJsonValue DefinitionsReply::package() const { return field("package"); }
QJsonArray DefinitionsReply::definitions() const { return array("definitions"); }
QString DefinitionsReply::Entry::name() const { return json.value(QStringLiteral("name")).toString(); }
QString DefinitionsReply::Entry::package() const { return json.value(QStringLiteral("package")).toString(); }
QString DefinitionsReply::Entry::symbol() const { return json.value(QStringLiteral("symbol")).toString(); }
QJsonValue DefinitionsReply::Entry::documentation() const { return json.value(QStringLiteral("documentation")); }
QString DefinitionsReply::Entry::kind() const { return json.value(QStringLiteral("kind")).toString(); }

QSet<QString> PackagesReply::features() const
{
    QSet<QString> features;
    for (const QJsonValue &v : array("features"))
        features.insert(v.toString());
    return features;
}

QStringList PackagesReply::unknownCharacterNames() const
{
    return toStringList(array("unknown_characters"));
}

QList<PackageDefinition> PackagesReply::packages() const
{
    QList<PackageDefinition> packages;
    for (const QJsonValue &v : array("packages")) {
        const QJsonObject o = v.toObject();
        PackageDefinition package;
        package.name = o.value(QStringLiteral("name")).toString();
        for (const QJsonValue &n : o.value(QStringLiteral("nicknames")).toArray())
            package.nicknames << n.toString();
        for (const QJsonValue &u : o.value(QStringLiteral("uses")).toArray())
            package.uses << u.toString();
        for (const QJsonValue &e : o.value(QStringLiteral("externals")).toArray())
            package.exports.insert(e.toString());
        const QJsonObject homes = o.value(QStringLiteral("homes")).toObject();
        for (auto it = homes.begin(); it != homes.end(); ++it)
            package.imports.insert(it.key(), it.value().toString());
        packages << package;
    }
    return packages;
}

QList<ResolveNamesReply::Name> ResolveNamesReply::names() const
{
    QList<Name> names;
    for (const QJsonValue &v : array("names")) {
        const QJsonObject o = v.toObject();
        names.append({o.value(QStringLiteral("package")).toString(), o.value(QStringLiteral("name")).toString(),
                      o.value(QStringLiteral("found")).toBool()});
    }
    return names;
}

QList<bool> ResolveNamesReply::conditions() const
{
    QList<bool> holds;
    for (const QJsonValue &v : array("conditions"))
        holds.append(v.toBool());
    return holds;
}

namespace {
QStringList stringList(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &v : value.toArray())
        list << v.toString();
    return list;
}
} // namespace

QString LedgerFacts::Defined::operatorName() const { return json.value(QStringLiteral("operator")).toString(); }
QString LedgerFacts::Defined::kind() const { return json.value(QStringLiteral("kind")).toString(); }
QString LedgerFacts::Defined::package() const { return json.value(QStringLiteral("package")).toString(); }
QString LedgerFacts::Defined::name() const { return json.value(QStringLiteral("name")).toString(); }
QStringList LedgerFacts::Defined::qualifiers() const { return stringList(json.value(QStringLiteral("qualifiers"))); }
QStringList LedgerFacts::Defined::specializers() const { return stringList(json.value(QStringLiteral("specializers"))); }
int LedgerFacts::Defined::start() const { return json.value(QStringLiteral("start")).toInt(); }
int LedgerFacts::Defined::end() const { return json.value(QStringLiteral("end")).toInt(); }
QString LedgerFacts::Defined::readPackage() const { return json.value(QStringLiteral("read_package")).toString(); }
QString LedgerFacts::Defined::replacedFile() const { return json.value(QStringLiteral("replaced_file")).toString(); }
int LedgerFacts::Defined::replacedLine() const { return json.value(QStringLiteral("replaced_line")).toInt(); }

QList<LedgerFacts::Defined> LedgerFacts::defined() const
{
    QList<Defined> list;
    for (const QJsonValue &v : array("defined"))
        list.append(Defined(v));
    return list;
}

QStringList LedgerFacts::loadedFiles() const { return stringList(field("loaded_files")); }
QJsonValue DefinitionsReply::Entry::lambdaList() const { return json.value(QStringLiteral("lambda_list")); }
QJsonValue DefinitionsReply::Entry::value() const { return json.value(QStringLiteral("value")); }
QJsonValue DefinitionsReply::Entry::file() const { return json.value(QStringLiteral("file")); }
int DefinitionsReply::Entry::line() const { return json.value(QStringLiteral("line")).toInt(); }
QString DefinitionsReply::Entry::execution() const { return json.value(QStringLiteral("execution")).toString(); }
qint64 DefinitionsReply::Entry::nativeSinceMs() const { return qint64(json.value(QStringLiteral("native_since_ms")).toDouble()); }
QString DefinitionsReply::Entry::nativeReason() const { return json.value(QStringLiteral("native_reason")).toString(); }

QString TestRunReply::framework() const { return text("framework"); }
QString TestRunReply::system() const { return text("system"); }
QString TestRunReply::test() const { return text("test"); }
int TestRunReply::passed() const { return int(number("passed")); }
int TestRunReply::failed() const { return int(number("failed")); }
int TestRunReply::skipped() const { return int(number("skipped")); }
QString TestRunReply::output() const { return text("output"); }
QString TestRunReply::outcome() const { return text("outcome"); }
QList<TestRunReply::Failure> TestRunReply::failures() const
{
    QList<Failure> list;
    for (const QJsonValue &failure : array("failures"))
        list.append(Failure(failure));
    return list;
}
QString TestRunReply::Failure::test() const { return json.value(QStringLiteral("test")).toString(); }
QString TestRunReply::Failure::form() const { return json.value(QStringLiteral("form")).toString(); }
QJsonValue TestRunReply::Failure::expected() const { return json.value(QStringLiteral("expected")); }
QJsonValue TestRunReply::Failure::actual() const { return json.value(QStringLiteral("actual")); }
QString TestRunReply::Failure::reason() const { return json.value(QStringLiteral("reason")).toString(); }

QString DescribeReply::name() const { return text("name"); }
QJsonValue DescribeReply::package() const { return field("package"); }
QJsonArray DescribeReply::kinds() const { return array("kinds"); }
QJsonValue DescribeReply::lambdaList() const { return field("lambda_list"); }
QJsonValue DescribeReply::functionDocumentation() const { return field("function_documentation"); }
QJsonValue DescribeReply::variableDocumentation() const { return field("variable_documentation"); }
QJsonValue DescribeReply::typeDocumentation() const { return field("type_documentation"); }
QJsonValue DescribeReply::value() const { return field("value"); }
QJsonValue DescribeReply::valueResultId() const { return field("value_result_id"); }
QJsonArray DescribeReply::locations() const { return array("locations"); }
QString DescribeReply::Location::kind() const { return json.value(QStringLiteral("kind")).toString(); }
QString DescribeReply::Location::where() const { return json.value(QStringLiteral("where")).toString(); }
QString DescribeReply::Location::form() const { return json.value(QStringLiteral("form")).toString(); }
QString DescribeReply::Location::file() const { return json.value(QStringLiteral("file")).toString(); }

QString DocumentationReply::name() const { return text("name"); }
QJsonValue DocumentationReply::package() const { return field("package"); }
bool DocumentationReply::isStandard() const { return flag("standard"); }
QStringList DocumentationReply::kinds() const { return toStringList(field("kinds")); }
QJsonValue DocumentationReply::lambdaList() const { return field("lambda_list"); }
QJsonObject DocumentationReply::documentation() const { return field("documentation").toObject(); }

int AproposReply::total() const { return int(number("total")); }
QJsonArray AproposReply::matches() const { return array("matches"); }
QString AproposReply::Match::name() const { return json.value(QStringLiteral("name")).toString(); }
QJsonValue AproposReply::Match::package() const { return json.value(QStringLiteral("package")); }
QStringList AproposReply::Match::kinds() const { return toStringList(json.value(QStringLiteral("kinds"))); }

QJsonValue InspectReply::resultId() const { return field("result_id"); }
QJsonValue InspectReply::kind() const { return field("kind"); }
QJsonValue InspectReply::type() const { return field("type"); }
QJsonValue InspectReply::summary() const { return field("summary"); }
int InspectReply::offset() const { return int(number("offset")); }
int InspectReply::total() const { return int(number("total")); }
QJsonArray InspectReply::elements() const { return array("elements"); }
QJsonObject InspectReply::attributes() const
{
    static const QStringList common{QStringLiteral("id"), QStringLiteral("status"), QStringLiteral("found"), QStringLiteral("result_id"),
                                    QStringLiteral("kind"), QStringLiteral("type"), QStringLiteral("summary"), QStringLiteral("offset"),
                                    QStringLiteral("total"), QStringLiteral("elements")};
    QJsonObject attributes;
    for (auto it = m_json.begin(); it != m_json.end(); ++it) {
        if (!common.contains(it.key()))
            attributes.insert(it.key(), it.value());
    }
    return attributes;
}
QString InspectReply::Element::key() const { return json.value(QStringLiteral("key")).toString(); }
QString InspectReply::Element::value() const { return json.value(QStringLiteral("value")).toString(); }
QString InspectReply::Element::resultId() const { return json.value(QStringLiteral("result_id")).toString(); }
bool InspectReply::Element::isCycle() const { return json.value(QStringLiteral("cycle")).toBool(); }

int LimitsReply::printLength() const { return int(number("print_length")); }
int LimitsReply::printLevel() const { return int(number("print_level")); }
int LimitsReply::maxOutputChars() const { return int(number("max_output_chars")); }
double LimitsReply::heapLimitBytes() const { return number("heap_limit_bytes"); }

} // namespace EngineProtocol

#include "JobReplies.h"

namespace EngineProtocol {

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

QString LedgerFacts::Defined::operatorName() const { return json.value(QStringLiteral("operator")).toString(); }
QString LedgerFacts::Defined::kind() const { return json.value(QStringLiteral("kind")).toString(); }
QString LedgerFacts::Defined::package() const { return json.value(QStringLiteral("package")).toString(); }
QString LedgerFacts::Defined::name() const { return json.value(QStringLiteral("name")).toString(); }
QStringList LedgerFacts::Defined::qualifiers() const { return toStringList(json.value(QStringLiteral("qualifiers"))); }
QStringList LedgerFacts::Defined::specializers() const { return toStringList(json.value(QStringLiteral("specializers"))); }
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

QStringList LedgerFacts::loadedFiles() const { return toStringList(field("loaded_files")); }

QString TestRunReply::framework() const { return text("framework"); }
QString TestRunReply::system() const { return text("system"); }
QString TestRunReply::test() const { return text("test"); }
int TestRunReply::passed() const { return int(number("passed")); }
int TestRunReply::failed() const { return int(number("failed")); }
int TestRunReply::skipped() const { return int(number("skipped")); }
QString TestRunReply::output() const { return text("output"); }
QString TestRunReply::outcome() const { return text("outcome"); }
QString TestRunReply::testOpError() const { return text("test_op_error"); }

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

} // namespace EngineProtocol

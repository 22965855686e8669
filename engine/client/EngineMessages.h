#pragma once

#include "EngineJob.h"
#include "lispsource/LispPackages.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

// What the engine sends, as the host reads it (engine/README.md, "Protocol"): the events, and
// a view over each kind of reply. EngineProtocol.h, which includes this, builds what the host
// sends. A line is parsed once, in Incoming::decode.
namespace EngineProtocol {

// A JSON array of strings (the engine's lists, a job's recorded restart arguments).
QStringList toStringList(const QJsonValue &array);

class Incoming
{
public:
    enum class Kind { Ready, Output, Reply, Parked, Unparked, StillParked, OtherEvent, Unreadable };
    static Incoming decode(const QByteArray &line);

    Kind kind() const { return m_kind; }
    quint64 id() const; // output and replies
    const QJsonObject &json() const { return m_json; }

private:
    Kind m_kind = Kind::Unreadable;
    QJsonObject m_json;
};

// Native code for the session's definitions (issue 30), as a whole: the ready event's "native",
// the reply of the native request (and of native-settle). `reason` says why definitions stay
// interpreted (switched off, or no gcc or ECL headers); empty while they are compiled.
struct NativeStatus
{
    bool known = false;     // the engine said (an engine without native code does not)
    bool enabled = false;   // not switched off (--no-native, LISP_DUET_NATIVE=0, the native request)
    bool available = false; // gcc and ECL's headers are there
    QString reason;
    int pending = 0;        // definitions queued or compiling
    bool isOn() const { return enabled && available; }
    static NativeStatus from(const QJsonObject &json);
};

// {"event":"ready"}: the kernel is loaded.
class ReadyEvent
{
public:
    explicit ReadyEvent(const QJsonObject &json) : m_json(json) {}
    QString version() const;
    QString implementation() const;
    QString package() const;
    NativeStatus native() const;

private:
    QJsonObject m_json;
};

// {"event":"output"}: a chunk of a running job's output.
class OutputEvent
{
public:
    explicit OutputEvent(const QJsonObject &json) : m_json(json) {}
    quint64 id() const;
    QString stream() const; // "stdout" or "stderr"
    QString text() const;

private:
    QJsonObject m_json;
};

// The name of an event ("native", "progress", "editor-request"...), for those who read the
// events EngineClient::otherEvent passes on; empty for a reply.
QString eventName(const QJsonObject &json);

// One definition queued for native code: an entry of a job's reply's "native" and of the
// "native" event's "definitions". States of one serial only move forward (queued, compiling,
// then native, interpreted or superseded); a newer serial is a newer definition.
class NativeDefinition
{
public:
    explicit NativeDefinition(const QJsonValue &v) : json(v.toObject()) {}
    qint64 serial() const;
    QString kind() const;    // function, macro or method
    QString package() const; // the name's home package
    QString name() const;    // "FIB", "(SETF FOO)"
    QStringList qualifiers() const;   // methods, as in a reply's "defined"
    QStringList specializers() const;
    QString state() const;   // queued, compiling, native, interpreted, superseded
    qint64 sinceMs() const;  // Unix ms of the latest state
    qint64 afterMs() const;  // native: from the definition to its native version; -1 otherwise
    quint64 job() const;     // the job that defined it; 0 when unknown
    QString reason() const;  // interpreted or superseded: why
    QStringList notes() const;
    QJsonObject json;
};
// A job's reply: "native", the definitions the job queued.
QList<NativeDefinition> nativeDefinitions(const QJsonObject &reply);

// {"event":"native","definitions","pending",("available":false,"reason")}: what became of
// definitions queued for native code.
class NativeEvent
{
public:
    explicit NativeEvent(const QJsonObject &json) : m_json(json) {}
    QList<NativeDefinition> definitions() const;
    int pending() const;
    bool saysUnavailable() const; // the toolchain went away: reason() says why
    QString reason() const;

private:
    QJsonObject m_json;
};

// {"event":"progress","id","operation","current","total","file","component","message"}: a
// job running ASDF compiles file `current` of `total`; message "compiling file 3 of 12: lists.lisp".
class ProgressEvent
{
public:
    explicit ProgressEvent(const QJsonObject &json) : m_json(json) {}
    quint64 id() const;
    QString operation() const; // "compile-file"
    int current() const;
    int total() const;
    QString file() const;
    QString message() const;

private:
    QJsonObject m_json;
};

// {"event":"parked"}: job `id` stopped at an error (or a break) and waits at `level`.
class ParkedEvent
{
public:
    explicit ParkedEvent(const QJsonObject &json) : m_json(json) {}
    quint64 id() const;
    int level() const;
    QString conditionType() const;
    QString message() const;
    QString package() const;
    bool isBreak() const;
    QList<DebuggerRestart> restarts() const;
    QList<DebuggerFrame> frames() const;
    JobError error() const; // the seed's [ERROR] text: type, message, phase, backtrace

private:
    QJsonObject m_json;
};

// {"event":"unparked"}: control left job `id`'s level; `restart` names the restart an
// invocation chose (empty when the code itself left: a restart of its own, a throw).
class UnparkedEvent
{
public:
    explicit UnparkedEvent(const QJsonObject &json) : m_json(json) {}
    quint64 id() const;
    int level() const;
    QString restart() const;

private:
    QJsonObject m_json;
};

// {"event":"still-parked","id","level","restart","message"}: after an invocation said it was
// continuing, the restart's function returned (or failed) without leaving the level: job `id`
// still waits there. UnparkedEvent reads id, level and restart; `message` says what happened.

// A reply to a job or a query. Nullable fields are QJsonValues (a string or null), so that
// structured tool results can pass them on as they came.
class Reply
{
public:
    explicit Reply(const QJsonObject &json = {}) : m_json(json) {}
    // What the Session answers for a query the engine will not: it is not running, or it died.
    static QJsonObject failure(const QString &message);

    bool ok() const;
    bool failed() const; // the request was refused, or never reached an engine
    QString errorType() const;
    QString errorMessage() const;
    const QJsonObject &json() const { return m_json; }

protected:
    QString text(const char *name) const;
    QJsonValue field(const char *name) const;
    QJsonArray array(const char *name) const;
    bool flag(const char *name) const;
    double number(const char *name) const;

    QJsonObject m_json;
};

// The common part of every job's reply, as the transcript keeps it.
JobResult jobResult(const QJsonObject &reply);

// Why the worker is not waiting for its next request after this reply: an invocation that
// continues a parked job ("continuing"), or a job cut short when control left its level
// ("unwound"). The engine's next word is an "unparked" event.
bool leavesALevel(const QJsonObject &reply);

// invoke-restart: restart (the name chosen), level, continuing.
class RestartReply : public Reply
{
public:
    using Reply::Reply;
    QString restart() const;
    int level() const;
    bool continuing() const;
};

// debugger-frame: found, message?, target, level, frame, text, function (null for a rebuilt
// call of a built-in), locals_available, note (why not, or null), arguments[] and locals[]
// {name, value, result_id?}, source {where: session|file, job?, form?, file?, line?} or null,
// package.
class FrameReply : public Reply
{
public:
    using Reply::Reply;
    bool found() const;
    QString message() const;
    QString text() const;
    QJsonValue function() const;
    bool localsAvailable() const;
    QJsonValue note() const;
    QJsonArray arguments() const;
    QJsonArray locals() const;
    QJsonValue source() const;
    QString package() const;

    struct Variable
    {
        explicit Variable(const QJsonValue &v) : json(v.toObject()) {}
        QString name() const;
        QString value() const;
        QString resultId() const; // empty for primitive values
        QJsonObject json;
    };
};

class EvalReply : public Reply
{
public:
    using Reply::Reply;
    QString resultId() const; // empty unless the primary value is not primitive
};

class TimingReply : public Reply
{
public:
    using Reply::Reply;
    bool hasTiming() const;
    double gcMs() const;
    int gcCount() const;
    double bytesAllocated() const;
    // Issue 30: what was timed ("native", or "as-typed": bytecoded), the time spent compiling
    // the forms and waiting for the session's definitions to become native (neither in the
    // figures), and why it was not the native version when native was asked for.
    QString timed() const;
    qint64 compileMicroseconds() const;
    qint64 settleMicroseconds() const;
    QString nativeNote() const;
};

class CompileReply : public Reply
{
public:
    using Reply::Reply;
    bool compiled() const;
    QJsonArray forms() const;       // {index, line, text}
    QJsonArray diagnostics() const; // {severity, form (index or null), line, source, message}

    // One entry of forms() or diagnostics().
    struct Form
    {
        explicit Form(const QJsonValue &v) : json(v.toObject()) {}
        QJsonValue index() const;
        int line() const;
        QString text() const;
        QJsonObject json;
    };
    struct Diagnostic
    {
        explicit Diagnostic(const QJsonValue &v) : json(v.toObject()) {}
        QString severity() const;
        QJsonValue form() const; // the form's index, or null
        QString message() const;
        QJsonObject json;
    };
};

class MacroexpandReply : public Reply
{
public:
    using Reply::Reply;
    QString expansion() const;
    bool expanded() const;
    bool full() const;
};

// run-tests: counts and every failure in structure (FiveAM), or the captured output of ASDF's
// test-op for other frameworks. Wire fields: framework ("fiveam" | "asdf"), system, test,
// passed, failed, skipped, failures[] {test, form, expected, actual, reason}, output.
class TestRunReply : public Reply
{
public:
    using Reply::Reply;
    QString framework() const;
    QString system() const;
    QString test() const; // the one test asked for; empty for the whole suite
    int passed() const;
    int failed() const;
    int skipped() const;
    QString output() const; // the report the framework printed, as captured
    // "passed", "failed" (a check failed, or the output tells of a failure or an unhandled
    // error), or "unknown" (ASDF's test-op ran and nothing says how it went).
    QString outcome() const;

    struct Failure
    {
        explicit Failure(const QJsonValue &v) : json(v.toObject()) {}
        QString test() const;
        QString form() const;     // the failing check, printed
        QJsonValue expected() const; // null when the framework does not say
        QJsonValue actual() const;
        QString reason() const;
        QJsonObject json;
    };
    QList<Failure> failures() const;
};

class LoadSystemReply : public Reply
{
public:
    using Reply::Reply;
    QJsonValue version() const;
    QStringList loadWarnings() const;
    QJsonValue compilerOutput() const;
    QJsonValue sourceFile() const;
};

class CompletionReply : public Reply
{
public:
    using Reply::Reply;
    QJsonArray completions() const;
    int total() const;
};

class ArglistReply : public Reply
{
public:
    using Reply::Reply;
    QString name() const;
    QString kind() const;
    QString lambdaList() const;
};

// definitions, describe, apropos and inspect say whether they found what they were asked for.
class LookupReply : public Reply
{
public:
    using Reply::Reply;
    bool found() const;
    QString message() const; // why not
};

class DefinitionsReply : public LookupReply
{
public:
    using LookupReply::LookupReply;
    bool hasDefinitions() const;
    QJsonValue package() const;
    QJsonArray definitions() const;

    struct Entry
    {
        explicit Entry(const QJsonValue &v) : json(v.toObject()) {}
        QString name() const;    // printed relative to the session package ("SHAPES:AREA")
        QString package() const; // the symbol's home package
        QString symbol() const;  // the bare symbol name ("AREA")
        QString kind() const; // function, macro, generic-function, variable, constant, class, structure
        QJsonValue documentation() const; // or null
        QJsonValue lambdaList() const;
        QJsonValue value() const;
        // Where it was defined when it came from a file (loaded or compiled); null otherwise.
        QJsonValue file() const;
        int line() const; // 1-based; 0 when unknown
        // Functions, macros and generic functions: "native", "interpreted" or "compiling"
        // (empty for other kinds); since when native (Unix ms, 0 when not), why interpreted.
        QString execution() const;
        qint64 nativeSinceMs() const;
        QString nativeReason() const;
        QJsonObject json;
    };
};

class PackagesReply : public Reply
{
public:
    using Reply::Reply;
    QSet<QString> features() const;            // "ECL", "UNIX", ... (symbols only, no colon)
    QList<PackageDefinition> packages() const; // those of the names asked for that exist
    QStringList unknownCharacterNames() const; // those of the character names asked for ECL refuses
};

class ResolveNamesReply : public Reply
{
public:
    using Reply::Reply;
    struct Name
    {
        QString package; // the symbol's home package; the package asked in when not found
        QString name;
        bool found = false;
    };
    QList<Name> names() const;       // in the order asked
    QList<bool> conditions() const;  // in the order asked
};

// What a job defined and loaded, for the ledger: every job's reply may carry "defined" (the
// top-level defining forms an eval evaluated) and "loaded_files" (source files loaded by LOAD
// or ASDF while it ran). Read from JobResult::reply.
class LedgerFacts : public Reply
{
public:
    using Reply::Reply;
    struct Defined
    {
        explicit Defined(const QJsonValue &v) : json(v.toObject()) {}
        QString operatorName() const; // "defmethod"
        QString kind() const;         // function, macro, generic-function, method, variable, constant,
                                      // class, structure, condition, type
        QString package() const;      // the defined symbol's home package
        QString name() const;         // "AREA", "(SETF FOO)"
        QStringList qualifiers() const;   // methods: ":AROUND", "AND"
        QStringList specializers() const; // methods: "SQUARE", "(EQL :RED)"; trailing Ts left out
        int start() const;            // where the form was read in the job's code, end exclusive
        int end() const;
        QString readPackage() const;  // *package* where the form was read
        // Where the definition it replaced was loaded from, when ECL knows (functions, macros).
        QString replacedFile() const;
        int replacedLine() const;
        QJsonObject json;
    };
    QList<Defined> defined() const;
    QStringList loadedFiles() const;
};

class DescribeReply : public LookupReply
{
public:
    using LookupReply::LookupReply;
    QString name() const;
    QJsonValue package() const;
    QJsonArray kinds() const;
    QJsonValue lambdaList() const;
    QJsonValue functionDocumentation() const;
    QJsonValue variableDocumentation() const;
    QJsonValue typeDocumentation() const;
    QJsonValue value() const;
    QJsonValue valueResultId() const;
    QJsonArray locations() const;

    struct Location
    {
        explicit Location(const QJsonValue &v) : json(v.toObject()) {}
        QString kind() const;
        QString where() const; // session, file or unknown
        QString form() const;
        QString file() const;
        QJsonObject json;
    };
};

class AproposReply : public LookupReply
{
public:
    using LookupReply::LookupReply;
    int total() const;
    QJsonArray matches() const;

    struct Match
    {
        explicit Match(const QJsonValue &v) : json(v.toObject()) {}
        QString name() const;
        QJsonValue package() const;
        QStringList kinds() const;
        QJsonObject json;
    };
};

class InspectReply : public LookupReply
{
public:
    using LookupReply::LookupReply;
    QJsonValue resultId() const;
    QJsonValue kind() const;
    QJsonValue type() const;
    QJsonValue summary() const;
    int offset() const;
    int total() const;
    QJsonArray elements() const;
    // The fields of this kind of object (length, class, lambda_list...), beyond those above.
    QJsonObject attributes() const;

    struct Element
    {
        explicit Element(const QJsonValue &v) : json(v.toObject()) {}
        QString key() const;
        QString value() const;
        QString resultId() const; // empty for primitive values
        bool isCycle() const;
        QJsonObject json;
    };
};

// documentation: found, message?, name, package (null for a package's name), standard (a CL
// symbol), kinds[], lambda_list, documentation {function?, variable?, type?, structure?, setf?,
// compiler-macro?, method-combination?, package?}: only the types that have a docstring.
class DocumentationReply : public LookupReply
{
public:
    using LookupReply::LookupReply;
    QString name() const;
    QJsonValue package() const;
    bool isStandard() const;
    QStringList kinds() const;
    QJsonValue lambdaList() const;
    QJsonObject documentation() const;
};

class LimitsReply : public Reply
{
public:
    using Reply::Reply;
    int printLength() const;
    int printLevel() const;
    int maxOutputChars() const;
    double heapLimitBytes() const;
};

} // namespace EngineProtocol

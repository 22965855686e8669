#pragma once

#include "EngineEvents.h"

#include <QJsonArray>
#include <QJsonObject>

// The engine's replies to jobs (engine/README.md, "Protocol"): Reply, the view every reply
// view builds on (a job's or a query's), what a job came to (jobResult), and a view per kind
// of job (eval, time, compile, macroexpand, run-tests, load-system, the debugger's steps) and
// what a job defined and loaded for the ledger (LedgerFacts).
namespace EngineProtocol {

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
// test-op for other frameworks. Wire fields: framework ("fiveam" | "rt" | "ptester" | "asdf"),
// system, test, passed, failed, skipped, expected_failures, failures[] {test, form, expected,
// actual, reason}, output, test_op_error (what a test-op that refused failures signalled).
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
    // "TYPE: message" of the error a test-op signalled after its tests reported (it refused
    // their failures); empty when none.
    QString testOpError() const;

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

} // namespace EngineProtocol

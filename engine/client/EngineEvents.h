#pragma once

#include "EngineJob.h"

#include <QJsonArray>
#include <QJsonObject>

// What the engine sends on its own (engine/README.md, "Protocol"): a line is parsed once, in
// Incoming::decode; then a view over each kind of event (ready, output, the debugger's parked
// and unparked, the background compiler's native news, a load's progress). The replies are
// read through JobReplies.h and QueryReplies.h; EngineProtocol.h, which includes all three
// (EngineMessages.h), builds what the host sends.
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

} // namespace EngineProtocol

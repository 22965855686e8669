#pragma once

#include "EngineMessages.h"

#include <QList>

// What the engine sends about the person's editor (issue 31; engine/README.md, "The person's
// editor"), as the host reads it: the events EngineClient::otherEvent delivers whole, and the
// replies of editor-listen and load-init. Beside EngineMessages.h, which it extends.
namespace EngineProtocol {

// {"event":"editor-connected"}: an editor sent the secret and is served.
class EditorConnectedEvent
{
public:
    explicit EditorConnectedEvent(const QJsonObject &json) : m_json(json) {}
    qint64 editor() const;   // the engine's number for the connection
    QString peer() const;    // "127.0.0.1:53422"
    qint64 pid() const;      // the process at the other end, 0 when unknown
    QString command() const; // its command ("emacs"), when it is this user's; else empty

private:
    QJsonObject m_json;
};

// {"event":"editor-refused"}: a client that did not send the secret (in time) was closed.
class EditorRefusedEvent
{
public:
    explicit EditorRefusedEvent(const QJsonObject &json) : m_json(json) {}
    QString peer() const;
    QString reason() const;

private:
    QJsonObject m_json;
};

// {"event":"editor-disconnected"}: the editor's connection closed; `dropped` are its requests
// no job had begun for (the engine forgot them: their queued jobs must not run).
class EditorDisconnectedEvent
{
public:
    explicit EditorDisconnectedEvent(const QJsonObject &json) : m_json(json) {}
    qint64 editor() const;
    QList<qint64> dropped() const;

private:
    QJsonObject m_json;
};

// {"event":"editor-request"}: the editor asked for work that evaluates or defines; the host
// queues job() for it.
class EditorRequestEvent
{
public:
    explicit EditorRequestEvent(const QJsonObject &json) : m_json(json) {}
    qint64 editorRequest() const;
    qint64 editor() const;
    QString kind() const; // listener-eval, interactive-eval, compile-string, compile-file...
    // The job it asks for (EngineProtocol::editorJob of its "request"); nullopt when it asks for
    // something the host does not know.
    std::optional<EngineJob> job() const;

private:
    QJsonObject m_json;
};

// {"event":"editor-restart"}: SLDB's choice of a restart for a parked job, for the host to invoke.
class EditorRestartEvent
{
public:
    explicit EditorRestartEvent(const QJsonObject &json) : m_json(json) {}
    qint64 editor() const;
    quint64 target() const; // the parked job
    int level() const;
    int restart() const;    // its index
    QString restartName() const;

private:
    QJsonObject m_json;
};

// {"event":"editor-interrupt"}: the editor's C-c C-c for one of its requests.
class EditorInterruptEvent
{
public:
    enum class State { Queued, Running, Parked, Unknown };
    explicit EditorInterruptEvent(const QJsonObject &json) : m_json(json) {}
    qint64 editor() const;
    qint64 editorRequest() const;
    State state() const;

private:
    QJsonObject m_json;
};

// editor-listen: where Swank listens.
class EditorListenReply : public Reply
{
public:
    using Reply::Reply;
    QString address() const; // "127.0.0.1"
    int port() const;
    QString secretFile() const;
    QString swankVersion() const;
    int loadMs() const;
};

// load-init: as eval's, plus the file and whether it loaded or ran out of time.
class InitFileReply : public Reply
{
public:
    using Reply::Reply;
    QString file() const;
    bool loaded() const;   // false: no such file, or it failed
    bool timedOut() const;
    // The settings it changed for every later evaluation, "NAME = VALUE" ("*BREAK-ON-SIGNALS*
    // = ERROR"), those of the debugger first (what may make later errors stop the engine).
    QStringList changedSettings() const;
    static bool isDebuggerSetting(const QString &setting);
};

} // namespace EngineProtocol

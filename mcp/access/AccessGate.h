#pragma once

#include "AccessMode.h"
#include "project/FileChange.h"
#include "toolapi/Tool.h"

#include <QList>
#include <QObject>
#include <functional>

class McpServer;
class McpPeer;
class ProjectFiles;

// Agent access, the one gate of every mode of the app (window, tray, --headless, --stdio, the
// app lisp-duet-bridge --launch starts): which tool calls run, which wait for the person's
// approval, which are refused (the mode and its rules: AccessMode.h). It is McpServer's call
// gate and ProjectFiles' change gate; app/core's AppServices owns it and sets its mode from the
// settings (or --access).
// In Ask mode the person answers in the window when one observes the gate (the approval bar
// shows pending() and calls approve()/deny()); without a window the agent's client asks them
// (MCP elicitation, ClientElicitation), and a client that cannot is refused with how to allow it.
// Each call or change that waits tells its request's trace (RequestTrace::awaitPerson), so the
// Tool calls panel shows it awaiting approval and counts the wait apart from the run.
class AccessGate : public QObject
{
    Q_OBJECT
public:
    // Where the person answers in Ask mode.
    enum class Asking {
        ThroughTheClient, // no window: MCP elicitation, the diff or the code in the question
        InTheWindow,      // a window observes pending() and decides
    };

    // A call, or a proposed file change (isChange), held until the person decides.
    struct Pending
    {
        ToolCallPtr call; // null for a file change
        bool isChange = false;
        FileChange change;
        QString clientName;
        QString toolName;
        QString description; // the agent's reason, if it gave one
        QString code;        // what it wants to evaluate (empty for tools without code)
        QString intent;      // what the call will do, in words (Tool::intent): shown when there is no code
        std::function<void(const QString &refusal)> proceed;
    };

    explicit AccessGate(QObject *parent = nullptr);

    // Becomes the server's call gate, and its calls ask the person at their client through
    // ClientElicitation.
    void install(McpServer *server);
    // Becomes files' change gate: Allow writes, Ask waits for the person (who sees the diff),
    // Read-only refuses, Paused holds the change until access is resumed. The person's own
    // changes are never held.
    void install(ProjectFiles *files);

    AccessMode mode() const { return m_mode; }
    void setMode(AccessMode mode);
    Asking asking() const { return m_asking; }
    void setAsking(Asking asking) { m_asking = asking; }

    const QList<Pending> &pending() const { return m_pending; }
    // File changes held while access is paused; the next mode decides them.
    int heldCount() const { return int(m_held.size()); }
    // Decide the oldest pending call. A denial may carry the person's reason: the agent reads it.
    void approve();
    void deny(const QString &reason = {});

    // A call the gate refused: by the mode (Read-only, Paused) or by the person's denial.
    // The window's transcript shows each, where the agent's calls appear.
    struct Refusal
    {
        Origin origin;      // whose call
        QString tool;
        QString description; // the agent's why, if it gave one
        QString what;        // the code, or what it would have done (Tool::intent)
        QString sentence;    // what the agent reads
        bool denied = false; // the person said no (else the mode refused it)
        QString reason;      // the person's words with a denial
    };

    // The gates themselves; public so tests can drive them without a server.
    void gate(McpPeer *peer, Tool *tool, const ToolCallPtr &call, std::function<void(const QString &)> proceed);
    void changeGate(const FileChange &change, std::function<void(const QString &)> decide);

    // What the person is asked through the client: who wants to do what, and the code or the diff.
    static QString question(const Pending &pending);

Q_SIGNALS:
    void modeChanged(AccessMode mode);
    void pendingChanged();
    void refused(const AccessGate::Refusal &refusal);

private:
    void decide(bool approved, const QString &reason = {});
    void tellRefused(const Pending &pending, const ToolCallPtr &call, const QString &sentence, bool denied, const QString &reason = {});
    void dropFinished();
    void decideChange(Pending pending);
    // Ask mode without a window: the person answers through `call`'s client.
    void askThroughTheClient(ToolCall *call, const Pending &pending);

    AccessMode m_mode = AccessMode::Allow;
    Asking m_asking = Asking::ThroughTheClient;
    QList<Pending> m_pending;
    QList<Pending> m_held; // file changes proposed while paused
};

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

    // An agent hosted in the window asks before one of its tool calls (ACP's
    // session/request_permission, issue 38): what the call would do and the options the agent
    // offers. Plain data: the gate knows nothing of ACP (mcp/agenthost makes these).
    struct AgentPermission
    {
        struct Option
        {
            QString id;
            QString name; // the agent's words: "Yes, and don't ask again for Evaluate-Lisp commands"
            QString kind; // allow_once, allow_always, reject_once, reject_always
            bool allows() const { return kind.startsWith(QLatin1String("allow")); }
        };
        Origin origin;     // the agent, as the transcript names it
        QString title;     // the tool call's title
        QString toolKind;  // read, edit, delete, move, execute, other...
        QString toolName;  // the Lisp Duet tool it would call (evaluate-lisp), when it is one
        QString code;      // the code, the command or the arguments, to show
        QList<FileChange> changes; // the files it would change, each with its diff
        QList<Option> options;
        // Read-only rejects it at once: an edit, delete, move or execute, or a Lisp Duet tool
        // that is not read-only.
        bool changesSomething = false;
        // The answer, once: the option chosen (by the person, or the reject option the mode
        // chose; an empty id when no option fits: the agent is to be told `cancelled`), and with
        // a rejection the sentence the agent is to read (the mode's reason, or the person's
        // words in AccessModes::permissionDeniedMessage; empty when they gave none).
        std::function<void(const QString &optionId, const QString &reason)> answer;

        const Option *firstOf(bool allows) const;
    };

    // A call, a proposed file change (isChange) or an agent's permission request (isPermission),
    // held until the person decides.
    struct Pending
    {
        ToolCallPtr call; // null for a file change and a permission
        bool isChange = false;
        FileChange change;
        bool isPermission = false;
        quint64 permissionId = 0;
        AgentPermission permission;
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
    // File changes and agents' permission requests held while access is paused; the next mode
    // decides them.
    int heldCount() const { return int(m_held.size()); }
    // Decide the oldest pending call. A denial may carry the person's reason: the agent reads it.
    // For a permission request, approve() chooses its first allowing option and deny() its first
    // rejecting one.
    void approve();
    void deny(const QString &reason = {});

    // An agent's permission request follows the mode: Read-only rejects one that changes
    // something at once (with its reject option, the reason refused() shows and the agent is
    // told); Paused holds it until access resumes; Allow and Ask put it before the person
    // (the agent's own mode chose to ask). Returns its id, for withdrawPermission.
    quint64 askPermission(AgentPermission permission);
    // The person's choice of one of its options, for the oldest pending item when it is a
    // permission request; a rejection may carry their reason.
    void choose(const QString &optionId, const QString &reason = {});
    // The agent no longer waits (Stop answered it `cancelled`, it exited): it leaves the queue
    // unanswered.
    void withdrawPermission(quint64 id);

    // Ask mode: a call the person already allowed where the agent asked (a hosted agent's
    // permission for the very tool call this MCP request belongs to) runs without a second
    // question. The function says how it was allowed, in words, or nothing. Read-only and
    // Paused still refuse it.
    using ApprovedElsewhere = std::function<QString(const ToolCall &call)>;
    void setApprovedElsewhere(ApprovedElsewhere check) { m_approvedElsewhere = std::move(check); }

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
        QString path;        // a file change's (the project's relative path); empty for a call
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
    void decidePermission(Pending pending);
    void answerPermission(const Pending &pending, const QString &optionId, const QString &reason, bool byThePerson);
    void tellRefused(const Pending &pending, ToolCall *call, const QString &sentence, bool denied, const QString &reason = {});
    void dropFinished();
    void decideChange(Pending pending);
    // Ask mode without a window: the person answers through `call`'s client.
    void askThroughTheClient(ToolCall *call, const Pending &pending);

    AccessMode m_mode = AccessMode::Allow;
    Asking m_asking = Asking::ThroughTheClient;
    QList<Pending> m_pending;
    QList<Pending> m_held; // file changes and permission requests that came while paused
    quint64 m_nextPermission = 1;
    ApprovedElsewhere m_approvedElsewhere;
};

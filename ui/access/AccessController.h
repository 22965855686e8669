#pragma once

#include "AccessMode.h"
#include "FileChange.h"
#include "Tool.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <functional>

class McpServer;
class McpPeer;
class ProjectFiles;

// Agent access, as the person sets it in the toolbar or the tray: which tool calls run, which
// wait for the person's approval, which are refused (the mode and its rules: mcp/AccessMode.h).
// Widget-free: it installs itself as the McpServer's call gate and as ProjectFiles' change gate
// and keeps the queue of calls and file changes awaiting approval; the approval bar and the
// menus only call approve()/deny()/setMode().
class AccessController : public QObject
{
    Q_OBJECT
public:
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
        std::function<void(const QString &refusal)> proceed;
    };

    explicit AccessController(QObject *parent = nullptr);

    void install(McpServer *server);
    // Becomes files' change gate: Allow writes, Ask waits for the person (who sees the diff),
    // Read-only refuses, Paused holds the change until access is resumed. The person's own
    // changes are never held.
    void install(ProjectFiles *files);

    AccessMode mode() const { return m_mode; }
    void setMode(AccessMode mode);

    const QList<Pending> &pending() const { return m_pending; }
    // File changes held while access is paused; the next mode decides them.
    int heldCount() const { return int(m_held.size()); }
    // Decide the oldest pending call.
    void approve();
    void deny();

    // The gate itself; public so tests can drive it without a server.
    void gate(McpPeer *peer, Tool *tool, const ToolCallPtr &call, std::function<void(const QString &)> proceed);
    void changeGate(const FileChange &change, std::function<void(const QString &)> decide);

Q_SIGNALS:
    void modeChanged(AccessMode mode);
    void pendingChanged();
    void callAwaitingApproval(const ToolCallPtr &call);
    void changeAwaitingApproval(const FileChange &change);

private:
    void decide(bool approved);
    void dropFinished();
    void decideChange(Pending pending);

    AccessMode m_mode = AccessMode::Allow;
    QList<Pending> m_pending;
    QList<Pending> m_held; // file changes proposed while paused
};

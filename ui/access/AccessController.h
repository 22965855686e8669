#pragma once

#include "AccessMode.h"
#include "Tool.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <functional>

class McpServer;
class McpPeer;

// Agent access, as the person sets it in the toolbar or the tray: which tool calls run, which
// wait for the person's approval, which are refused (the mode and its rules: mcp/AccessMode.h).
// Widget-free: it installs itself as the McpServer's call gate and keeps the queue of calls
// awaiting approval; the approval bar and the menus only call approve()/deny()/setMode().
class AccessController : public QObject
{
    Q_OBJECT
public:
    // A call held until the person decides.
    struct Pending
    {
        ToolCallPtr call;
        QString clientName;
        QString toolName;
        QString description; // the agent's reason, if it gave one
        QString code;        // what it wants to evaluate (empty for tools without code)
        std::function<void(const QString &refusal)> proceed;
    };

    explicit AccessController(QObject *parent = nullptr);

    void install(McpServer *server);

    AccessMode mode() const { return m_mode; }
    void setMode(AccessMode mode);

    const QList<Pending> &pending() const { return m_pending; }
    // Decide the oldest pending call.
    void approve();
    void deny();

    // The gate itself; public so tests can drive it without a server.
    void gate(McpPeer *peer, Tool *tool, const ToolCallPtr &call, std::function<void(const QString &)> proceed);

Q_SIGNALS:
    void modeChanged(AccessMode mode);
    void pendingChanged();
    void callAwaitingApproval(const ToolCallPtr &call);

private:
    void decide(bool approved);
    void dropFinished();

    AccessMode m_mode = AccessMode::Allow;
    QList<Pending> m_pending;
};

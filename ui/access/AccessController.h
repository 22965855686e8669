#pragma once

#include "Tool.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <functional>

class McpServer;
class McpPeer;

// Agent access, as the person sets it in the toolbar or the tray: which tool calls run, which
// wait for the person's approval, which are refused. Widget-free: it installs itself as the
// McpServer's call gate and keeps the queue of calls awaiting approval; the approval bar and
// the menus only call approve()/deny()/setMode().
class AccessController : public QObject
{
    Q_OBJECT
public:
    enum class Mode { Allow, Ask, ReadOnly, Paused };
    Q_ENUM(Mode)

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

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);
    static QString modeName(Mode mode);        // "Allow", "Ask", "Read-only", "Paused"
    static QString modeDescription(Mode mode); // a sentence for tooltips

    const QList<Pending> &pending() const { return m_pending; }
    // Decide the oldest pending call.
    void approve();
    void deny();

    // The sentences agents read when a call is refused.
    static QString deniedMessage(const QString &tool);
    static QString readOnlyMessage(const QString &tool);
    static QString pausedMessage();

    // The gate itself; public so tests can drive it without a server.
    void gate(McpPeer *peer, Tool *tool, const ToolCallPtr &call, std::function<void(const QString &)> proceed);

Q_SIGNALS:
    void modeChanged(AccessController::Mode mode);
    void pendingChanged();
    void callAwaitingApproval(const ToolCallPtr &call);

private:
    void decide(bool approved);
    void dropFinished();

    Mode m_mode = Mode::Allow;
    QList<Pending> m_pending;
};

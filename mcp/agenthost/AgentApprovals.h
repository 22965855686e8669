#pragma once

#include "acp/AcpTypes.h"
#include "toolapi/RequestTrace.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

class AccessGate;
class AgentSession;
class ChatJournal;
class McpServer;
class PermissionRequest;
class ToolCall;
class ToolRegistry;

// The hosted agent's permission requests and Lisp Duet's access gate as one decision (issue
// 38). Each session/request_permission becomes a pending item of the gate (the window's
// approval bar: the agent's options, the call's code or the diffs of the files it would change);
// the access mode still rules (Read-only rejects one that would change something at once, Paused
// holds it). When the person allows a call of one of Lisp Duet's tools, the MCP tools/call that
// carries that tool call's id (`_meta["claudecode/toolUseId"]`) passes the gate without a
// second question (once: that call; always: every call of that tool in this session); any other
// call asks as before. Each MCP request of a chat row is tied to it (RequestTrace::tieToChat,
// toolCallTraced for the panel). A rejection's reason reaches the agent as the person's next
// message, sent when the turn ends (ACP's outcome has no field for it), so it shows in the chat;
// not after Stop, and not twice in a row without the person writing (an agent refused again in
// the turn the reason started would loop): the chat then says what was not sent.
class AgentApprovals : public QObject
{
    Q_OBJECT
public:
    AgentApprovals(AccessGate *access, McpServer *server, ToolRegistry *tools, QObject *parent = nullptr);
    ~AgentApprovals() override;

    // The agent's name for the person ("Claude Code"), the name Lisp Duet's MCP server was
    // handed under ("lisp-duet"), and the project root (diff paths are shown relative to it).
    void setAgent(const QString &agent, const QString &serverName, const QString &projectRoot);
    void setChatJournal(ChatJournal *journal) { m_journal = journal; }
    // Serves this session's permission requests from now on (nullptr: none). Grants of an
    // earlier session do not carry over.
    void follow(AgentSession *session);

    // What the one-decision rule says of an MCP call: how the person allowed it in the chat, or
    // nothing (AccessGate::setApprovedElsewhere).
    QString approvalOf(const ToolCall &call);
    // The rejection reasons waiting for the turn's end.
    QStringList pendingReasons() const { return m_reasons; }

Q_SIGNALS:
    // An MCP request of Lisp Duet's that serves a chat row: the panel shows it in that row.
    void toolCallTraced(const QString &toolCallId, RequestTrace *trace);

private:
    void ask(PermissionRequest *request);
    void answered(const QString &toolCallId, const QString &tool, const QList<Acp::PermissionOption> &options, const QString &optionId,
                  const QString &told);
    void withdrawAll();
    void onTraced(const RequestTracePtr &trace);
    void sendReasons(const QString &stopReason);

    AccessGate *m_access;
    ToolRegistry *m_tools;
    ChatJournal *m_journal = nullptr; // the host's, which outlives this
    QPointer<AgentSession> m_session;
    QString m_agent;
    QString m_serverName;
    QString m_root;
    QHash<QString, QString> m_allowedOnce; // tool call id -> the Lisp Duet tool it was allowed for
    QSet<QString> m_allowedAlways;         // Lisp Duet tools allowed for the rest of the session
    QHash<QString, RequestTracePtr> m_traces; // kept as long as the session, for the panel's rows
    QStringList m_reasons;
    QSet<quint64> m_asked; // the gate's ids of the requests still before the person
    bool m_speaking = false;          // the next turn is one Lisp Duet starts with reasons
    bool m_spokeForThePerson = false; // the turn going on was
};

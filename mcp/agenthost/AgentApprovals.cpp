#include "AgentApprovals.h"

#include "ChatJournal.h"
#include "ToolCallText.h"

#include "access/AccessGate.h"
#include "acp/AgentSession.h"
#include "project/UnifiedDiff.h"
#include "server/McpServer.h"
#include "toolapi/Tool.h"
#include "toolapi/ToolRegistry.h"

#include <QDir>

namespace {
// Kinds of tool call that change something outside the conversation: Read-only rejects them.
bool kindChanges(const QString &kind)
{
    return kind == QLatin1String("edit") || kind == QLatin1String("delete") || kind == QLatin1String("move")
        || kind == QLatin1String("execute");
}

// "allowed once", "allowed for the rest of the session", "rejected", for the journal.
QString decisionWords(const QString &optionKind, const QString &optionName)
{
    if (optionKind == QLatin1String("allow_once"))
        return QStringLiteral("allowed once");
    if (optionKind == QLatin1String("allow_always"))
        return QStringLiteral("allowed for the rest of the conversation (%1)").arg(optionName);
    if (optionKind.startsWith(QLatin1String("reject")))
        return QStringLiteral("rejected");
    return QStringLiteral("cancelled");
}
} // namespace

AgentApprovals::AgentApprovals(AccessGate *access, McpServer *server, ToolRegistry *tools, QObject *parent)
    : QObject(parent), m_access(access), m_tools(tools)
{
    connect(server, &McpServer::requestTraced, this, &AgentApprovals::onTraced);
    m_access->setApprovedElsewhere([self = QPointer<AgentApprovals>(this)](const ToolCall &call) {
        return self ? self->approvalOf(call) : QString();
    });
}

AgentApprovals::~AgentApprovals()
{
    withdrawAll();
    m_access->setApprovedElsewhere({});
}

void AgentApprovals::withdrawAll()
{
    for (quint64 id : std::exchange(m_asked, {}))
        m_access->withdrawPermission(id);
}

void AgentApprovals::setAgent(const QString &agent, const QString &serverName, const QString &projectRoot)
{
    m_agent = agent;
    m_serverName = serverName;
    m_root = projectRoot;
}

void AgentApprovals::follow(AgentSession *session)
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    withdrawAll();
    m_session = session;
    m_allowedOnce.clear();
    m_allowedAlways.clear();
    m_traces.clear();
    m_reasons.clear();
    m_speaking = m_spokeForThePerson = false;
    if (!session)
        return;
    connect(session, &AgentSession::permissionRequested, this, &AgentApprovals::ask);
    connect(session, &AgentSession::turnStarted, this, [this] { m_spokeForThePerson = std::exchange(m_speaking, false); });
    // After the journal has written the turn's end: the reasons start the next turn.
    connect(session, &AgentSession::turnEnded, this, &AgentApprovals::sendReasons, Qt::QueuedConnection);
}

void AgentApprovals::ask(PermissionRequest *request)
{
    const Acp::ToolCall &call = request->toolCall();
    AccessGate::AgentPermission permission;
    permission.origin = Origin::agent(m_agent, QStringLiteral("acp:") + m_agent);
    permission.title = call.title.isEmpty() ? call.id : call.title;
    permission.toolKind = call.kind;
    permission.toolName = ToolCallText::lispDuetTool(call, m_serverName);
    permission.code = ToolCallText::input(call);
    for (const Acp::ToolCallContent &diff : call.diffs()) {
        FileChange change;
        change.absolutePath = diff.path;
        const QString relative = m_root.isEmpty() ? QString() : QDir(m_root).relativeFilePath(diff.path);
        change.path = relative.isEmpty() || relative.startsWith(QLatin1String("..")) ? diff.path : relative;
        change.origin = permission.origin;
        change.created = !diff.oldText.has_value();
        change.before = diff.oldText.value_or(QString());
        change.after = diff.newText;
        change.diff = UnifiedDiff::between(change.path, change.before, change.after);
        permission.changes << change;
    }
    if (!permission.changes.isEmpty() && call.rawInput.toObject().isEmpty())
        permission.code.clear(); // the diff says it all
    for (const Acp::PermissionOption &option : request->options())
        permission.options << AccessGate::AgentPermission::Option{option.id, option.name, option.kind};
    const Tool *tool = permission.toolName.isEmpty() ? nullptr : m_tools->find(permission.toolName);
    // A tool of ours that is not read-only changes the session; one we do not know might.
    permission.changesSomething = kindChanges(call.kind) || (!permission.toolName.isEmpty() && (!tool || !tool->isReadOnly()));
    const QPointer<PermissionRequest> pending(request);
    const QString toolCallId = call.id;
    const QString toolName = permission.toolName;
    const QList<Acp::PermissionOption> options = request->options();
    const auto id = std::make_shared<quint64>(0);
    permission.answer = [self = QPointer<AgentApprovals>(this), pending, toolCallId, toolName, options, id](const QString &optionId,
                                                                                                     const QString &told) {
        if (self) {
            self->m_asked.remove(*id);
            self->answered(toolCallId, toolName, options, optionId, told);
        }
        if (!pending)
            return;
        if (optionId.isEmpty() || !pending->select(optionId))
            pending->cancel();
    };
    *id = m_access->askPermission(std::move(permission));
    // Stop answered it `cancelled`, the agent withdrew it or went away: it leaves the bar.
    if (pending && pending->isPending()) {
        m_asked.insert(*id);
        connect(request, &PermissionRequest::finished, this, [this, id] {
            m_asked.remove(*id);
            m_access->withdrawPermission(*id);
        });
    }
}

void AgentApprovals::answered(const QString &toolCallId, const QString &tool, const QList<Acp::PermissionOption> &options,
                              const QString &optionId, const QString &told)
{
    const auto chosen = std::find_if(options.cbegin(), options.cend(), [&](const Acp::PermissionOption &o) { return o.id == optionId; });
    const QString optionKind = chosen == options.cend() ? QString() : chosen->kind;
    if (m_journal)
        m_journal->noteDecision(toolCallId, decisionWords(optionKind, chosen == options.cend() ? QString() : chosen->name)
                                                + (told.isEmpty() ? QString() : QStringLiteral(": ") + told));
    if (optionKind == QLatin1String("allow_once") && !tool.isEmpty())
        m_allowedOnce.insert(toolCallId, tool);
    else if (optionKind == QLatin1String("allow_always") && !tool.isEmpty())
        m_allowedAlways.insert(tool);
    if (!told.isEmpty())
        m_reasons << told;
}

QString AgentApprovals::approvalOf(const ToolCall &call)
{
    const QString id = RequestTrace::toolUseId(call.trace()->request());
    if (id.isEmpty() || !m_session || !m_session->conversation()->toolCall(id))
        return {};
    // The grant is for that tool: an id allowed for evaluate-lisp does not let another tool by.
    if (m_allowedOnce.value(id) == call.tool()) {
        m_allowedOnce.remove(id); // once is one call
        return tr("allowed once in the chat");
    }
    if (m_allowedAlways.contains(call.tool()))
        return tr("allowed in the chat for the rest of the conversation");
    return {};
}

void AgentApprovals::onTraced(const RequestTracePtr &trace)
{
    const QString id = RequestTrace::toolUseId(trace->request());
    if (id.isEmpty() || !m_session || !m_session->conversation()->toolCall(id))
        return;
    const QString tool = trace->tool();
    const QString approval = m_allowedOnce.value(id) == tool ? tr("allowed once in the chat")
        : m_allowedAlways.contains(tool)                     ? tr("allowed in the chat for the rest of the conversation")
                                                             : QString();
    trace->tieToChat(m_agent, id, approval);
    m_traces.insert(id, trace);
    Q_EMIT toolCallTraced(id, trace.data());
}

void AgentApprovals::sendReasons(const QString &stopReason)
{
    if (m_reasons.isEmpty() || !m_session)
        return;
    if (m_session->isPrompting())
        return; // the person spoke first: the reasons go at the end of that turn
    const QString message = std::exchange(m_reasons, {}).join(QStringLiteral("\n\n"));
    // Stop means stop: no new turn starts behind the person's back; the chat says what was kept.
    if (stopReason == QLatin1String("cancelled")) {
        m_session->conversation()->addNotice(QStringLiteral("info"), tr("Not sent to %1").arg(m_agent),
                                             tr("You stopped the turn, so this was not sent: %1").arg(message));
        return;
    }
    // Once: an agent that asks again in the turn the reason started (Read-only refusing it
    // again) must not loop with Lisp Duet speaking for the person.
    if (std::exchange(m_spokeForThePerson, false)) {
        m_session->conversation()->addNotice(QStringLiteral("info"), tr("Not sent to %1").arg(m_agent),
                                             tr("Lisp Duet already wrote to %1 for you after a refusal, and does not again until you "
                                                "write yourself: %2").arg(m_agent, message));
        return;
    }
    m_speaking = true;
    m_session->prompt({Acp::ContentBlock::fromText(message)});
}

#include "ModelWaitNotice.h"

#include "acp/AgentSession.h"

ModelWaitNotice::ModelWaitNotice(QObject *parent) : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(DefaultQuietMs);
    connect(&m_timer, &QTimer::timeout, this, &ModelWaitNotice::check);
}

void ModelWaitNotice::follow(AgentSession *session)
{
    if (m_session) {
        disconnect(m_session, nullptr, this, nullptr);
        disconnect(m_session->conversation(), nullptr, this, nullptr);
    }
    m_timer.stop();
    m_session = session;
    if (!session)
        return;
    const Conversation *conversation = session->conversation();
    connect(session, &AgentSession::turnStarted, this, &ModelWaitNotice::heard);
    connect(session, &AgentSession::turnEnded, &m_timer, &QTimer::stop);
    // Any word of the agent's: the silence is over.
    connect(conversation, &Conversation::textAppended, this, &ModelWaitNotice::heard);
    connect(conversation, &Conversation::blockAdded, this, &ModelWaitNotice::heard);
    connect(conversation, &Conversation::toolCallChanged, this, &ModelWaitNotice::heard);
    connect(conversation, &Conversation::planChanged, this, &ModelWaitNotice::heard);
    connect(conversation, &Conversation::usageChanged, this, &ModelWaitNotice::heard);
    connect(session, &AgentSession::permissionRequested, this, &ModelWaitNotice::heard);
}

void ModelWaitNotice::heard()
{
    if (m_session && m_session->isPrompting())
        m_timer.start();
}

// The agent is quiet for a reason the person can see: it waits for their approval, or for a
// tool call (an evaluation in the shared session) to end.
bool ModelWaitNotice::silenceExplained() const
{
    if (!m_session->pendingPermissions().isEmpty())
        return true;
    const Conversation *conversation = m_session->conversation();
    for (int i = conversation->count() - 1; i >= 0 && conversation->entry(i).turn == conversation->turn(); --i) {
        const Conversation::Entry &entry = conversation->entry(i);
        if (entry.kind == Conversation::Entry::Kind::ToolCall) {
            const Acp::ToolCall *call = conversation->toolCall(entry.toolCallId);
            if (call && !call->isFinished())
                return true;
        }
    }
    return false;
}

void ModelWaitNotice::check()
{
    if (!m_session || !m_session->isPrompting())
        return;
    if (silenceExplained()) {
        m_timer.start(); // look again later: the wait is the person's or the session's
        return;
    }
    const int seconds = m_timer.interval() / 1000;
    m_session->conversation()->addNotice(
        QStringLiteral("warning"), tr("Still waiting for the model"),
        tr("%1 has said nothing for %2 s. When an agent cannot reach its model (no network, a wrong ANTHROPIC_BASE_URL "
           "or proxy, the service is down) it retries for about 3 minutes before the turn fails. Stop ends the turn; the "
           "agent's log says what it is doing.")
            .arg(m_agent)
            .arg(seconds));
}

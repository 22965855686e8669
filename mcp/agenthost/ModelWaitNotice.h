#pragma once

#include <QObject>
#include <QPointer>
#include <QTimer>

class AgentSession;

// Tells the person early when a turn has gone quiet (issue 38): an agent whose model cannot be
// reached (no network, a wrong ANTHROPIC_BASE_URL or proxy, an outage) retries for about 3
// minutes (Claude Code: 181 s) before its turn fails, and says nothing meanwhile. After
// `quietMs` without a word from the agent, while nothing else explains the silence (a
// permission waiting for the person, a tool call running), a notice in the chat says what is
// happening and what that usually means. Once per silence.
class ModelWaitNotice : public QObject
{
    Q_OBJECT
public:
    static constexpr int DefaultQuietMs = 15000;

    explicit ModelWaitNotice(QObject *parent = nullptr);

    void setQuietMs(int ms) { m_timer.setInterval(ms); }
    void setAgent(const QString &agent) { m_agent = agent; }
    void follow(AgentSession *session);

private:
    void heard();
    void check();
    bool silenceExplained() const;

    QPointer<AgentSession> m_session;
    QString m_agent;
    QTimer m_timer;
};

#include "RequestTrace.h"

#include "session/LocalClock.h"

RequestTrace::RequestTrace(const QString &client, const QJsonObject &request)
    : m_client(client), m_request(request), m_receivedAt(LocalClock::now())
{
    m_clock.start();
}

QString RequestTrace::method() const
{
    return m_request.value(QStringLiteral("method")).toString();
}

QString RequestTrace::tool() const
{
    if (method() != QLatin1String("tools/call"))
        return {};
    return m_request.value(QStringLiteral("params")).toObject().value(QStringLiteral("name")).toString();
}

QJsonObject RequestTrace::arguments() const
{
    const QJsonObject params = m_request.value(QStringLiteral("params")).toObject();
    return method() == QLatin1String("tools/call") ? params.value(QStringLiteral("arguments")).toObject() : params;
}

qint64 RequestTrace::elapsedMs() const
{
    return m_endedMs >= 0 ? m_endedMs : m_clock.elapsed();
}

qint64 RequestTrace::waitedMs() const
{
    if (m_waitStartedMs < 0)
        return m_waitedMs;
    return m_waitedMs + elapsedMs() - m_waitStartedMs;
}

void RequestTrace::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    Q_EMIT changed();
}

void RequestTrace::nameClient(const QString &client)
{
    if (client == m_client)
        return;
    m_client = client;
    Q_EMIT changed();
}

void RequestTrace::run()
{
    if (m_over || m_jobId != 0)
        return; // a job says when it runs
    if (m_waitStartedMs >= 0 && m_beforeWaiting == State::Queued)
        m_beforeWaiting = State::Running; // it asked the person while it ran
    else if (m_state == State::Queued)
        setState(State::Running);
}

void RequestTrace::refuse(const QString &reason)
{
    m_refusal = reason;
    setState(State::Denied);
}

void RequestTrace::answer(const JsonObjectText &response)
{
    if (m_over || m_state == State::Denied) {
        answerAs(response, m_state);
        return;
    }
    // A tool call's answer says how it ended (answerAs, from its ToolResult); any other answer
    // is an error or not.
    const QJsonObject &object = response.object();
    const bool failed = object.contains(QStringLiteral("error"))
                        || object.value(QStringLiteral("result")).toObject().value(QStringLiteral("isError")).toBool();
    answerAs(response, failed ? State::Error : State::Done);
}

void RequestTrace::answerAs(const JsonObjectText &response, State state)
{
    if (m_over)
        return;
    personDecided(); // an answer ends any wait
    m_over = true;
    m_endedMs = m_clock.elapsed();
    m_response = response;
    if (m_state != State::Denied)
        m_state = state;
    Q_EMIT changed();
}

void RequestTrace::cancel()
{
    if (m_over)
        return;
    personDecided();
    m_over = true;
    m_endedMs = m_clock.elapsed();
    m_state = State::Cancelled;
    Q_EMIT changed();
}

void RequestTrace::awaitPerson(Waiting why)
{
    if (m_over || m_waitStartedMs >= 0)
        return;
    m_waitStartedMs = m_clock.elapsed();
    m_beforeWaiting = m_state;
    setState(why == Waiting::ForApproval ? State::AwaitingApproval : State::AwaitingPerson);
}

void RequestTrace::personDecided()
{
    if (m_waitStartedMs < 0)
        return;
    m_waitedMs += m_clock.elapsed() - m_waitStartedMs;
    m_waitStartedMs = -1;
    if (m_state == State::AwaitingApproval || m_state == State::AwaitingPerson)
        setState(m_beforeWaiting);
    else
        Q_EMIT changed();
}

void RequestTrace::queuedAsJob(quint64 jobId)
{
    m_jobId = jobId;
    Q_EMIT changed();
}

void RequestTrace::jobStarted()
{
    if (m_over)
        return;
    if (m_waitStartedMs >= 0)
        m_beforeWaiting = State::Running;
    else
        setState(State::Running);
}

void RequestTrace::proposedChange(const FileChange &change)
{
    m_change = change;
    Q_EMIT changed();
}

void RequestTrace::follow(State state, const QString &text)
{
    m_followState = state;
    m_followText = text;
    Q_EMIT changed();
}

#include "EngineQueries.h"

#include "client/EngineClient.h"

EngineQueries::EngineQueries(EngineClient *engine, std::function<quint64()> nextId)
    : m_engine(engine), m_nextId(std::move(nextId))
{
    m_waitTimer.setInterval(250);
    QObject::connect(&m_waitTimer, &QTimer::timeout, &m_waitTimer, [this] {
        failWaiting(QStringLiteral("The Lisp engine did not become ready within %1 s.").arg(ReadyWaitMs / 1000), true);
    });
}

void EngineQueries::ask(const EngineProtocol::Query &query, Callback callback)
{
    if (m_engine->state() == EngineClient::State::Starting) {
        m_waiting.append({query, std::move(callback), QDeadlineTimer(ReadyWaitMs)});
        m_waitTimer.start();
        return;
    }
    const quint64 id = m_nextId();
    if (!m_engine->send(EngineProtocol::queryLine(id, query))) {
        callback(EngineProtocol::Reply::failure(QStringLiteral("The Lisp engine is not running right now.")));
        return;
    }
    m_asked.insert(id, std::move(callback));
}

bool EngineQueries::answer(quint64 id, const QJsonObject &reply)
{
    const Callback callback = m_asked.take(id);
    if (!callback)
        return false;
    callback(reply);
    return true;
}

void EngineQueries::askWaiting()
{
    m_waitTimer.stop();
    for (Waiting &waiting : std::exchange(m_waiting, {}))
        ask(waiting.query, std::move(waiting.callback));
}

void EngineQueries::failAsked(const QString &reason)
{
    const auto asked = std::exchange(m_asked, {});
    for (const Callback &callback : asked)
        callback(EngineProtocol::Reply::failure(reason));
}

void EngineQueries::failWaiting(const QString &reason, bool onlyExpired)
{
    QList<Waiting> failed;
    for (auto it = m_waiting.begin(); it != m_waiting.end();) {
        if (onlyExpired && !it->deadline.hasExpired()) {
            ++it;
            continue;
        }
        failed.append(std::move(*it));
        it = m_waiting.erase(it);
    }
    if (m_waiting.isEmpty())
        m_waitTimer.stop();
    for (const Waiting &waiting : failed)
        waiting.callback(EngineProtocol::Reply::failure(reason));
}

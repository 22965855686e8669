#include "OutgoingRequests.h"

#include "McpPeer.h"

#include <QTimer>

QString OutgoingRequests::Answer::problem() const
{
    if (!failure.isEmpty())
        return failure;
    if (!error.isEmpty())
        return QStringLiteral("the client answered error %1: %2")
            .arg(error.value(QStringLiteral("code")).toInt())
            .arg(error.value(QStringLiteral("message")).toString());
    return {};
}

OutgoingRequests::~OutgoingRequests()
{
    // Callbacks may hold objects that are going away too: nobody is told any more.
    for (const Pending &pending : std::as_const(m_pending))
        delete pending.timer;
}

QJsonValue OutgoingRequests::send(McpPeer *peer, const QString &method, const QJsonObject &params, Callback callback, int timeoutMs)
{
    // Strings of our own: never confused with a number the client might use for its requests.
    const QJsonValue id = QStringLiteral("lisp-duet-%1").arg(m_nextId++);
    const QString key = JsonRpc::idKey(id);
    auto *timer = new QTimer;
    timer->setSingleShot(true);
    timer->setTimerType(Qt::PreciseTimer);
    connect(timer, &QTimer::timeout, this, [this, key, timeoutMs] {
        finish(key, Answer{{}, {}, QStringLiteral("the client did not answer within %1 s").arg(timeoutMs / 1000.0)});
    });
    m_pending.insert(key, Pending{peer, method, std::move(callback), timer});
    timer->start(timeoutMs);
    peer->send(JsonRpc::request(id, method, params));
    return id;
}

bool OutgoingRequests::settle(McpPeer *peer, const QJsonObject &response)
{
    const QJsonValue id = response.value(QStringLiteral("id"));
    if (!JsonRpc::isValidId(id))
        return false;
    const QString key = JsonRpc::idKey(id);
    const auto it = m_pending.constFind(key);
    if (it == m_pending.constEnd() || it->peer != peer)
        return false; // not ours, or another client's: only the one asked may answer
    Answer answer;
    if (response.contains(QStringLiteral("error")))
        answer.error = response.value(QStringLiteral("error")).toObject();
    else
        answer.result = response.value(QStringLiteral("result")).toObject();
    if (answer.error.isEmpty() && !response.value(QStringLiteral("result")).isObject())
        answer.error = QJsonObject{{QStringLiteral("code"), JsonRpc::InvalidRequest},
                                   {QStringLiteral("message"), QStringLiteral("the response has no result object")}};
    finish(key, answer);
    return true;
}

void OutgoingRequests::dropPeer(McpPeer *peer)
{
    QStringList keys;
    for (auto it = m_pending.cbegin(); it != m_pending.cend(); ++it) {
        if (it->peer == peer || !it->peer)
            keys << it.key();
    }
    for (const QString &key : keys)
        finish(key, Answer{{}, {}, QStringLiteral("the client went away before it answered")});
}

void OutgoingRequests::finish(const QString &key, const Answer &answer)
{
    Pending pending = m_pending.take(key);
    if (!pending.callback)
        return;
    pending.timer->deleteLater();
    pending.callback(answer);
}

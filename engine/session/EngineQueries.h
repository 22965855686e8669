#pragma once

#include "client/EngineProtocol.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QTimer>
#include <functional>

class EngineClient;

// The questions that run no user code (completion, lambda lists, the limits, the project root),
// asked of the engine's service thread beside the queue of jobs. One asked while the engine
// starts waits for it, up to ReadyWaitMs (clients often begin with one right after initialize);
// one whose engine goes away first gets a failed reply (EngineProtocol::Reply::failure).
class EngineQueries
{
public:
    using Callback = std::function<void(const QJsonObject &reply)>;
    static constexpr int ReadyWaitMs = 15000;

    // `nextId` numbers a question among the jobs: the engine answers both by id.
    EngineQueries(EngineClient *engine, std::function<quint64()> nextId);

    void ask(const EngineProtocol::Query &query, Callback callback);
    // The engine's reply `id`: true if it answered a question asked here (the callback has it).
    bool answer(quint64 id, const QJsonObject &reply);
    // The engine is ready: the questions asked while it started go to it, in order.
    void askWaiting();
    // The engine went away: the questions it had are answered with `reason`.
    void failAsked(const QString &reason);
    // The engine cannot be started: the questions waiting for it are answered with `reason`.
    void failWaiting(const QString &reason) { failWaiting(reason, false); }

private:
    void failWaiting(const QString &reason, bool onlyExpired);

    EngineClient *m_engine;
    std::function<quint64()> m_nextId;
    QHash<quint64, Callback> m_asked; // sent, by id
    struct Waiting
    {
        EngineProtocol::Query query;
        Callback callback;
        QDeadlineTimer deadline;
    };
    QList<Waiting> m_waiting; // asked while the engine was starting
    QTimer m_waitTimer;       // ends the waits that outlast ReadyWaitMs
};

#pragma once

#include "AcpTypes.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

class AcpConnection;
class QTimer;

// How a handler answers one request of the agent: bound to the connection and the request's id.
// Copies share one state: the first answer counts, later ones are logged and dropped; when the
// last copy goes without an answer, the agent is told (-32603), so no request of the agent waits
// forever. When the agent withdraws the request ($/cancel_request) or the connection closes,
// `onWithdrawn` runs once and answers are no longer sent.
class AcpResponder
{
public:
    AcpResponder() = default;

    const QJsonValue &id() const;
    const QString &method() const;
    bool isPending() const; // not answered, not withdrawn
    void respond(const QJsonObject &result) const;
    void fail(int code, const QString &message, const QJsonValue &data = {}) const;
    void onWithdrawn(std::function<void()> callback) const;

private:
    friend class AcpConnection;
    struct State;
    std::shared_ptr<State> m_state;
};

// JSON-RPC 2.0 over newline-delimited lines, in both directions, as ACP uses it: our requests
// (our ids, 1 upwards), each with an optional time limit; the agent's requests (its own ids,
// from 0: a separate id space) handed to the handler of their method with an AcpResponder, and
// -32601 for methods we do not offer; notifications both ways. Knows no ACP method: AcpClient
// registers them. A line that is not a JSON-RPC message, a response to no request of ours, a
// batch (ACP has none) are logged and ignored; the connection goes on. `send` writes one line.
class AcpConnection : public QObject
{
    Q_OBJECT
public:
    using Sender = std::function<void(const QByteArray &line)>;
    explicit AcpConnection(Sender send, QObject *parent = nullptr);
    ~AcpConnection() override;

    struct Reply
    {
        bool ok = false;
        QJsonObject result; // ok: the result (an empty object for null)
        Acp::Error error;   // !ok: the agent's error, or TimedOut, ConnectionClosed, BadAnswer
    };
    using ReplyHandler = std::function<void(const Reply &reply)>;
    // Sends a request; `handler` runs once with its reply, or with TimedOut after `timeoutMs`
    // (0: no limit), or ConnectionClosed. Returns our id. A handler bound to `context` does not
    // run once `context` is destroyed.
    int request(const QString &method, const QJsonObject &params, const QObject *context, ReplyHandler handler,
                int timeoutMs = 0);
    void notify(const QString &method, const QJsonObject &params = {});

    using RequestHandler = std::function<void(const QJsonObject &params, const AcpResponder &responder)>;
    using NotificationHandler = std::function<void(const QJsonObject &params)>;
    void onRequest(const QString &method, RequestHandler handler);
    void onNotification(const QString &method, NotificationHandler handler);

    // One line from the agent (without its newline).
    void receiveLine(const QByteArray &line);
    // The agent is gone: every request of ours fails with ConnectionClosed and `why`; the
    // agent's pending requests are withdrawn. Nothing is sent afterwards.
    void close(const QString &why);
    bool isClosed() const { return m_closed; }

    int pendingRequests() const { return int(m_pending.size()); }
    int pendingAgentRequests() const;
    int ignoredLines() const { return m_ignored; }

Q_SIGNALS:
    // What was ignored and why (garbage, unknown methods and notifications), for the log pane.
    void logged(const QString &line);
    // Every line both ways, as written and read (outgoing: true), for a wire view.
    void traffic(bool outgoing, const QByteArray &line);

private:
    friend class AcpResponder;
    struct Pending
    {
        QString method;
        QPointer<const QObject> context;
        bool hasContext = false;
        ReplyHandler handler;
        QTimer *timer = nullptr;
    };
    void write(const QJsonObject &message);
    void answer(const QJsonValue &id, const QJsonObject &message);
    void handleResponse(const QJsonValue &id, const QJsonObject &object);
    void handleRequest(const QJsonValue &id, const QString &method, const QJsonObject &params);
    void handleNotification(const QString &method, const QJsonObject &params);
    void finish(int id, const Reply &reply);
    void ignore(const QString &why, const QByteArray &line);

    Sender m_send;
    int m_nextId = 1;
    QHash<int, Pending> m_pending;
    QHash<QString, RequestHandler> m_requestHandlers;
    QHash<QString, NotificationHandler> m_notificationHandlers;
    QHash<QString, std::weak_ptr<AcpResponder::State>> m_agentRequests; // by JsonRpc::idKey
    int m_ignored = 0;
    bool m_closed = false;
};

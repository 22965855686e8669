#include "AcpConnection.h"

#include "AcpWire.h"
#include "jsonrpc/JsonRpc.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTimer>

Q_LOGGING_CATEGORY(lcAcp, "duet.acp")

struct AcpResponder::State
{
    QPointer<AcpConnection> connection;
    QJsonValue id;
    QString method;
    bool answered = false;
    bool withdrawn = false;
    std::function<void()> onWithdrawn;

    void send(const QJsonObject &message)
    {
        if (answered || withdrawn) {
            qCWarning(lcAcp).noquote() << "a second answer to" << method << "was dropped";
            return;
        }
        answered = true;
        if (connection)
            connection->answer(id, message);
    }
    void withdraw()
    {
        if (answered || withdrawn)
            return;
        withdrawn = true;
        if (auto callback = std::exchange(onWithdrawn, nullptr))
            callback();
    }
    ~State()
    {
        if (!answered && !withdrawn && connection)
            connection->answer(id, JsonRpc::error(id, JsonRpc::InternalError,
                                                  QStringLiteral("The client dropped %1 without an answer").arg(method)));
    }
};

const QJsonValue &AcpResponder::id() const
{
    static const QJsonValue none;
    return m_state ? m_state->id : none;
}

const QString &AcpResponder::method() const
{
    static const QString none;
    return m_state ? m_state->method : none;
}

bool AcpResponder::isPending() const
{
    return m_state && !m_state->answered && !m_state->withdrawn;
}

void AcpResponder::respond(const QJsonObject &result) const
{
    if (m_state)
        m_state->send(JsonRpc::response(m_state->id, result));
}

void AcpResponder::fail(int code, const QString &message, const QJsonValue &data) const
{
    if (m_state)
        m_state->send(JsonRpc::error(m_state->id, code, message, data));
}

void AcpResponder::onWithdrawn(std::function<void()> callback) const
{
    if (m_state)
        m_state->onWithdrawn = std::move(callback);
}

AcpConnection::AcpConnection(Sender send, QObject *parent)
    : QObject(parent)
    , m_send(std::move(send))
{
}

AcpConnection::~AcpConnection()
{
    close(QStringLiteral("The connection to the agent was closed."));
}

int AcpConnection::request(const QString &method, const QJsonObject &params, const QObject *context,
                           ReplyHandler handler, int timeoutMs)
{
    const int id = m_nextId++;
    if (m_closed) {
        QTimer::singleShot(0, this, [handler, method] {
            handler({false, {}, {Acp::Error::ConnectionClosed, QStringLiteral("The agent is not running: %1 was not sent.").arg(method), {}}});
        });
        return id;
    }
    Pending pending{method, context, context != nullptr, std::move(handler), nullptr};
    if (timeoutMs > 0) {
        pending.timer = new QTimer(this);
        pending.timer->setSingleShot(true);
        connect(pending.timer, &QTimer::timeout, this, [this, id, method, timeoutMs] {
            finish(id, {false, {}, {Acp::Error::TimedOut,
                                    QStringLiteral("The agent did not answer %1 within %2 s.").arg(method).arg(timeoutMs / 1000.0), {}}});
        });
        pending.timer->start(timeoutMs);
    }
    m_pending.insert(id, std::move(pending));
    // ACP's schema wants params on every request, even an empty object.
    QJsonObject message = JsonRpc::request(id, method, params);
    message.insert(QStringLiteral("params"), params);
    write(message);
    return id;
}

void AcpConnection::notify(const QString &method, const QJsonObject &params)
{
    QJsonObject message = JsonRpc::notification(method, params);
    if (!message.contains(QStringLiteral("params")))
        message.insert(QStringLiteral("params"), QJsonObject());
    write(message);
}

void AcpConnection::onRequest(const QString &method, RequestHandler handler)
{
    m_requestHandlers.insert(method, std::move(handler));
}

void AcpConnection::onNotification(const QString &method, NotificationHandler handler)
{
    m_notificationHandlers.insert(method, std::move(handler));
}

void AcpConnection::write(const QJsonObject &message)
{
    if (m_closed)
        return;
    const QByteArray line = QJsonDocument(message).toJson(QJsonDocument::Compact);
    Q_EMIT traffic(true, line);
    m_send(line);
}

void AcpConnection::answer(const QJsonValue &id, const QJsonObject &message)
{
    m_agentRequests.remove(JsonRpc::idKey(id));
    write(message);
}

void AcpConnection::ignore(const QString &why, const QByteArray &line)
{
    ++m_ignored;
    const QByteArray shown = line.size() > 200 ? line.left(200) + "… (" + QByteArray::number(line.size()) + " bytes)" : line;
    const QString text = QStringLiteral("ignored: %1: %2").arg(why, QString::fromUtf8(shown));
    qCInfo(lcAcp).noquote() << text;
    Q_EMIT logged(text);
}

void AcpConnection::receiveLine(const QByteArray &line)
{
    if (m_closed || line.trimmed().isEmpty())
        return;
    Q_EMIT traffic(false, line);
    const JsonRpc::Message message = JsonRpc::Message::parse(line);
    switch (message.kind()) {
    case JsonRpc::Message::Kind::Invalid:
        // A broken request with a usable id is answered, so the agent does not wait for it.
        if (message.id().isString() || message.id().isDouble())
            write(message.refusal());
        ignore(message.refusal().value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString(), line);
        return;
    case JsonRpc::Message::Kind::Batch:
        ignore(QStringLiteral("ACP has no batches"), line);
        return;
    case JsonRpc::Message::Kind::Response:
        handleResponse(message.id(), message.object());
        return;
    case JsonRpc::Message::Kind::Request:
        handleRequest(message.id(), message.method(), message.params().toObject());
        return;
    case JsonRpc::Message::Kind::Notification:
        handleNotification(message.method(), message.params().toObject());
        return;
    }
}

void AcpConnection::handleResponse(const QJsonValue &id, const QJsonObject &object)
{
    const int ours = id.isDouble() && id.toDouble() == double(id.toInt()) ? id.toInt() : -1;
    if (!m_pending.contains(ours)) {
        ignore(QStringLiteral("an answer to no request of ours (it may have timed out)"),
               QJsonDocument(object).toJson(QJsonDocument::Compact));
        return;
    }
    if (object.contains(QStringLiteral("error"))) {
        finish(ours, {false, {}, AcpWire::readError(object.value(QStringLiteral("error")).toObject())});
        return;
    }
    const QJsonValue result = object.value(QStringLiteral("result"));
    if (!result.isObject() && !result.isNull()) {
        finish(ours, {false, {}, {Acp::Error::BadAnswer,
                                  QStringLiteral("The agent answered %1 with something that is not an object.").arg(m_pending.value(ours).method), {}}});
        return;
    }
    finish(ours, {true, result.toObject(), {}});
}

void AcpConnection::finish(int id, const Reply &reply)
{
    Pending pending = m_pending.take(id);
    delete pending.timer;
    if (!pending.handler || (pending.hasContext && !pending.context))
        return;
    pending.handler(reply);
}

void AcpConnection::handleRequest(const QJsonValue &id, const QString &method, const QJsonObject &params)
{
    const auto handler = m_requestHandlers.constFind(method);
    if (handler == m_requestHandlers.constEnd()) {
        write(JsonRpc::error(id, JsonRpc::MethodNotFound, QStringLiteral("Method not found: %1").arg(method),
                             QJsonObject{{QStringLiteral("method"), method}}));
        const QString text = QStringLiteral("the agent asked for %1, which Lisp Duet does not offer: answered -32601").arg(method);
        Q_EMIT logged(text);
        return;
    }
    AcpResponder responder;
    responder.m_state = std::make_shared<AcpResponder::State>();
    responder.m_state->connection = this;
    responder.m_state->id = id;
    responder.m_state->method = method;
    m_agentRequests.insert(JsonRpc::idKey(id), responder.m_state);
    (*handler)(params, responder);
}

void AcpConnection::handleNotification(const QString &method, const QJsonObject &params)
{
    if (method == QLatin1String(AcpWire::Method::CancelRequest)) {
        const QJsonValue id = params.value(QStringLiteral("requestId"));
        if (!JsonRpc::isValidId(id))
            return;
        if (const auto state = m_agentRequests.take(JsonRpc::idKey(id)).lock())
            state->withdraw();
        return;
    }
    const auto handler = m_notificationHandlers.constFind(method);
    if (handler == m_notificationHandlers.constEnd()) {
        Q_EMIT logged(QStringLiteral("ignored the agent's notification %1 (not one Lisp Duet knows)").arg(method));
        return;
    }
    (*handler)(params);
}

int AcpConnection::pendingAgentRequests() const
{
    int count = 0;
    for (const auto &state : m_agentRequests) {
        if (const auto alive = state.lock(); alive && !alive->answered && !alive->withdrawn)
            ++count;
    }
    return count;
}

void AcpConnection::close(const QString &why)
{
    if (m_closed)
        return;
    m_closed = true;
    const auto agentRequests = std::exchange(m_agentRequests, {});
    for (const auto &state : agentRequests) {
        if (const auto alive = state.lock())
            alive->withdraw();
    }
    const QList<int> ids = m_pending.keys();
    for (int id : ids)
        finish(id, {false, {}, {Acp::Error::ConnectionClosed, why, {}}});
}

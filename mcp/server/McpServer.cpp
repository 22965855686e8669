#include "McpServer.h"

#include "client/EngineProtocol.h"
#include "ClientPresence.h"
#include "session/Session.h"
#include "toolapi/ToolRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>

#include <algorithm>

Q_LOGGING_CATEGORY(lcMcp, "duet.mcp")

namespace {
const QStringList &LogLevels = RequestEnvelope::logLevels();

// Cache hints of 2026-07-28 results. Lists are the same for every client and change rarely
// (and a listen stream hears of a change at once); what resources/read returns changes with
// every evaluation.
constexpr int ListTtlMs = 60000;

const char *DefaultInstructions =
    "Lisp Duet is one live Common Lisp session (ECL 21.2.1) shared with a person who watches it in a window "
    "and may type into it too, and possibly with other agents. Everything you evaluate is shown to the person "
    "as it happens.\n"
    "- Use evaluate-lisp to run code; definitions, variables and the current package persist between calls. "
    "Give a short `description` of why you run or change something: the person sees it.\n"
    "- A result may end with [Session activity since your last call]: what the person and other agents did, "
    "including what they did to your work (interrupted it, undid your file change, chose in your debugger). Read "
    "it before assuming what is defined.\n"
    "- Evaluations run one at a time, with a time limit (%1 s by default; timeout_seconds changes it); "
    "interactive input (READ, Y-OR-N-P) gives an error.\n"
    "- Work outlasting wait_seconds (default 100) answers status \"running\" with a job_id, saying when its time limit "
    "stops it: job waits for its result or cancels it.\n"
    "- debug: true (evaluate-lisp, time-execution, run-tests) parks an error in the shared debugger instead of "
    "unwinding: look with debugger-frame or debugger-eval, then invoke-restart returns the outcome. The person may "
    "answer first: job with its job_id waits for their choice; list-debuggers shows what waits.\n"
    "- To catch up, call session-transcript and list-definitions. Introspect with describe-symbol, documentation, "
    "apropos, macroexpand, complete-symbol, and inspect-object with a value's result_id; check code with check-parens "
    "and compile-form (compiles, runs nothing).\n"
    "- reset-session starts a fresh engine (everything is lost: ask the person first); replay-session re-evaluates "
    "the definitions after a restart.\n"
    "- For code the person should decide on, stage-form puts it in their REPL input to run, edit or reject; "
    "definition-history says who defined what, revert-definition puts an earlier version back.\n"
    "- QUIT and EXIT are disabled.";
} // namespace

McpServer::McpServer(Session *session, ToolRegistry *tools, QObject *parent)
    : QObject(parent), m_session(session), m_tools(tools), m_modern(serverInfo()), m_toolCalls(session, tools, &m_modern),
      m_instructions(QString::fromUtf8(DefaultInstructions).arg(EngineProtocol::DefaultTimeoutMs / 1000))
{
    m_presence = new ClientPresence([this] { return peers(); }, this);
    connect(this, &McpServer::peerInitialized, m_presence, &ClientPresence::changed);
    connect(this, &McpServer::peerClosed, m_presence, &ClientPresence::closed);
    m_capabilities = {{QStringLiteral("tools"), QJsonObject{{QStringLiteral("listChanged"), true}}},
                      {QStringLiteral("logging"), QJsonObject{}}};
    for (const char *method : {"server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list"})
        setCacheHint(QString::fromLatin1(method), ListTtlMs, true);
    setCacheHint(QStringLiteral("resources/read"), 0, false);

    addMethod(QStringLiteral("initialize"), [this](const McpResponder &responder, const QJsonObject &params) {
        onInitialize(responder, params);
    }, Eras::Legacy);
    addMethod(QStringLiteral("server/discover"), [this](const McpResponder &responder, const QJsonObject &) {
        onDiscover(responder);
    }, Eras::Modern);
    addMethod(QStringLiteral("subscriptions/listen"), [this](const McpResponder &responder, const QJsonObject &params) {
        onListen(responder, params);
    }, Eras::Modern);
    m_methods[QStringLiteral("subscriptions/listen")].streams = true; // its notifications are its stream
    addMethod(QStringLiteral("ping"), [](const McpResponder &responder, const QJsonObject &) { responder.result({}); }, Eras::Legacy);
    addMethod(QStringLiteral("tools/list"), [this](const McpResponder &responder, const QJsonObject &) {
        responder.result({{QStringLiteral("tools"), m_tools->descriptors()}});
    });
    addMethod(QStringLiteral("tools/call"), [this](const McpResponder &responder, const QJsonObject &params) {
        m_toolCalls.handle(responder, params);
    });
    addMethod(QStringLiteral("logging/setLevel"), [](const McpResponder &responder, const QJsonObject &params) {
        const QString level = params.value(QStringLiteral("level")).toString();
        if (!LogLevels.contains(level)) {
            responder.error(JsonRpc::InvalidParams,
                            QStringLiteral("Unknown log level '%1'; use one of: %2").arg(level, LogLevels.join(QStringLiteral(", "))));
            return;
        }
        responder.peer()->setLogLevel(level);
        responder.result({});
    }, Eras::Legacy);
    addNotification(QStringLiteral("notifications/cancelled"), [this](McpPeer *peer, const QJsonObject &params) {
        onCancelled(peer, params);
    });
    addNotification(QStringLiteral("notifications/initialized"), [this](McpPeer *peer, const QJsonObject &) {
        Q_EMIT peerInitialized(peer);
    });
    connect(tools, &ToolRegistry::changed, this, [this] { broadcast(QStringLiteral("notifications/tools/list_changed")); });
}

QJsonObject McpServer::serverInfo()
{
    return {{QStringLiteral("name"), QStringLiteral("lisp-duet")},
            {QStringLiteral("title"), QStringLiteral("Lisp Duet")},
            {QStringLiteral("version"), QStringLiteral(LISP_DUET_VERSION)}};
}

QJsonObject McpServer::oversizedMessageError()
{
    return JsonRpc::error(QJsonValue(), JsonRpc::InvalidRequest,
                          QStringLiteral("Message larger than %1 bytes; it was discarded. Send smaller messages "
                                         "(a large file is better written in parts).").arg(MaxMessageBytes));
}

QString McpServer::statelessActivityKey(const RequestEnvelope &envelope)
{
    const QString name = envelope.clientInfo().value(QStringLiteral("name")).toString();
    if (name.isEmpty())
        return QStringLiteral("http:(unnamed client)");
    return QStringLiteral("http:%1/%2").arg(name, envelope.clientInfo().value(QStringLiteral("version")).toString());
}

void McpServer::addMethod(const QString &method, MethodHandler handler, Eras eras)
{
    m_methods.insert(method, {std::move(handler), eras, false});
}

void McpServer::addNotification(const QString &method, NotificationHandler handler)
{
    m_notifications.insert(method, std::move(handler));
}

bool McpServer::hasMethod(const QString &method, RequestEnvelope::Era era) const
{
    const auto it = m_methods.constFind(method);
    if (it == m_methods.constEnd())
        return false;
    const Eras wanted = era == RequestEnvelope::Era::Modern ? Eras::Modern : Eras::Legacy;
    return (int(it->eras) & int(wanted)) != 0;
}

McpPeer *McpServer::createPeer(const QString &transport, const QString &activityKey)
{
    auto *peer = new McpPeer(QStringLiteral("%1-%2").arg(transport).arg(m_nextPeer++), transport, this);
    if (!activityKey.isEmpty())
        peer->setActivityKey(activityKey);
    m_peers.append(peer);
    Q_EMIT peerCreated(peer);
    return peer;
}

void McpServer::closePeer(McpPeer *peer)
{
    if (!peer || !m_peers.contains(peer))
        return;
    m_peers.removeAll(peer);
    m_subscriptions.removePeer(peer);
    m_outgoing.dropPeer(peer);
    for (const McpPeer::InFlight &request : peer->endAllRequests()) {
        if (request.trace)
            request.trace->cancel();
        if (request.call)
            request.call->cancel(); // a client that went away does not need its evaluation any more
    }
    m_session->forgetClient(peer->key()); // a stateless request's peer keeps its client's digest
    Q_EMIT peerClosed(peer);
    peer->deleteLater();
}

QList<McpPeer *> McpServer::peers() const
{
    QList<McpPeer *> list;
    for (const auto &peer : m_peers) {
        if (peer)
            list.append(peer);
    }
    return list;
}

JsonRpc::Message McpServer::parse(const QByteArray &bytes)
{
    if (bytes.size() > MaxMessageBytes) {
        return JsonRpc::Message::invalid(QJsonValue(), JsonRpc::InvalidRequest,
                                         QStringLiteral("Message of %1 bytes is larger than the limit of %2 bytes").arg(bytes.size()).arg(MaxMessageBytes));
    }
    return JsonRpc::Message::parse(bytes);
}

void McpServer::receiveLines(McpPeer *peer, const LineBuffer::Lines &lines, const std::function<bool()> &stillOpen)
{
    for (const QByteArray &line : lines.complete) {
        const QByteArray message = line.trimmed();
        if (!message.isEmpty())
            receive(peer, message);
        if (stillOpen && !stillOpen())
            return;
    }
    for (int i = 0; i < lines.oversized; ++i)
        peer->send(oversizedMessageError());
}

McpServer::Received McpServer::receive(McpPeer *peer, const QByteArray &bytes)
{
    const JsonRpc::Message message = parse(bytes);
    if (message.kind() != JsonRpc::Message::Kind::Batch)
        return take(peer, message);
    // Batches existed only in 2025-03-26; each element is handled on its own.
    for (const JsonRpc::Message &element : message.batch())
        take(peer, element);
    Received batch;
    batch.kind = JsonRpc::Message::Kind::Batch;
    batch.httpStatus = 202;
    return batch;
}

McpServer::Received McpServer::take(McpPeer *peer, const JsonRpc::Message &message)
{
    const RequestEnvelope envelope = RequestEnvelope::of(message);
    const Received received = admit(message, envelope, peer);
    if (received.isRefused())
        peer->send(received.refusal); // on a stream, every answer goes the same way
    else
        dispatch(peer, message, envelope);
    return received;
}

namespace {
// 2026-07-28's standard headers: the parameter that names what a request is about, which
// Mcp-Name repeats.
const char *nameParameterOf(const QString &method)
{
    if (method == QLatin1String("tools/call") || method == QLatin1String("prompts/get"))
        return "name";
    if (method == QLatin1String("resources/read"))
        return "uri";
    return nullptr;
}
} // namespace

McpServer::Received McpServer::admit(const JsonRpc::Message &message, const RequestEnvelope &envelope, const McpPeer *peer) const
{
    Received received;
    received.kind = message.kind();
    received.id = message.id();
    received.stateless = envelope.isModern();
    const auto refuse = [&received](const QJsonObject &refusal, int status = 400) {
        received.refusal = refusal;
        received.httpStatus = status;
        return received;
    };
    switch (message.kind()) {
    case JsonRpc::Message::Kind::Invalid:
        return refuse(message.refusal());
    case JsonRpc::Message::Kind::Batch:
        return refuse(JsonRpc::error(QJsonValue(), JsonRpc::InvalidRequest,
                                     QStringLiteral("Invalid Request: send one JSON-RPC message at a time (batches are not supported here)")));
    case JsonRpc::Message::Kind::Response:
    case JsonRpc::Message::Kind::Notification:
        // A 2026-07-28 notification carries no envelope to judge; a legacy one may come with a
        // version its transport declared and we do not speak.
        if (!envelope.isModern() && envelope.problem() != RequestEnvelope::Problem::None)
            return refuse(envelope.refusal(QJsonValue(QJsonValue::Null)));
        received.httpStatus = 202; // nothing will answer it
        return received;
    case JsonRpc::Message::Kind::Request:
        break;
    }
    // A request is judged whole before it is accepted: its envelope (the 2026-07-28 _meta, or
    // a version the transport declared beside it), then its method.
    const QJsonObject envelopeRefusal = envelope.refusal(message.id());
    if (!envelopeRefusal.isEmpty())
        return refuse(envelopeRefusal);
    const auto method = m_methods.constFind(message.method());
    if (envelope.isModern() && !hasMethod(message.method(), envelope.era()))
        return refuse(JsonRpc::error(message.id(), JsonRpc::MethodNotFound,
                                     QStringLiteral("Method not found: %1 (not part of protocol revision %2)")
                                         .arg(message.method(), envelope.protocolVersion())),
                      404);
    // Answered on the request's own channel (HTTP: its POST), which the first one holds.
    if (peer && peer->isInFlight(message.id()))
        return refuse(JsonRpc::error(message.id(), JsonRpc::InvalidRequest, QStringLiteral("A request with this id is still in progress")));
    received.opensSession = !envelope.isModern() && message.method() == QLatin1String("initialize");
    received.needsStream = !RequestEnvelope::progressToken(message.params()).isUndefined() || !envelope.logLevel().isEmpty()
        || (method != m_methods.constEnd() && method->streams);
    if (const char *parameter = nameParameterOf(message.method())) {
        const QJsonValue name = message.params().toObject().value(QLatin1String(parameter));
        if (name.isString())
            received.name = name.toString();
    }
    return received;
}

void McpServer::dispatch(McpPeer *peer, const JsonRpc::Message &message, const RequestEnvelope &envelope)
{
    switch (message.kind()) {
    case JsonRpc::Message::Kind::Invalid:
    case JsonRpc::Message::Kind::Batch:
        break; // refused by admit()
    case JsonRpc::Message::Kind::Response:
        m_outgoing.settle(peer, message.object()); // an answer to nothing we asked is ignored
        break;
    case JsonRpc::Message::Kind::Notification:
        onNotification(peer, message);
        break;
    case JsonRpc::Message::Kind::Request:
        onRequest(peer, message, envelope);
        break;
    }
}

void McpServer::onRequest(McpPeer *peer, const JsonRpc::Message &message, const RequestEnvelope &envelope)
{
    if (envelope.isModern())
        peer->noteClientInfo(envelope.clientInfo()); // before the window logs it by that name
    // initialize names its client before the peer knows it.
    const QString client = message.method() == QLatin1String("initialize")
        ? message.params().toObject().value(QStringLiteral("clientInfo")).toObject().value(QStringLiteral("name")).toString(peer->clientName())
        : peer->clientName();
    const auto trace = RequestTracePtr::create(client, message.object());
    peer->beginRequest(McpPeer::InFlight{message.id(), message.method(), envelope.isModern(), envelope.logLevel(), false, {},
                                         envelope.clientCapabilities(), trace});
    Q_EMIT requestTraced(trace);
    if (message.method() != QLatin1String("tools/call"))
        trace->run(); // a tool call runs once access lets it (ToolCallHandler)
    const McpResponder responder(this, peer, message.id());
    if (!message.params().isUndefined() && !message.params().isObject()) {
        responder.error(JsonRpc::InvalidParams, QStringLiteral("\"params\" must be an object"));
        return;
    }
    if (!hasMethod(message.method(), envelope.era())) {
        responder.error(JsonRpc::MethodNotFound, QStringLiteral("Method not found: %1").arg(message.method()));
        return;
    }
    m_methods.value(message.method()).handler(responder, message.params().toObject());
}

void McpServer::onNotification(McpPeer *peer, const JsonRpc::Message &message)
{
    if (!message.params().isUndefined() && !message.params().isObject())
        return; // a notification gets no answer, not even an error
    const auto handler = m_notifications.constFind(message.method());
    if (handler != m_notifications.constEnd())
        (*handler)(peer, message.params().toObject());
}

void McpServer::respond(McpPeer *peer, const QJsonValue &id, const QJsonObject &response)
{
    const McpPeer::InFlight *request = peer ? peer->inFlight(id) : nullptr;
    if (!request)
        return; // answered already, or abandoned when the client cancelled it
    deliver(peer, id, request->modern ? m_modern.answer(request->method, response) : McpMessage(response), std::nullopt);
}

void McpServer::deliver(McpPeer *peer, const QJsonValue &id, const McpMessage &answer, std::optional<RequestTrace::State> state)
{
    const McpPeer::InFlight *request = peer ? peer->inFlight(id) : nullptr;
    if (!request)
        return;
    if (const RequestTracePtr trace = request->trace) {
        if (trace->client() == QLatin1String("agent"))
            trace->nameClient(peer->clientName()); // the peer may know its name by now
        if (state)
            trace->answerAs(answer, *state);
        else
            trace->answer(answer);
    }
    peer->endRequest(id);
    Q_EMIT responseSent(peer, id, answer);
    peer->sendResponse(answer, id);
}

void McpServer::onInitialize(const McpResponder &responder, const QJsonObject &params)
{
    const QString requested = params.value(QStringLiteral("protocolVersion")).toString();
    const QString version = supportedProtocolVersions().contains(requested) ? requested : supportedProtocolVersions().first();
    responder.peer()->setInitialized(version, params.value(QStringLiteral("clientInfo")).toObject(),
                                     params.value(QStringLiteral("capabilities")).toObject());
    responder.result({{QStringLiteral("protocolVersion"), version},
                      {QStringLiteral("capabilities"), m_capabilities},
                      {QStringLiteral("serverInfo"), serverInfo()},
                      {QStringLiteral("instructions"), m_instructions}});
}

void McpServer::onDiscover(const McpResponder &responder)
{
    responder.result({{QStringLiteral("supportedVersions"), QJsonArray::fromStringList(modernProtocolVersions())},
                      {QStringLiteral("capabilities"), m_capabilities},
                      {QStringLiteral("instructions"), m_instructions}});
}

void McpServer::onListen(const McpResponder &responder, const QJsonObject &params)
{
    ListenSubscriptions::Filter requested;
    QString problem;
    if (!ListenSubscriptions::Filter::parse(params.value(QStringLiteral("notifications")), &requested, &problem)) {
        responder.error(JsonRpc::InvalidParams, problem);
        return;
    }
    // What we can keep: the acknowledgment says which of the asked-for kinds that is.
    const auto declared = [this](const char *capability, const char *flag) {
        return m_capabilities.value(QLatin1String(capability)).toObject().value(QLatin1String(flag)).toBool();
    };
    ListenSubscriptions::Filter honoured;
    honoured.toolsListChanged = requested.toolsListChanged && declared("tools", "listChanged");
    honoured.promptsListChanged = requested.promptsListChanged && declared("prompts", "listChanged");
    honoured.resourcesListChanged = requested.resourcesListChanged && declared("resources", "listChanged");
    if (declared("resources", "subscribe"))
        honoured.resources = requested.resources;
    responder.peer()->markSubscription(responder.id()); // answered only if we end it ourselves
    m_subscriptions.add(responder.peer(), responder.id(), honoured);
}

void McpServer::onCancelled(McpPeer *peer, const QJsonObject &params)
{
    const QJsonValue requestId = params.value(QStringLiteral("requestId"));
    if (!JsonRpc::isValidId(requestId))
        return;
    const McpPeer::InFlight *request = peer->inFlight(requestId);
    if (request && request->trace)
        request->trace->cancel();
    if (request && request->subscription) { // the client ends its subscriptions/listen stream
        m_subscriptions.remove(peer, requestId);
        peer->endRequest(requestId);
        peer->abandon(requestId);
        return;
    }
    const ToolCallPtr call = peer->callOf(requestId);
    if (!call)
        return; // only tool calls are cancelled; other requests are answered at once anyway
    peer->endRequest(requestId); // first: a queued call finishes as it is cancelled, unanswered
    call->cancel();
    peer->abandon(requestId);
}

void McpServer::log(const QString &level, const QString &logger, const QJsonValue &data)
{
    const int rank = int(LogLevels.indexOf(level));
    const QJsonObject message = JsonRpc::notification(QStringLiteral("notifications/message"),
                                                      {{QStringLiteral("level"), level}, {QStringLiteral("logger"), logger}, {QStringLiteral("data"), data}});
    for (McpPeer *peer : peers()) {
        if (peer->isInitialized() && rank >= LogLevels.indexOf(peer->logLevel()))
            peer->send(message);
        // 2026-07-28: only requests that asked, on their own stream, while they are in flight.
        for (const McpPeer::InFlight &request : peer->requestsInFlight()) {
            if (request.modern && !request.subscription && !request.logLevel.isEmpty() && rank >= LogLevels.indexOf(request.logLevel))
                peer->send(message, request.id);
        }
    }
}

void McpServer::broadcast(const QString &method, const QJsonObject &params)
{
    for (McpPeer *peer : peers()) {
        if (peer->isInitialized())
            peer->send(JsonRpc::notification(method, params));
    }
    m_subscriptions.notify(method, params);
}

void McpServer::notifyResourceUpdated(const QString &uri)
{
    // Every evaluation updates the transcript: most of the time nobody has subscribed to it.
    const auto subscribed = [&uri](const McpPeer *peer) { return peer && peer->isInitialized() && peer->subscriptions().contains(uri); };
    if (m_subscriptions.isEmpty() && std::none_of(m_peers.cbegin(), m_peers.cend(), subscribed))
        return;
    const QJsonObject params{{QStringLiteral("uri"), uri}};
    for (McpPeer *peer : peers()) {
        if (subscribed(peer))
            peer->send(JsonRpc::notification(QStringLiteral("notifications/resources/updated"), params));
    }
    m_subscriptions.notify(QStringLiteral("notifications/resources/updated"), params);
}

QJsonValue McpServer::sendRequest(McpPeer *peer, const QString &method, const QJsonObject &params,
                                  std::function<void(const Answer &answer)> callback, int timeoutMs)
{
    return m_outgoing.send(peer, method, params, std::move(callback), timeoutMs);
}

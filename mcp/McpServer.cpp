#include "McpServer.h"

#include "ActivityDigest.h"
#include "JsonRpc.h"
#include "Session.h"
#include "ToolRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcMcp, "duet.mcp")

namespace {
const QStringList LogLevels{QStringLiteral("debug"),    QStringLiteral("info"),  QStringLiteral("notice"),
                            QStringLiteral("warning"),  QStringLiteral("error"), QStringLiteral("critical"),
                            QStringLiteral("alert"),    QStringLiteral("emergency")};

const char *DefaultInstructions =
    "Lisp Duet is one live Common Lisp session (ECL 21.2.1) shared with a person who watches it in a window "
    "and may type into it too, and possibly with other agents. Everything you evaluate is shown to the person "
    "as it happens.\n"
    "- Use evaluate-lisp to run code; definitions, variables and the current package persist between calls. "
    "Give a short `description` of why you run something: the person sees it.\n"
    "- Every result ends with a [Session activity since your last call] section when the person or another "
    "agent evaluated something meanwhile: read it before assuming what is defined.\n"
    "- Evaluations run one at a time, with a time limit (30 s by default, `timeout_seconds` to change it); "
    "interactive input (READ, Y-OR-N-P, the debugger) is not available and gives an error.\n"
    "- To catch up, call session-transcript (what was evaluated, by whom) and list-definitions (what exists "
    "now). Introspect with describe-symbol, apropos, macroexpand, complete-symbol, and inspect-object with the "
    "result_id of a value; check code with check-parens and compile-form (compiles, runs nothing).\n"
    "- load-system loads ASDF systems; configure-limits shows and sets the time, output and heap limits; "
    "reset-session starts a fresh engine (everything is lost: ask the person first); replay-session "
    "re-evaluates the session's definitions after the engine restarted.\n"
    "- QUIT and EXIT are disabled. Errors come back as `[ERROR] TYPE`, a message and a backtrace.";
} // namespace

McpServer::McpServer(Session *session, ToolRegistry *tools, QObject *parent)
    : QObject(parent), m_session(session), m_tools(tools), m_instructions(QString::fromUtf8(DefaultInstructions))
{
    m_capabilities = {{QStringLiteral("tools"), QJsonObject{{QStringLiteral("listChanged"), true}}},
                      {QStringLiteral("logging"), QJsonObject{}}};

    addMethod(QStringLiteral("initialize"), [this](McpPeer *peer, const QJsonValue &id, const QJsonObject &params) {
        onInitialize(peer, id, params);
    });
    addMethod(QStringLiteral("ping"), [this](McpPeer *peer, const QJsonValue &id, const QJsonObject &) {
        respond(peer, id, JsonRpc::response(id, QJsonObject{}));
    });
    addMethod(QStringLiteral("tools/list"), [this](McpPeer *peer, const QJsonValue &id, const QJsonObject &) {
        respond(peer, id, JsonRpc::response(id, QJsonObject{{QStringLiteral("tools"), m_tools->descriptors()}}));
    });
    addMethod(QStringLiteral("tools/call"), [this](McpPeer *peer, const QJsonValue &id, const QJsonObject &params) {
        onToolsCall(peer, id, params);
    });
    addMethod(QStringLiteral("logging/setLevel"), [this](McpPeer *peer, const QJsonValue &id, const QJsonObject &params) {
        const QString level = params.value(QStringLiteral("level")).toString();
        if (!LogLevels.contains(level)) {
            respond(peer, id, JsonRpc::error(id, JsonRpc::InvalidParams,
                                             QStringLiteral("Unknown log level '%1'; use one of: %2").arg(level, LogLevels.join(QStringLiteral(", ")))));
            return;
        }
        peer->setLogLevel(level);
        respond(peer, id, JsonRpc::response(id, QJsonObject{}));
    });
    connect(tools, &ToolRegistry::changed, this, [this] { broadcast(QStringLiteral("notifications/tools/list_changed")); });
}

QStringList McpServer::supportedProtocolVersions()
{
    return {QStringLiteral("2025-11-25"), QStringLiteral("2025-06-18"), QStringLiteral("2025-03-26"), QStringLiteral("2024-11-05")};
}

void McpServer::addMethod(const QString &method, MethodHandler handler)
{
    m_methods.insert(method, std::move(handler));
}

McpPeer *McpServer::createPeer(const QString &transport)
{
    auto *peer = new McpPeer(QStringLiteral("%1-%2").arg(transport).arg(m_nextPeer++), transport, this);
    m_peers.append(peer);
    Q_EMIT peerCreated(peer);
    return peer;
}

void McpServer::closePeer(McpPeer *peer)
{
    if (!peer || !m_peers.contains(peer))
        return;
    m_peers.removeAll(peer);
    const auto calls = peer->callsInFlight();
    peer->callsInFlight().clear();
    for (const ToolCallPtr &call : calls)
        call->cancel(); // a client that went away does not need its evaluation any more
    m_session->forgetClient(peer->key());
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

void McpServer::receive(McpPeer *peer, const QByteArray &bytes)
{
    if (bytes.size() > MaxMessageBytes) {
        peer->send(JsonRpc::error(QJsonValue(), JsonRpc::InvalidRequest,
                                  QStringLiteral("Message of %1 bytes is larger than the limit of %2 bytes").arg(bytes.size()).arg(MaxMessageBytes)));
        return;
    }
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError) {
        // QJsonDocument takes only objects and arrays: a lone string or number is valid JSON,
        // so it is an invalid request, not a parse error.
        if (QJsonDocument::fromJson('[' + bytes + ']').array().size() == 1) {
            peer->send(JsonRpc::error(QJsonValue(), JsonRpc::InvalidRequest, QStringLiteral("A JSON-RPC message must be an object")));
            return;
        }
        peer->send(JsonRpc::error(QJsonValue(), JsonRpc::ParseError,
                                  QStringLiteral("Parse error: %1 at offset %2").arg(error.errorString()).arg(error.offset)));
        return;
    }
    if (document.isArray()) {
        // Batches existed only in 2025-03-26; each element is handled on its own.
        const QJsonArray batch = document.array();
        if (batch.isEmpty()) {
            peer->send(JsonRpc::error(QJsonValue(), JsonRpc::InvalidRequest, QStringLiteral("Empty batch")));
            return;
        }
        for (const QJsonValue &item : batch) {
            if (item.isObject())
                handle(peer, item.toObject());
            else
                peer->send(JsonRpc::error(QJsonValue(), JsonRpc::InvalidRequest, QStringLiteral("A batch element is not an object")));
        }
        return;
    }
    if (!document.isObject()) {
        peer->send(JsonRpc::error(QJsonValue(), JsonRpc::InvalidRequest, QStringLiteral("A JSON-RPC message must be an object")));
        return;
    }
    handle(peer, document.object());
}

void McpServer::handle(McpPeer *peer, const QJsonObject &message)
{
    const QJsonValue id = message.value(QStringLiteral("id"));
    const QJsonValue method = message.value(QStringLiteral("method"));
    const bool hasId = message.contains(QStringLiteral("id"));

    // An error about a request with a usable id belongs to that request (HTTP answers it on
    // the request's own POST); otherwise it belongs to the session.
    const QJsonValue related = hasId && JsonRpc::isValidId(id) ? id : QJsonValue(QJsonValue::Undefined);
    if (message.value(QStringLiteral("jsonrpc")).toString() != QStringLiteral("2.0")) {
        peer->send(JsonRpc::error(hasId && JsonRpc::isValidId(id) ? id : QJsonValue(), JsonRpc::InvalidRequest,
                                  QStringLiteral("Invalid request: \"jsonrpc\" must be \"2.0\"")), related);
        return;
    }
    if (!method.isString()) {
        // A response from the client (we send no requests yet) or garbage.
        if (hasId && (message.contains(QStringLiteral("result")) || message.contains(QStringLiteral("error"))))
            return;
        peer->send(JsonRpc::error(hasId && JsonRpc::isValidId(id) ? id : QJsonValue(), JsonRpc::InvalidRequest,
                                  QStringLiteral("Invalid request: \"method\" must be a string")));
        return;
    }
    if (hasId && !JsonRpc::isValidId(id)) {
        peer->send(JsonRpc::error(QJsonValue(), JsonRpc::InvalidRequest,
                                  QStringLiteral("Invalid request: \"id\" must be a string or an integer")));
        return;
    }
    const QJsonValue paramsValue = message.value(QStringLiteral("params"));
    if (!paramsValue.isUndefined() && !paramsValue.isObject()) {
        if (hasId)
            peer->send(JsonRpc::error(id, JsonRpc::InvalidParams, QStringLiteral("\"params\" must be an object")), id);
        return;
    }
    const QJsonObject params = paramsValue.toObject();
    const QString name = method.toString();

    if (!hasId) {
        if (name == QStringLiteral("notifications/cancelled"))
            onCancelled(peer, params);
        else if (name == QStringLiteral("notifications/initialized"))
            Q_EMIT peerInitialized(peer);
        return; // other notifications need no answer
    }
    Q_EMIT requestReceived(peer, message);
    const auto handler = m_methods.constFind(name);
    if (handler == m_methods.constEnd()) {
        respond(peer, id, JsonRpc::error(id, JsonRpc::MethodNotFound, QStringLiteral("Method not found: %1").arg(name)));
        return;
    }
    (*handler)(peer, id, params);
}

void McpServer::respond(McpPeer *peer, const QJsonValue &id, const QJsonObject &response)
{
    Q_EMIT responseSent(peer, id, response);
    peer->send(response, id);
}

void McpServer::onInitialize(McpPeer *peer, const QJsonValue &id, const QJsonObject &params)
{
    const QString requested = params.value(QStringLiteral("protocolVersion")).toString();
    const QString version = supportedProtocolVersions().contains(requested) ? requested : supportedProtocolVersions().first();
    peer->setInitialized(version, params.value(QStringLiteral("clientInfo")).toObject());
    const QJsonObject result{{QStringLiteral("protocolVersion"), version},
                             {QStringLiteral("capabilities"), m_capabilities},
                             {QStringLiteral("serverInfo"), QJsonObject{{QStringLiteral("name"), QStringLiteral("lisp-duet")},
                                                                        {QStringLiteral("title"), QStringLiteral("Lisp Duet")},
                                                                        {QStringLiteral("version"), QStringLiteral(LISP_DUET_VERSION)}}},
                             {QStringLiteral("instructions"), m_instructions}};
    respond(peer, id, JsonRpc::response(id, result));
}

void McpServer::onToolsCall(McpPeer *peer, const QJsonValue &id, const QJsonObject &params)
{
    const QJsonValue nameValue = params.value(QStringLiteral("name"));
    if (!nameValue.isString()) {
        respond(peer, id, JsonRpc::error(id, JsonRpc::InvalidParams, QStringLiteral("tools/call needs \"name\", the tool to call, as a string")));
        return;
    }
    Tool *tool = m_tools->find(nameValue.toString());
    if (!tool) {
        respond(peer, id, JsonRpc::error(id, JsonRpc::InvalidParams,
                                         QStringLiteral("Unknown tool: %1").arg(nameValue.toString()),
                                         QJsonObject{{QStringLiteral("availableTools"), QJsonArray::fromStringList(m_tools->names())}}));
        return;
    }
    const QJsonValue arguments = params.value(QStringLiteral("arguments"));
    if (!arguments.isUndefined() && !arguments.isNull() && !arguments.isObject()) {
        respond(peer, id, JsonRpc::error(id, JsonRpc::InvalidParams, QStringLiteral("\"arguments\" must be an object")));
        return;
    }
    const QString key = JsonRpc::idKey(id);
    if (peer->callsInFlight().contains(key)) {
        respond(peer, id, JsonRpc::error(id, JsonRpc::InvalidRequest, QStringLiteral("A request with this id is still in progress")));
        return;
    }
    const QJsonValue progressToken = params.value(QStringLiteral("_meta")).toObject().value(QStringLiteral("progressToken"));
    const bool wantsProgress = progressToken.isString() || progressToken.isDouble();
    auto call = ToolCallPtr::create(tool->name(), arguments.toObject(), peer->origin(), wantsProgress);
    peer->callsInFlight().insert(key, call);

    QPointer<McpPeer> guard(peer);
    // Only the call's own signal runs this, so a plain pointer to it is valid here; holding the
    // shared pointer in its own connection would keep every finished call alive forever.
    connect(call.data(), &ToolCall::finished, this, [this, guard, id, key, self = call.data()](const ToolResult &result) {
        if (!guard)
            return;
        const bool cancelled = self->isCancelled(); // before the map lets go of the call
        guard->callsInFlight().remove(key);
        if (cancelled)
            return; // the client asked us not to answer
        respond(guard, id, JsonRpc::response(id, toolResultJson(guard, result)));
    });
    if (wantsProgress) {
        auto counter = QSharedPointer<double>::create(0);
        connect(call.data(), &ToolCall::progress, this, [guard, progressToken, counter, id](double, const QString &message) {
            if (!guard)
                return;
            *counter += 1; // progress must increase with every notification
            QJsonObject params{{QStringLiteral("progressToken"), progressToken}, {QStringLiteral("progress"), *counter}};
            if (!message.isEmpty())
                params.insert(QStringLiteral("message"), message);
            guard->send(JsonRpc::notification(QStringLiteral("notifications/progress"), params), id);
        });
    }
    Q_EMIT toolCallQueued(peer, id, call);

    if (!m_gate) {
        runCall(peer, id, tool, call);
        return;
    }
    m_gate(peer, tool, call, [this, guard, id, tool, call](const QString &refusal) {
        if (!guard || call->isFinished() || call->isCancelled())
            return;
        if (refusal.isEmpty()) {
            runCall(guard, id, tool, call);
        } else {
            Q_EMIT toolCallRefused(guard, id, refusal);
            call->finish(ToolResult::error(refusal));
        }
    });
}

void McpServer::runCall(McpPeer *peer, const QJsonValue &id, Tool *tool, const ToolCallPtr &call)
{
    Q_UNUSED(peer)
    Q_UNUSED(id)
    tool->call(call);
}

QJsonObject McpServer::toolResultJson(McpPeer *peer, const ToolResult &result)
{
    QString text = result.text;
    QJsonObject structured = result.structured;
    const QList<JobPtr> activity = m_session->takeActivityFor(peer->key());
    if (!activity.isEmpty()) {
        text += QStringLiteral("\n\n") + ActivityDigest::text(activity);
        if (!structured.isEmpty())
            structured.insert(QStringLiteral("session_activity"), ActivityDigest::json(activity));
    }
    QJsonObject json{{QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                                        {QStringLiteral("text"), text}}}},
                     {QStringLiteral("isError"), result.isError}};
    if (!structured.isEmpty())
        json.insert(QStringLiteral("structuredContent"), structured);
    return json;
}

void McpServer::onCancelled(McpPeer *peer, const QJsonObject &params)
{
    const QJsonValue requestId = params.value(QStringLiteral("requestId"));
    if (!JsonRpc::isValidId(requestId))
        return;
    const ToolCallPtr call = peer->callsInFlight().take(JsonRpc::idKey(requestId));
    if (call)
        call->cancel();
}

void McpServer::log(const QString &level, const QString &logger, const QJsonValue &data)
{
    const int rank = int(LogLevels.indexOf(level));
    for (McpPeer *peer : peers()) {
        if (!peer->isInitialized() || rank < LogLevels.indexOf(peer->logLevel()))
            continue;
        peer->send(JsonRpc::notification(QStringLiteral("notifications/message"),
                                         {{QStringLiteral("level"), level}, {QStringLiteral("logger"), logger}, {QStringLiteral("data"), data}}));
    }
}

void McpServer::broadcast(const QString &method, const QJsonObject &params)
{
    for (McpPeer *peer : peers()) {
        if (peer->isInitialized())
            peer->send(JsonRpc::notification(method, params));
    }
}

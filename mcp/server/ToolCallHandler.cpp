#include "ToolCallHandler.h"

#include "jsonrpc/JsonRpc.h"
#include "McpPeer.h"
#include "McpResponder.h"
#include "RequestEnvelope.h"
#include "toolapi/ToolRegistry.h"

#include <QJsonArray>

ToolCallHandler::ToolCallHandler(Session *session, ToolRegistry *tools, const ModernAnswers *modern, QObject *parent)
    : QObject(parent), m_tools(tools), m_answer(session, modern)
{
}

void ToolCallHandler::handle(const McpResponder &responder, const QJsonObject &params)
{
    McpPeer *peer = responder.peer();
    const QJsonValue nameValue = params.value(QStringLiteral("name"));
    if (!nameValue.isString()) {
        responder.error(JsonRpc::InvalidParams, QStringLiteral("tools/call needs \"name\", the tool to call, as a string"));
        return;
    }
    Tool *tool = m_tools->find(nameValue.toString());
    if (!tool) {
        const QString switchedOff = m_tools->whyUnavailable(nameValue.toString());
        responder.error(JsonRpc::InvalidParams, switchedOff.isEmpty() ? QStringLiteral("Unknown tool: %1").arg(nameValue.toString()) : switchedOff,
                        QJsonObject{{QStringLiteral("availableTools"), QJsonArray::fromStringList(m_tools->names())}});
        return;
    }
    const QJsonValue arguments = params.value(QStringLiteral("arguments"));
    if (!arguments.isUndefined() && !arguments.isNull() && !arguments.isObject()) {
        responder.error(JsonRpc::InvalidParams, QStringLiteral("\"arguments\" must be an object"));
        return;
    }
    const QJsonValue progressToken = RequestEnvelope::progressToken(params);
    const bool wantsProgress = !progressToken.isUndefined();
    const McpPeer::InFlight *request = peer->inFlight(responder.id());
    auto call = ToolCallPtr::create(tool->name(), arguments.toObject(), peer->origin(), wantsProgress, request ? request->trace : RequestTracePtr());
    const bool modern = request && request->modern;
    if (m_askerFor)
        call->setAsker(m_askerFor(responder, modern, modern ? request->clientCapabilities : QJsonObject(), params));
    peer->attachCall(responder.id(), call);

    // The responder holds the peer weakly and the call not at all: holding the shared pointer
    // in its own connection would keep every finished call alive forever.
    connect(call.data(), &ToolCall::finished, this, [this, responder](const ToolResult &result) { answer(responder, result); });
    if (wantsProgress)
        relayProgress(responder, call, progressToken);
    const auto run = [tool, call] {
        tool->call(call);
        call->trace()->run();
    };
    if (!m_gate) {
        run();
        return;
    }
    m_gate(peer, tool, call, [responder, call, run](const QString &refusal) {
        if (!responder.peer() || call->isFinished() || call->isCancelled())
            return;
        if (refusal.isEmpty()) {
            run();
        } else {
            call->trace()->refuse(refusal);
            call->finish(ToolResult::error(refusal));
        }
    });
}

void ToolCallHandler::relayProgress(const McpResponder &responder, const ToolCallPtr &call, const QJsonValue &progressToken)
{
    auto counter = QSharedPointer<double>::create(0);
    connect(call.data(), &ToolCall::progress, this, [responder, progressToken, counter](double, const QString &message) {
        *counter += 1; // progress must increase with every notification
        QJsonObject params{{QStringLiteral("progressToken"), progressToken}, {QStringLiteral("progress"), *counter}};
        if (!message.isEmpty())
            params.insert(QStringLiteral("message"), message);
        responder.notify(JsonRpc::notification(QStringLiteral("notifications/progress"), params));
    });
}

void ToolCallHandler::answer(const McpResponder &responder, const ToolResult &result)
{
    McpPeer *peer = responder.peer();
    const McpPeer::InFlight *request = peer ? peer->inFlight(responder.id()) : nullptr;
    if (!request)
        return; // the client cancelled it, or went away: no answer
    responder.answer(m_answer.response(responder.id(), peer->activityKey(), result, request->modern), ToolAnswer::traceState(result));
}

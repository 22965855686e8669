#pragma once

#include "ToolAnswer.h"
#include "toolapi/Tool.h"

#include <QJsonObject>
#include <QObject>
#include <functional>

class McpPeer;
class McpResponder;
class ModernAnswers;
class Session;
class ToolRegistry;

// tools/call, as McpServer's table of methods hands it over: the tool named (an unknown one, or
// one the person switched off, is a JSON-RPC error that says why and lists the tools offered),
// the call made (its client as origin, its trace, whether it wants progress, how it asks the
// person at its client), agent access's call gate, the tool run, its progress relayed as
// notifications/progress, and its answer, written whole by ToolAnswer and sent once the call
// finishes, unless the client cancelled it meanwhile.
class ToolCallHandler : public QObject
{
    Q_OBJECT
public:
    // Decides whether a call may run (agent access: allow, ask, read-only, paused). Call
    // `proceed` with an empty refusal to run it, or with the sentence the agent should read.
    using CallGate = std::function<void(McpPeer *peer, Tool *tool, const ToolCallPtr &call,
                                        std::function<void(const QString &refusal)> proceed)>;
    // How a tool call asks the person at its client (ToolCall::askThePerson), made for each call
    // from its request (`modern`: a 2026-07-28 one, whose `_meta` declared `capabilities`):
    // access/ClientElicitation's, which AccessGate::install sets. Unset, no call can ask.
    using AskerFor = std::function<ToolCall::Asker(const McpResponder &responder, bool modern, const QJsonObject &capabilities,
                                                    const QJsonObject &params)>;

    ToolCallHandler(Session *session, ToolRegistry *tools, const ModernAnswers *modern, QObject *parent = nullptr);

    void setCallGate(CallGate gate) { m_gate = std::move(gate); }
    void setAskerFor(AskerFor askerFor) { m_askerFor = std::move(askerFor); }

    void handle(const McpResponder &responder, const QJsonObject &params);

private:
    void answer(const McpResponder &responder, const ToolResult &result);
    void relayProgress(const McpResponder &responder, const ToolCallPtr &call, const QJsonValue &progressToken);

    ToolRegistry *m_tools;
    ToolAnswer m_answer; // every tools/call answer, with the caller's activity digest
    CallGate m_gate;
    AskerFor m_askerFor;
};

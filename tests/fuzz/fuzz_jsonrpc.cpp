// libFuzzer target: JSON-RPC messages from an MCP client, through McpServer::receive as every
// transport calls it, with the resources and prompts added. The engine is never started, so
// calls that need it stay queued and are cancelled when the peer closes; everything else
// (parsing, validation, the method table, initialize, ping, tools/list, resources, prompts,
// logging/setLevel, cancellation, progress tokens) runs for real. Agent access is Allow for an
// input of even length and Ask without a window for an odd one, so tool calls also ask the
// client (elicitation/create, or a 2026-07-28 input_required result whose requestState a
// retry brings back). Input: one or more messages separated by newlines, as on stdio and the
// local socket.
//
// FUZZ_SOURCES: mcp/McpServer.cpp mcp/McpMessage.cpp mcp/StructuredContent.cpp mcp/AccessGate.cpp mcp/ClientElicitation.cpp mcp/RequestTrace.cpp engine/client/project/ProjectFiles.cpp engine/client/project/ProjectRoot.cpp engine/client/project/TextFile.cpp engine/client/project/UnifiedDiff.cpp mcp/McpResponder.cpp mcp/OutgoingRequests.cpp mcp/ListenSubscriptions.cpp mcp/RequestEnvelope.cpp mcp/JsonRpc.cpp mcp/JsonSchema.cpp mcp/Tool.cpp mcp/ToolArguments.cpp mcp/ToolRegistry.cpp mcp/ActivityDigest.cpp mcp/ResourceProvider.cpp mcp/PromptProvider.cpp mcp/tools/EvaluateLispTool.cpp mcp/tools/ToolKit.cpp mcp/tools/JobHandles.cpp mcp/tools/EvalFormatter.cpp engine/client/EngineProtocol.cpp engine/client/Session.cpp engine/client/JobWaiters.cpp engine/client/EngineClient.cpp engine/client/source/LispFile.cpp engine/client/source/LispReader.cpp engine/client/source/SyntaxTree.cpp engine/client/source/LispScanner.cpp engine/client/source/DefinitionForms.cpp engine/client/source/DefiningOperators.cpp engine/client/source/LispPackages.cpp engine/client/source/CommonLispSymbols.cpp engine/client/Debugger.cpp engine/client/SessionDebugger.cpp mcp/tools/DebuggerFormatter.cpp engine/client/LineBuffer.cpp engine/client/JsonTextWriter.cpp engine/client/StageLog.cpp engine/client/JobOutcome.cpp
// FUZZ_MOC: mcp/McpServer.h mcp/AccessGate.h mcp/RequestTrace.h engine/client/project/ProjectFiles.h mcp/McpPeer.h mcp/OutgoingRequests.h mcp/Tool.h mcp/ToolRegistry.h mcp/ResourceProvider.h mcp/PromptProvider.h engine/client/Session.h engine/client/JobWaiters.h engine/client/EngineClient.h mcp/tools/JobHandles.h
// FUZZ_PKGS: Qt6Core libgit2
// FUZZ_CORPUS: jsonrpc
// FUZZ_DICT: jsonrpc.dict

#include "AccessGate.h"
#include "EngineClient.h"
#include "McpServer.h"
#include "PromptProvider.h"
#include "ResourceProvider.h"
#include "Session.h"
#include "ToolRegistry.h"
#include "tools/Tools.h"

#include <QCoreApplication>
#include <memory>

namespace {
struct Stack
{
    EngineClient engine; // not started
    Session session{&engine};
    ToolRegistry tools;
    McpServer server{&session, &tools};
    ResourceProvider resources{&server, &session};
    PromptProvider prompts{&server};
    AccessGate access;
    qint64 sentBytes = 0;

    Stack()
    {
        tools.add(evaluateLispTool(&session));
        access.install(&server);
    }
};

Stack *g_stack = nullptr;
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    qputenv("QT_LOGGING_RULES", "*.debug=false;*.info=false;*.warning=false");
    static QCoreApplication app(*argc, *argv);
    g_stack = new Stack;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    McpPeer *peer = g_stack->server.createPeer(QStringLiteral("fuzz"));
    QObject::connect(peer, &McpPeer::message, peer, [](const QJsonObject &message, const QJsonValue &) {
        g_stack->sentBytes += message.size(); // every message the server sends is well-formed JSON-RPC
        if (!message.contains(QStringLiteral("method")) && !message.contains(QStringLiteral("id")))
            abort(); // a response without an id member breaks JSON-RPC
    });
    g_stack->access.setMode(size % 2 == 0 ? AccessMode::Allow : AccessMode::Ask);
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    for (const QByteArray &line : input.split('\n')) {
        if (!line.trimmed().isEmpty())
            g_stack->server.receive(peer, line);
    }
    QCoreApplication::processEvents();
    g_stack->server.closePeer(peer);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return 0;
}

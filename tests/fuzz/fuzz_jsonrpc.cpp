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
// FUZZ_CORPUS: jsonrpc
// FUZZ_DICT: jsonrpc.dict

#include "access/AccessGate.h"
#include "client/EngineClient.h"
#include "features/PromptProvider.h"
#include "features/ResourceProvider.h"
#include "server/McpServer.h"
#include "session/Session.h"
#include "toolapi/ToolRegistry.h"
#include "tools/JobHandles.h"
#include "tools/Tools.h"

#include <QCoreApplication>
#include <memory>

namespace {
struct Stack
{
    EngineClient engine; // not started
    Session session{&engine};
    JobHandles jobs{&session};
    ToolRegistry tools;
    McpServer server{&session, &tools};
    ResourceProvider resources{&server, &session};
    PromptProvider prompts{&server};
    AccessGate access;
    qint64 sentBytes = 0;

    Stack()
    {
        tools.add(evaluateLispTool(&session, &jobs));
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

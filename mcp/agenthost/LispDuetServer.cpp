#include "LispDuetServer.h"

#include <QFileInfo>

std::optional<Acp::McpServer> LispDuetServer::forAgent(const Acp::AgentCapabilities &capabilities, QString *why) const
{
    Acp::McpServer server;
    server.name = name;
    if (capabilities.mcpHttp && !httpUrl.isEmpty()) {
        server.transport = Acp::McpServer::Transport::Http;
        server.url = httpUrl;
        if (!token.isEmpty())
            server.headers = {{QStringLiteral("Authorization"), QStringLiteral("Bearer ") + QString::fromLatin1(token)}};
        return server;
    }
    if (!socketPath.isEmpty() && QFileInfo(bridgePath).isExecutable()) {
        server.transport = Acp::McpServer::Transport::Stdio;
        server.command = QFileInfo(bridgePath).absoluteFilePath();
        server.args = {QStringLiteral("--socket"), socketPath};
        return server;
    }
    if (why) {
        if (socketPath.isEmpty())
            *why = capabilities.mcpHttp ? QStringLiteral("Lisp Duet listens neither on HTTP nor on its local socket, so the agent cannot reach the session.")
                                        : QStringLiteral("The agent takes MCP servers over stdio only, and Lisp Duet's local socket does not listen, so the agent cannot reach the session.");
        else
            *why = QStringLiteral("lisp-duet-bridge is not at %1, so the agent cannot reach the session through the local socket.").arg(bridgePath);
    }
    return std::nullopt;
}

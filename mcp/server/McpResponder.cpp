#include "McpResponder.h"

#include "jsonrpc/JsonRpc.h"
#include "McpPeer.h"
#include "McpServer.h"

McpResponder::McpResponder(McpServer *server, McpPeer *peer, const QJsonValue &id) : m_server(server), m_peer(peer), m_id(id) {}

void McpResponder::result(const QJsonObject &result) const
{
    if (m_server)
        m_server->respond(m_peer, m_id, JsonRpc::response(m_id, result));
}

void McpResponder::error(int code, const QString &message, const QJsonValue &data) const
{
    if (m_server)
        m_server->respond(m_peer, m_id, JsonRpc::error(m_id, code, message, data));
}

void McpResponder::answer(const McpMessage &answer, RequestTrace::State state) const
{
    if (m_server)
        m_server->deliver(m_peer, m_id, answer, state);
}

void McpResponder::notify(const QJsonObject &notification) const
{
    if (m_peer && m_peer->isInFlight(m_id))
        m_peer->send(notification, m_id);
}

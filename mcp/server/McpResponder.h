#pragma once

#include "McpMessage.h"
#include "toolapi/RequestTrace.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QPointer>

class McpPeer;
class McpServer;

// How a method handler answers its request: bound to the server, the client and the request's
// id, so that every answer (tools, resources, prompts, logging, errors) takes the one path the
// window's Tool calls panel observes (McpServer::requestTraced). A copy may be kept to answer
// later; if the client went away meanwhile, the answer is dropped. Only the first answer counts.
class McpResponder
{
public:
    McpResponder(McpServer *server, McpPeer *peer, const QJsonValue &id);

    McpPeer *peer() const { return m_peer; } // null once the client is gone
    const QJsonValue &id() const { return m_id; }

    void result(const QJsonObject &result) const;
    void error(int code, const QString &message, const QJsonValue &data = {}) const;
    // An answer written whole already (a tool call's: ToolAnswer), sent as it is, with how the
    // call ended for its trace.
    void answer(const McpMessage &answer, RequestTrace::State state) const;
    // A notification that belongs to this request (progress), while it is in flight.
    void notify(const QJsonObject &notification) const;

private:
    QPointer<McpServer> m_server;
    QPointer<McpPeer> m_peer;
    QJsonValue m_id;
};

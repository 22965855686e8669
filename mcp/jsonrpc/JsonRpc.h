#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

// JSON-RPC 2.0 itself, nothing of the protocols carried over it (MCP's server, and the Agent
// Client Protocol's client, share it): ids are strings or integers and are echoed back exactly.
namespace JsonRpc {

// JSON-RPC's own codes; a protocol adds its own beside them (MCP's: server/McpErrors.h).
enum ErrorCode {
    ParseError = -32700,
    InvalidRequest = -32600,
    MethodNotFound = -32601,
    InvalidParams = -32602,
    InternalError = -32603,
};

// A string, or an integer that a double holds exactly.
bool isValidId(const QJsonValue &id);
// A key for hashing ids: "s:abc" or "n:42", so that "42" and 42 stay different requests.
QString idKey(const QJsonValue &id);

QJsonObject request(const QJsonValue &id, const QString &method, const QJsonObject &params = {});
QJsonObject response(const QJsonValue &id, const QJsonValue &result);
QJsonObject error(const QJsonValue &id, int code, const QString &message, const QJsonValue &data = {});
QJsonObject notification(const QString &method, const QJsonObject &params = {});

// One received message, parsed once from its bytes: what it is (a request, a notification, a
// response, a batch of messages, or invalid) and its parts. An invalid message carries the
// error answer it gets, with its id when it had a usable one. Nothing here answers anything:
// the protocol's side decides that (McpServer).
class Message
{
public:
    enum class Kind { Request, Notification, Response, Batch, Invalid };

    static Message parse(const QByteArray &bytes);
    static Message fromObject(const QJsonObject &object);
    static Message invalid(const QJsonValue &id, int code, const QString &message);

    Kind kind() const { return m_kind; }
    bool isRequest() const { return m_kind == Kind::Request; }

    // Requests and responses; for an invalid message, the id its error echoes (null if none).
    const QJsonValue &id() const { return m_id; }
    const QString &method() const { return m_method; }
    // Anything the peer sent; McpServer requires an object for requests.
    const QJsonValue &params() const { return m_params; }
    const QJsonObject &object() const { return m_object; } // the whole message, as received
    const QList<Message> &batch() const { return m_batch; }
    const QJsonObject &refusal() const { return m_refusal; } // invalid: the error answer

private:
    Kind m_kind = Kind::Invalid;
    QJsonValue m_id = QJsonValue::Undefined;
    QString m_method;
    QJsonValue m_params = QJsonValue::Undefined;
    QJsonObject m_object;
    QList<Message> m_batch;
    QJsonObject m_refusal;
};

} // namespace JsonRpc

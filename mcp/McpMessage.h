#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QMetaType>

// One outgoing JSON-RPC message, as an object or as the JSON text a transport writes: each
// form is made from the other only when somebody asks for it. An answer the server wrote as
// text (a tool call's result, McpServer::respondToToolCall) reaches the wire without a
// QJsonObject; an inspector or a test that reads it as an object gets one then. It converts to
// a QJsonObject where one is expected.
class McpMessage
{
public:
    McpMessage() = default;
    McpMessage(const QJsonObject &object) : m_object(object), m_hasObject(true) {} // NOLINT: implicit by design
    static McpMessage fromText(QByteArray json)
    {
        McpMessage message;
        message.m_text = std::move(json);
        message.m_hasObject = false;
        return message;
    }

    const QJsonObject &object() const;
    const QByteArray &text() const;
    operator const QJsonObject &() const { return object(); } // NOLINT: implicit by design

private:
    mutable QJsonObject m_object;
    mutable QByteArray m_text;
    mutable bool m_hasObject = true;
};

Q_DECLARE_METATYPE(McpMessage)

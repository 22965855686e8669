#include "McpMessage.h"

#include "JsonTextWriter.h"

#include <QJsonDocument>

const QJsonObject &McpMessage::object() const
{
    if (!m_hasObject) {
        m_object = QJsonDocument::fromJson(m_text).object();
        m_hasObject = true;
    }
    return m_object;
}

const QByteArray &McpMessage::text() const
{
    if (m_text.isEmpty())
        m_text = JsonTextWriter::compact(m_object);
    return m_text;
}

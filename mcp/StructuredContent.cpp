#include "StructuredContent.h"

#include "JsonTextWriter.h"

#include <QJsonDocument>

const QJsonObject &StructuredContent::object() const
{
    if (m_textOnly) {
        m_object = QJsonDocument::fromJson(m_text).object();
        m_textOnly = false;
    }
    return m_object;
}

QJsonObject &StructuredContent::edit()
{
    object();
    m_text.clear();
    return m_object;
}

QByteArray StructuredContent::text() const
{
    if (m_textOnly || !m_text.isEmpty())
        return m_text;
    return JsonTextWriter::compact(m_object);
}

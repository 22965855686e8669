#include "JsonObjectText.h"

#include "JsonTextWriter.h"

#include <QJsonDocument>

JsonObjectText JsonObjectText::fromText(QByteArray json)
{
    JsonObjectText made;
    made.m_text = std::move(json);
    made.m_textOnly = true;
    return made;
}

const QJsonObject &JsonObjectText::object() const
{
    if (m_textOnly) {
        m_object = QJsonDocument::fromJson(m_text).object();
        m_textOnly = false;
    }
    return m_object;
}

QJsonObject &JsonObjectText::edit()
{
    object();
    m_text.clear();
    return m_object;
}

const QByteArray &JsonObjectText::text() const
{
    if (m_text.isEmpty())
        m_text = JsonTextWriter::compact(m_object);
    return m_text;
}

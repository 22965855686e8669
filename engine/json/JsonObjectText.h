#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QMetaType>

// A JSON object held as a QJsonObject or as its compact text, each form made from the other
// only when somebody asks for it. The hot path writes text (JsonTextWriter) and sends it as it
// is; a reader that wants an object (a test, an inspector, a tool adding a field) gets one
// then. MCP messages (McpMessage) and tool results' structuredContent (StructuredContent) are
// this; it converts to a QJsonObject where one is expected.
class JsonObjectText
{
public:
    JsonObjectText() = default;
    JsonObjectText(const QJsonObject &object) : m_object(object) {} // NOLINT: implicit by design
    JsonObjectText(std::initializer_list<QPair<QString, QJsonValue>> fields) : m_object(fields) {}
    static JsonObjectText fromText(QByteArray json);

    // The object, for reading; made from the text once.
    const QJsonObject &object() const;
    // The object, for changing it: the text is dropped.
    QJsonObject &edit();
    // The compact JSON text ("{}" when empty); made from the object once.
    const QByteArray &text() const;
    bool isEmpty() const { return m_textOnly ? m_text.size() <= 2 : m_object.isEmpty(); }

    operator const QJsonObject &() const { return object(); } // NOLINT: implicit by design
    QJsonValue value(QStringView key) const { return object().value(key); }
    void insert(const QString &key, const QJsonValue &value) { edit().insert(key, value); }

private:
    mutable QJsonObject m_object;
    mutable QByteArray m_text; // empty: not made yet
    mutable bool m_textOnly = false;
};

Q_DECLARE_METATYPE(JsonObjectText)

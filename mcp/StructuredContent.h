#pragma once

#include <QByteArray>
#include <QJsonObject>

// A tool result's structuredContent: an object a tool builds and changes, or the JSON text a
// formatter on the hot path wrote directly (EvalFormatter: an evaluation's result). Each form is
// made from the other only when asked for: the text of a result nobody changes goes to the
// client as it was written, and a tool that adds a field to it (time-execution's timing) gets
// an object to change.
class StructuredContent
{
public:
    StructuredContent() = default;
    StructuredContent(const QJsonObject &object) : m_object(object) {} // NOLINT: implicit by design
    StructuredContent(std::initializer_list<QPair<QString, QJsonValue>> fields) : m_object(fields) {}
    static StructuredContent fromText(QByteArray json)
    {
        StructuredContent content;
        content.m_text = std::move(json);
        content.m_textOnly = true;
        return content;
    }

    // The object, for reading; made from the text once.
    const QJsonObject &object() const;
    // The object, for changing it: the text is dropped.
    QJsonObject &edit();
    // The JSON text of the object ("{}" when empty).
    QByteArray text() const;
    bool isEmpty() const { return m_textOnly ? m_text.size() <= 2 : m_object.isEmpty(); }

    operator const QJsonObject &() const { return object(); } // NOLINT: implicit by design
    QJsonValue value(QStringView key) const { return object().value(key); }
    void insert(const QString &key, const QJsonValue &value) { edit().insert(key, value); }

private:
    mutable QJsonObject m_object;
    mutable QByteArray m_text;
    mutable bool m_textOnly = false;
};

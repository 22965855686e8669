#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QLatin1StringView>
#include <QStringView>

#include <string>

// Writes compact JSON text (UTF-8) for the messages the app sends on every call: the engine's
// requests and the answers to MCP clients. QJsonDocument::toJson took about three times as long
// for an evaluation's answer (measured: 6.0 us against 2.0 us for its structuredContent), and a
// message written field by field needs no QJsonObject at all.
//
//   JsonTextWriter json;
//   json.beginObject().key("id").value(7).key("op").value(u"eval").endObject();
//   QByteArray line = json.take();
//
// Commas go in by themselves. Strings are escaped as RFC 8259 says (", \, control characters);
// everything else is UTF-8, and a lone UTF-16 surrogate becomes U+FFFD, as in QJsonDocument.
// Numbers that are not finite are written as null, as QJsonDocument writes them.
class JsonTextWriter
{
public:
    explicit JsonTextWriter(qsizetype reserve = 256) { m_out.reserve(size_t(reserve)); }

    JsonTextWriter &beginObject() { return open('{'); }
    JsonTextWriter &endObject() { return close('}'); }
    JsonTextWriter &beginArray() { return open('['); }
    JsonTextWriter &endArray() { return close(']'); }
    // A key of an object: ASCII the caller wrote, so it needs no escaping.
    JsonTextWriter &key(QLatin1StringView name);
    JsonTextWriter &key(const char *name) { return key(QLatin1StringView(name)); }

    JsonTextWriter &value(QStringView text);
    JsonTextWriter &value(const QString &text) { return value(QStringView(text)); }
    JsonTextWriter &value(const char16_t *text) { return value(QStringView(text)); }
    JsonTextWriter &value(double number);
    JsonTextWriter &value(qint64 number);
    JsonTextWriter &value(int number) { return value(qint64(number)); }
    JsonTextWriter &value(bool flag);
    JsonTextWriter &value(const QJsonValue &json);
    JsonTextWriter &value(const QJsonObject &object);
    JsonTextWriter &value(const QJsonArray &array);
    JsonTextWriter &null();
    JsonTextWriter &strings(const QStringList &list);
    // Text that is one JSON value already.
    JsonTextWriter &raw(QByteArrayView json);
    // The members of `object`, the text of one JSON object, written into the object open now,
    // so that more members can follow them.
    JsonTextWriter &members(QByteArrayView object);

    QByteArray text() const { return QByteArray(m_out.data(), qsizetype(m_out.size())); }
    QByteArray take() { return QByteArray(m_out.data(), qsizetype(m_out.size())); }

    // The whole of a QJsonObject, as QJsonDocument(object).toJson(Compact) would write it.
    static QByteArray compact(const QJsonObject &object);

private:
    JsonTextWriter &open(char bracket);
    JsonTextWriter &close(char bracket);
    void beforeValue()
    {
        if (m_needsComma)
            m_out.push_back(',');
        m_needsComma = true;
    }
    void writeString(QStringView text);

    std::string m_out; // appends inline; QByteArray's checked each one in a call
    bool m_needsComma = false;
};

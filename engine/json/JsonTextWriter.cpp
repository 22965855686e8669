#include "JsonTextWriter.h"

#include <charconv>
#include <cmath>

JsonTextWriter &JsonTextWriter::open(char bracket)
{
    beforeValue();
    m_out.push_back(bracket);
    m_needsComma = false;
    return *this;
}

JsonTextWriter &JsonTextWriter::close(char bracket)
{
    m_out.push_back(bracket);
    m_needsComma = true;
    return *this;
}

JsonTextWriter &JsonTextWriter::key(QLatin1StringView name)
{
    beforeValue();
    m_out.push_back('"');
    m_out.append(name.data(), size_t(name.size()));
    m_out.append("\":", 2);
    m_needsComma = false; // the value follows the colon
    return *this;
}

JsonTextWriter &JsonTextWriter::value(QStringView text)
{
    beforeValue();
    writeString(text);
    return *this;
}

JsonTextWriter &JsonTextWriter::value(double number)
{
    beforeValue();
    if (!std::isfinite(number)) {
        m_out.append("null", 4);
        return *this;
    }
    char digits[32];
    const auto written = std::to_chars(digits, digits + sizeof digits, number); // the shortest exact form
    m_out.append(digits, size_t(written.ptr - digits));
    return *this;
}

JsonTextWriter &JsonTextWriter::value(qint64 number)
{
    beforeValue();
    char digits[24];
    const auto written = std::to_chars(digits, digits + sizeof digits, number);
    m_out.append(digits, size_t(written.ptr - digits));
    return *this;
}

JsonTextWriter &JsonTextWriter::value(bool flag)
{
    beforeValue();
    if (flag)
        m_out.append("true", 4);
    else
        m_out.append("false", 5);
    return *this;
}

JsonTextWriter &JsonTextWriter::members(QByteArrayView object)
{
    const QByteArrayView braced = object.trimmed();
    if (braced.size() < 2)
        return *this;
    const QByteArrayView inside = braced.sliced(1, braced.size() - 2); // "{...}" without its braces
    if (inside.trimmed().isEmpty())
        return *this;
    beforeValue();
    m_out.append(inside.data(), size_t(inside.size()));
    return *this;
}

JsonTextWriter &JsonTextWriter::null()
{
    beforeValue();
    m_out.append("null", 4);
    return *this;
}

JsonTextWriter &JsonTextWriter::strings(const QStringList &list)
{
    beginArray();
    for (const QString &text : list)
        value(text);
    return endArray();
}

JsonTextWriter &JsonTextWriter::raw(QByteArrayView json)
{
    beforeValue();
    m_out.append(json.data(), size_t(json.size()));
    return *this;
}

JsonTextWriter &JsonTextWriter::value(const QJsonObject &object)
{
    beforeValue();
    m_out.push_back('{');
    m_needsComma = false;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (m_needsComma)
            m_out.push_back(',');
        writeString(it.key());
        m_out.push_back(':');
        m_needsComma = false;
        value(it.value());
    }
    return endObject();
}

JsonTextWriter &JsonTextWriter::value(const QJsonArray &array)
{
    beginArray();
    for (const QJsonValue &element : array)
        value(element);
    return endArray();
}

JsonTextWriter &JsonTextWriter::value(const QJsonValue &json)
{
    switch (json.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return null();
    case QJsonValue::Bool:
        return value(json.toBool());
    case QJsonValue::Double: {
        // A whole number is written as one: exactly, when QJsonValue holds it as an integer.
        // (Qt 6.4's toInteger() takes NaN for a whole number: the finite check comes first.)
        const double number = json.toDouble();
        if (!std::isfinite(number))
            return null();
        const qint64 integer = json.toInteger(0);
        if (integer != 0 || number == 0.0)
            return value(integer);
        return value(number);
    }
    case QJsonValue::String:
        return value(json.toString());
    case QJsonValue::Array:
        return value(json.toArray());
    case QJsonValue::Object:
        return value(json.toObject());
    }
    return null();
}

void JsonTextWriter::writeString(QStringView text)
{
    static const char hex[] = "0123456789abcdef";
    const char16_t *chars = text.utf16();
    const qsizetype length = text.size();
    m_out.push_back('"');
    // A piece at a time: room for the worst case (6 bytes per UTF-16 unit, \u00XX) is made
    // first, then the bytes are written through a pointer.
    constexpr qsizetype Piece = 8192;
    for (qsizetype begin = 0; begin < length;) {
        const qsizetype end = qMin(length, begin + Piece);
        const size_t start = m_out.size();
        m_out.resize(start + size_t(6 * (end - begin + 1)));
        char *out = m_out.data() + start;
        qsizetype i = begin;
        for (; i < end; ++i) {
            const char16_t c = chars[i];
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    *out++ = char(c);
                    continue;
                }
                *out++ = '\\';
                switch (c) {
                case '"': *out++ = '"'; break;
                case '\\': *out++ = '\\'; break;
                case '\n': *out++ = 'n'; break;
                case '\r': *out++ = 'r'; break;
                case '\t': *out++ = 't'; break;
                case '\b': *out++ = 'b'; break;
                case '\f': *out++ = 'f'; break;
                default:
                    *out++ = 'u';
                    *out++ = '0';
                    *out++ = '0';
                    *out++ = hex[c >> 4];
                    *out++ = hex[c & 0xF];
                }
                continue;
            }
            char32_t code = c;
            if (QChar::isHighSurrogate(c) && i + 1 < length && QChar::isLowSurrogate(chars[i + 1])) {
                code = QChar::surrogateToUcs4(c, chars[i + 1]);
                ++i; // the pair may end one past the piece: the room for it is there
            } else if (QChar::isSurrogate(c)) {
                code = 0xFFFD; // a lone surrogate cannot be encoded
            }
            if (code < 0x800) {
                *out++ = char(0xC0 | (code >> 6));
                *out++ = char(0x80 | (code & 0x3F));
            } else if (code < 0x10000) {
                *out++ = char(0xE0 | (code >> 12));
                *out++ = char(0x80 | ((code >> 6) & 0x3F));
                *out++ = char(0x80 | (code & 0x3F));
            } else {
                *out++ = char(0xF0 | (code >> 18));
                *out++ = char(0x80 | ((code >> 12) & 0x3F));
                *out++ = char(0x80 | ((code >> 6) & 0x3F));
                *out++ = char(0x80 | (code & 0x3F));
            }
        }
        m_out.resize(size_t(out - m_out.data()));
        begin = i;
    }
    m_out.push_back('"');
}

QByteArray JsonTextWriter::compact(const QJsonObject &object)
{
    JsonTextWriter json(1024); // most messages fit: no reallocation while writing
    json.value(object);
    return json.take();
}

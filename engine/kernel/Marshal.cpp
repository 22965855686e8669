#include "Marshal.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

namespace Marshal {

cl_object toLispString(const QString &text)
{
    // UTF-16 to code points in one pass over the text, straight into the Lisp string.
    const qsizetype units = text.size();
    qsizetype pairs = 0;
    for (qsizetype i = 0; i + 1 < units; ++i) {
        if (text[i].isHighSurrogate() && text[i + 1].isLowSurrogate()) {
            ++pairs;
            ++i;
        }
    }
    cl_object string = ecl_alloc_simple_extended_string(cl_index(units - pairs));
    ecl_character *to = string->string.self;
    for (qsizetype i = 0; i < units; ++i) {
        const char16_t unit = text[i].unicode();
        if (QChar::isHighSurrogate(unit) && i + 1 < units && text[i + 1].isLowSurrogate()) {
            *to++ = ecl_character(QChar::surrogateToUcs4(unit, text[i + 1].unicode()));
            ++i;
        } else {
            *to++ = ecl_character(unit);
        }
    }
    return string;
}

cl_object keyword(const QString &key)
{
    // Keywords are interned for good, so the cache never holds a dead object. One cache per
    // thread: each Lisp thread converts its own requests.
    thread_local QHash<QString, cl_object> cache;
    const auto found = cache.constFind(key);
    if (found != cache.constEnd())
        return *found;
    const cl_object symbol = ecl_make_keyword(key.toUpper().toLatin1().constData());
    cache.insert(key, symbol);
    return symbol;
}

QString fromLispString(cl_object string)
{
    if (!ECL_STRINGP(string))
        return {};
    const cl_index length = ecl_length(string);
    QList<char32_t> ucs4;
    ucs4.reserve(qsizetype(length));
    for (cl_index i = 0; i < length; ++i)
        ucs4.append(char32_t(ecl_char(string, i)));
    return QString::fromUcs4(ucs4.constData(), ucs4.size());
}

cl_object toLisp(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Bool:
        return value.toBool() ? ECL_T : ECL_NIL;
    case QJsonValue::Double: {
        const double d = value.toDouble();
        if (d > -9.0e15 && d < 9.0e15 && d == double(qint64(d))) // range first: the cast of 1e60 is undefined
            return ecl_make_integer(cl_fixnum(qint64(d)));
        return ecl_make_double_float(d);
    }
    case QJsonValue::String:
        return toLispString(value.toString());
    case QJsonValue::Array: {
        cl_object list = ECL_NIL;
        const QJsonArray array = value.toArray();
        for (auto it = array.end(); it != array.begin();) {
            --it;
            list = ecl_cons(toLisp(*it), list);
        }
        return list;
    }
    case QJsonValue::Object: {
        cl_object plist = ECL_NIL;
        const QJsonObject object = value.toObject();
        for (auto it = object.end(); it != object.begin();) {
            --it;
            plist = ecl_cons(toLisp(it.value()), plist);
            plist = ecl_cons(keyword(it.key()), plist);
        }
        return plist;
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        break;
    }
    return ECL_NIL;
}

} // namespace Marshal

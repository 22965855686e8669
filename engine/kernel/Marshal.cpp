#include "Marshal.h"

#include <QJsonArray>
#include <QJsonObject>

namespace Marshal {

cl_object toLispString(const QString &text)
{
    const QList<uint> ucs4 = text.toUcs4();
    cl_object string = ecl_alloc_simple_extended_string(cl_index(ucs4.size()));
    for (qsizetype i = 0; i < ucs4.size(); ++i)
        ecl_char_set(string, cl_index(i), ecl_character(ucs4[i]));
    return string;
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
        const QStringList keys = object.keys();
        for (auto it = keys.rbegin(); it != keys.rend(); ++it) {
            plist = ecl_cons(toLisp(object.value(*it)), plist);
            plist = ecl_cons(ecl_make_keyword(it->toUpper().toLatin1().constData()), plist);
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

#pragma once

#include <ecl/ecl.h>
#include <QJsonValue>
#include <QString>

// Conversions between Lisp objects and Qt values, in one place and with symmetric names.
// Strings cross as UCS-4 so that no Latin-1 reading ever garbles UTF-8 text.
namespace Marshal {

cl_object toLispString(const QString &text);
// "print_length" -> :PRINT_LENGTH, interned once per thread and key.
cl_object keyword(const QString &key);
QString fromLispString(cl_object string);

// JSON objects become property lists with keyword keys (:PRINT_LENGTH for "print_length"),
// arrays become lists, true becomes T, false and null become NIL.
cl_object toLisp(const QJsonValue &value);

} // namespace Marshal

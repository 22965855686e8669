#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>

// The pieces of RFC 9110/9112 syntax that both the request parser and the response writer need.
using HttpHeaders = QList<QPair<QByteArray, QByteArray>>;

namespace HttpSyntax {

bool isTchar(unsigned char c);                 // RFC 9110 5.6.2 tchar
bool isToken(QByteArrayView s);                // one or more tchar
bool isOws(char c);                            // SP or HTAB
bool isFieldValueChar(unsigned char c);        // field-vchar, SP, HTAB, obs-text
QByteArrayView trimOws(QByteArrayView s);      // strips SP and HTAB only
bool equalsIgnoreCase(QByteArrayView a, QByteArrayView b);

} // namespace HttpSyntax

#include "HttpSyntax.h"

namespace HttpSyntax {

bool isTchar(unsigned char c)
{
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
        return true;
    switch (c) {
    case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+':
    case '-': case '.': case '^': case '_': case '`': case '|': case '~':
        return true;
    default:
        return false;
    }
}

bool isToken(QByteArrayView s)
{
    if (s.isEmpty())
        return false;
    for (char c : s) {
        if (!isTchar(static_cast<unsigned char>(c)))
            return false;
    }
    return true;
}

bool isOws(char c) { return c == ' ' || c == '\t'; }

// field-vchar / SP / HTAB, obs-text included: everything but the controls and DEL.
bool isFieldValueChar(unsigned char c) { return c == '\t' || (c >= 0x20 && c != 0x7f); }

// Not QByteArrayView::trimmed(): that also strips CR, LF, VT and FF, which must be refused.
QByteArrayView trimOws(QByteArrayView s)
{
    qsizetype b = 0;
    qsizetype e = s.size();
    while (b < e && isOws(s[b]))
        ++b;
    while (e > b && isOws(s[e - 1]))
        --e;
    return s.sliced(b, e - b);
}

bool equalsIgnoreCase(QByteArrayView a, QByteArrayView b)
{
    return a.size() == b.size() && a.compare(b, Qt::CaseInsensitive) == 0;
}

} // namespace HttpSyntax

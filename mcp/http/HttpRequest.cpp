#include "HttpRequest.h"

using namespace HttpSyntax;

QByteArray HttpRequest::header(QByteArrayView name) const
{
    for (const auto &h : headers) {
        if (equalsIgnoreCase(h.first, name))
            return h.second;
    }
    return QByteArray();
}

QList<QByteArray> HttpRequest::headerValues(QByteArrayView name) const
{
    QList<QByteArray> values;
    for (const auto &h : headers) {
        if (equalsIgnoreCase(h.first, name))
            values.append(h.second);
    }
    return values;
}

bool HttpRequest::hasHeader(QByteArrayView name) const
{
    for (const auto &h : headers) {
        if (equalsIgnoreCase(h.first, name))
            return true;
    }
    return false;
}

bool HttpRequest::headerHasToken(QByteArrayView name, QByteArrayView token) const
{
    for (const auto &h : headers) {
        if (!equalsIgnoreCase(h.first, name))
            continue;
        QByteArrayView rest(h.second);
        while (!rest.isEmpty()) {
            qsizetype comma = rest.indexOf(',');
            QByteArrayView item = comma < 0 ? rest : rest.first(comma);
            if (equalsIgnoreCase(trimOws(item), token))
                return true;
            rest = comma < 0 ? QByteArrayView() : rest.sliced(comma + 1);
        }
    }
    return false;
}

bool HttpRequest::keepAlive() const
{
    if (headerHasToken("connection", "close"))
        return false;
    if (isHttp11())
        return true;
    return headerHasToken("connection", "keep-alive");
}

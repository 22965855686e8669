#include "HttpResponse.h"

#include <QDateTime>
#include <QLocale>

using namespace HttpSyntax;

namespace {

QByteArray withoutControls(const QByteArray &s)
{
    QByteArray out = s;
    for (char &c : out) {
        if (!isFieldValueChar(static_cast<unsigned char>(c)))
            c = ' ';
    }
    return out;
}

QByteArray httpDate()
{
    // IMF-fixdate, in English whatever the user's locale.
    return QLocale::c()
        .toString(QDateTime::currentDateTimeUtc(), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
        .toLatin1();
}

} // namespace

HttpResponse HttpResponse::withBody(int status, const QByteArray &contentType, const QByteArray &body)
{
    HttpResponse response;
    response.status = status;
    response.setHeader("Content-Type", contentType);
    response.body = body;
    return response;
}

void HttpResponse::setHeader(const QByteArray &name, const QByteArray &value)
{
    headers.removeIf([&](const QPair<QByteArray, QByteArray> &h) { return equalsIgnoreCase(h.first, name); });
    headers.append({name, value});
}

void HttpResponse::addHeader(const QByteArray &name, const QByteArray &value)
{
    headers.append({name, value});
}

QByteArray HttpResponse::reasonPhrase(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 101: return "Switching Protocols";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 308: return "Permanent Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 417: return "Expectation Failed";
    case 422: return "Unprocessable Content";
    case 426: return "Upgrade Required";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
    default: break;
    }
    switch (status / 100) {
    case 1: return "Informational";
    case 2: return "Success";
    case 3: return "Redirection";
    case 4: return "Client Error";
    case 5: return "Server Error";
    default: return "Unknown";
    }
}

QByteArray HttpResponse::serializeHead() const
{
    const int code = status >= 100 && status <= 599 ? status : 500;
    QByteArray out;
    out.reserve(256);
    out += "HTTP/1.1 ";
    out += QByteArray::number(code);
    out += ' ';
    out += (reason.isEmpty() || code != status) ? reasonPhrase(code) : withoutControls(reason);
    out += "\r\n";
    bool hasDate = false;
    for (const auto &h : headers) {
        if (!isToken(h.first))
            continue;
        hasDate = hasDate || equalsIgnoreCase(h.first, "date");
        out += h.first;
        out += ": ";
        out += withoutControls(h.second);
        out += "\r\n";
    }
    if (!hasDate) {
        // RFC 9110 6.6.1: an origin server with a clock must send one.
        out += "Date: ";
        out += httpDate();
        out += "\r\n";
    }
    out += "\r\n";
    return out;
}

QByteArray HttpResponse::serialize() const
{
    HttpResponse copy = *this;
    copy.headers.removeIf([](const QPair<QByteArray, QByteArray> &h) {
        return equalsIgnoreCase(h.first, "content-length") || equalsIgnoreCase(h.first, "transfer-encoding");
    });
    const int code = copy.status;
    const bool bodiless = (code >= 100 && code < 200) || code == 204 || code == 304;
    if (bodiless) {
        copy.body.clear();
        return copy.serializeHead();
    }
    copy.headers.append({"Content-Length", QByteArray::number(copy.body.size())});
    return copy.serializeHead() + copy.body;
}

QByteArray httpChunk(const QByteArray &data)
{
    if (data.isEmpty())
        return QByteArray();
    return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
}

QByteArray httpLastChunk()
{
    return QByteArrayLiteral("0\r\n\r\n");
}

#pragma once

#include "HttpSyntax.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

// One HTTP request as HttpRequestParser read it, and what the server asks of its headers.
struct HttpRequest
{
    QByteArray method;  // case-sensitive token, e.g. "POST"
    QByteArray target;  // the request-target exactly as sent
    QByteArray path;    // target up to '?', still percent-encoded; "/" for "http://host"; "*"
    QByteArray query;   // after the first '?', without it; empty when there is none
    QByteArray version; // "HTTP/1.0" or "HTTP/1.1"
    HttpHeaders headers; // in arrival order, names as sent, values without surrounding OWS
    QByteArray body;    // decoded (de-chunked) body

    // Header names compare case-insensitively. header() gives the first value (or a null
    // QByteArray when absent); headerValues() gives all of them, in order.
    QByteArray header(QByteArrayView name) const;
    QList<QByteArray> headerValues(QByteArrayView name) const;
    bool hasHeader(QByteArrayView name) const;
    // True when a comma-separated header (Connection, Accept...) lists token, ignoring case.
    bool headerHasToken(QByteArrayView name, QByteArrayView token) const;

    bool isHttp11() const { return version == "HTTP/1.1"; }
    // HTTP/1.1: persistent unless "Connection: close"; HTTP/1.0: only with "Connection: keep-alive".
    bool keepAlive() const;
};

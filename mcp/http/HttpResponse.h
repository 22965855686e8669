#pragma once

#include "HttpSyntax.h"

#include <QByteArray>

// An HTTP/1.1 response as the server writes it, whole or as the head of a streamed body.
struct HttpResponse
{
    int status = 200;
    QByteArray reason; // empty: the standard phrase for status
    HttpHeaders headers;
    QByteArray body;

    // A body of this media type (e.g. "application/json"), with its Content-Type.
    static HttpResponse withBody(int status, const QByteArray &contentType, const QByteArray &body);

    void setHeader(const QByteArray &name, const QByteArray &value); // replaces all of that name
    void addHeader(const QByteArray &name, const QByteArray &value);

    // Status line, headers and the blank line, exactly as set (plus a Date when none is set):
    // for streamed responses, where the caller adds Transfer-Encoding: chunked or Connection:
    // close itself. Names that are not tokens are dropped and control characters in values or
    // the reason are turned into spaces, so no caller can split the response.
    QByteArray serializeHead() const;
    // The whole response. Content-Length is always computed from body (a caller-set one, or a
    // Transfer-Encoding, is dropped so they can never disagree); 1xx, 204 and 304 carry no body.
    QByteArray serialize() const;

    static QByteArray reasonPhrase(int status);
};

// Transfer-Encoding: chunked framing for streamed bodies (SSE over a keep-alive connection).
// An empty data gives an empty result, because a zero-size chunk would end the body.
QByteArray httpChunk(const QByteArray &data);
QByteArray httpLastChunk(); // "0\r\n\r\n"

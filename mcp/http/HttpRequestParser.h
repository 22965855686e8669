// A small, strict, incremental HTTP/1.1 request parser for the Streamable HTTP MCP transport.
// What goes back out is HttpResponse.h (responses, chunks) and ServerSentEvents.h.
//
// QtCore only: no sockets, no QObject. The server owns a parser per connection, feeds it what
// it reads, and pulls complete requests out one at a time:
//
//     parser.feed(socket->readAll());
//     HttpRequest request;
//     for (;;) {
//         switch (parser.next(request)) {
//         case HttpRequestParser::Complete: handle(request); continue;
//         case HttpRequestParser::NeedMore: if (parser.takeContinueRequest()) send100(); break;
//         case HttpRequestParser::Error: answer(parser.errorStatus(), parser.errorReason()); close();
//         }
//         break;
//     }
//
// Strictness, and why: the server listens on 127.0.0.1 for MCP clients whose HTTP stacks
// (fetch/undici, httpx, Go net/http, curl) all produce clean RFC 9112 messages, so anything
// ambiguous is far more likely to be an attack (request smuggling, DNS rebinding through a
// confused proxy, header injection) than a client we want to serve.
//  - Lines end in CRLF. A bare LF or a bare CR is a 400 (RFC 9112 allows accepting bare LF;
//    we don't: no client we serve sends it, and agreeing with the strictest reading means no
//    intermediary can frame the stream differently from us).
//  - Up to 4 empty lines before a request line are skipped (RFC 9112 2.2: old clients send an
//    extra CRLF after a POST body).
//  - Method and header names are RFC 9110 tokens; exactly one SP between the request-line
//    parts; version is exactly "HTTP/d.d" (else 400), and only 1.0 and 1.1 are served (505).
//  - request-target: origin-form ("/path?query"), absolute-form ("http://host/path") or "*"
//    for OPTIONS; visible ASCII only, no '#'. Anything else is a 400.
//  - No whitespace between a header name and its colon, no obs-fold (a line starting with SP or
//    HTAB), no control characters in values (HTAB excepted); obs-text (0x80-0xFF) is kept.
//  - Content-Length: digits only; duplicates (or a comma list) are accepted only when every
//    value is the same number, as RFC 9112 6.3 permits; a value over the body limit is 413 as
//    soon as the headers are read, without waiting for the body. No integer overflow is
//    possible: digits are accumulated only while the value stays within the limit.
//  - Transfer-Encoding: only a single "chunked" is supported (501 for any other coding, e.g.
//    gzip); together with Content-Length, or in an HTTP/1.0 request, it is a 400 (both are
//    classic smuggling vectors). Chunk extensions are checked for control characters and
//    ignored; trailer fields are checked like header fields (and count against the same
//    limits) and then discarded: nothing in MCP uses them.
//  - More than one Host header is a 400 (RFC 9112 3.2 says MUST). A missing Host, Origin,
//    the path, the method and the media types are the server's business, not the parser's.
//  - After an Error the parser stays in error: the framing of the connection is lost, so the
//    server must answer errorStatus() and close. reset() starts over on a new connection.
//
// Limits (HttpLimits) are checked as bytes arrive, so a peer cannot make the parser buffer more
// than about one limit's worth before it is refused. The parser does not bound how much the
// server feeds it *beyond* the current request (pipelined bytes): use bufferedBytes() for
// back-pressure.
#pragma once

#include <optional>

#include "HttpRequest.h"

#include <QByteArray>
#include <QByteArrayView>

struct HttpLimits
{
    qsizetype maxRequestLine = 8 * 1024;    // bytes, without CRLF; over it: 414
    qsizetype maxHeaderSection = 32 * 1024; // bytes of header lines incl. CRLFs and trailers; 431
    int maxHeaderCount = 100;               // header fields plus trailer fields; over it: 431
    qint64 maxBodySize = 4 * 1024 * 1024;   // decoded body bytes; over it: 413
};

class HttpRequestParser
{
public:
    enum Status { NeedMore, Complete, Error };

    explicit HttpRequestParser(const HttpLimits &limits = HttpLimits());

    // Appends bytes; parsing happens in next(). Ignored once the parser is in error.
    void feed(const char *data, qsizetype size);
    void feed(const QByteArray &data) { feed(data.constData(), data.size()); }

    // Parses as far as the buffered bytes allow. On Complete, *out receives the request and any
    // bytes after it stay buffered for the next call (pipelining). On NeedMore, call again after
    // the next feed(). Error is sticky.
    Status next(HttpRequest &out);

    // An HTTP/1.1 request whose headers said "Expect: 100-continue" has been read up to its body:
    // the client waits for "100 Continue" before sending it. True once per such request.
    bool takeContinueRequest();

    int errorStatus() const { return m_errorStatus; }          // 0 unless next() gave Error
    const QByteArray &errorReason() const { return m_errorReason; }
    bool hasError() const { return m_state == State::Failed; }
    // True between requests with nothing of the next one buffered: a good moment to close an
    // idle keep-alive connection without cutting a request in half.
    bool isIdle() const;
    qsizetype bufferedBytes() const { return m_buffer.size() - m_pos; }
    const HttpLimits &limits() const { return m_limits; }

    void reset();

private:
    enum class State { RequestLine, Headers, Body, ChunkSize, ChunkData, Trailers, Failed };
    // The next CRLF-terminated line into `line`, or what next() answers instead: NeedMore
    // while it is incomplete, Error (after fail()) when it is too long or ends in a bare LF.
    std::optional<Status> takeLine(QByteArrayView &line, qsizetype maxLength, int overflowStatus,
                                   const char *overflowReason);
    Status fail(int status, const char *reason);
    bool parseRequestLine(QByteArrayView line);
    bool parseFieldLine(QByteArrayView line, bool trailer);
    bool finishHeaders();
    bool parseChunkSize(QByteArrayView line);
    Status complete(HttpRequest &out);
    void startRequest();

    HttpLimits m_limits;
    QByteArray m_buffer;
    qsizetype m_pos = 0;      // first unconsumed byte of m_buffer
    qsizetype m_scanned = 0;  // bytes after m_pos already searched for LF (no rescans)
    State m_state = State::RequestLine;
    HttpRequest m_request;
    qsizetype m_headerBytes = 0;
    int m_headerCount = 0;
    int m_emptyLines = 0;
    qint64 m_remaining = 0;   // body bytes still expected (Body) or chunk bytes (ChunkData)
    bool m_continuePending = false;
    QByteArray m_absoluteAuthority; // "host:port" of an absolute-form target, checked against Host
    int m_errorStatus = 0;
    QByteArray m_errorReason;
};

#include "HttpRequestParser.h"

#include "HttpSyntax.h"

#include <cstring>
#include <utility>

using namespace HttpSyntax;

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// A chunk-size line is a few hex digits and, rarely, an extension: 1 KiB is generous and keeps a
// peer from streaming an endless chunk header at us.
constexpr qsizetype kMaxChunkLine = 1024;
constexpr int kMaxLeadingEmptyLines = 4;

} // namespace

// ---------------------------------------------------------------------------------------------
// HttpRequestParser

HttpRequestParser::HttpRequestParser(const HttpLimits &limits)
    : m_limits(limits)
{
}

void HttpRequestParser::feed(const char *data, qsizetype size)
{
    if (m_state == State::Failed || size <= 0)
        return;
    // Drop consumed bytes before growing, so a long keep-alive connection does not keep every
    // request it ever carried; only when that is at least half the buffer, so it stays O(n).
    if (m_pos > 0 && m_pos * 2 >= m_buffer.size()) {
        m_buffer.remove(0, m_pos);
        m_pos = 0;
    }
    m_buffer.append(data, size);
}

void HttpRequestParser::reset()
{
    m_buffer.clear();
    m_pos = 0;
    m_errorStatus = 0;
    m_errorReason.clear();
    startRequest();
}

void HttpRequestParser::startRequest()
{
    m_state = State::RequestLine;
    m_scanned = 0;
    m_request = HttpRequest();
    m_headerBytes = 0;
    m_headerCount = 0;
    m_emptyLines = 0;
    m_remaining = 0;
    m_continuePending = false;
    m_absoluteAuthority.clear();
}

bool HttpRequestParser::isIdle() const
{
    return m_state == State::RequestLine && bufferedBytes() == 0;
}

bool HttpRequestParser::takeContinueRequest()
{
    const bool waiting = m_continuePending
        && (m_state == State::Body || m_state == State::ChunkSize || m_state == State::ChunkData);
    m_continuePending = false;
    return waiting;
}

HttpRequestParser::Status HttpRequestParser::fail(int status, const char *reason)
{
    m_state = State::Failed;
    m_errorStatus = status;
    m_errorReason = reason;
    // Nothing after a framing error can be trusted; free it now rather than at close.
    m_buffer.clear();
    m_pos = 0;
    m_scanned = 0;
    return Error;
}

std::optional<HttpRequestParser::Status> HttpRequestParser::takeLine(QByteArrayView &line, qsizetype maxLength,
                                                                     int overflowStatus, const char *overflowReason)
{
    const char *begin = m_buffer.constData() + m_pos;
    const qsizetype avail = m_buffer.size() - m_pos;
    const void *lf = std::memchr(begin + m_scanned, '\n', size_t(avail - m_scanned));
    if (!lf) {
        m_scanned = avail;
        // Refuse as soon as the line can no longer fit (its CRLF still to come), so a peer
        // that never sends LF cannot make us buffer more than the limit.
        if (avail > maxLength + 1) {
            return fail(overflowStatus, overflowReason);
        }
        return NeedMore;
    }
    const qsizetype len = static_cast<const char *>(lf) - begin;
    // The same test as above, before looking at the line ending: a line is judged the same
    // whether it arrived whole or byte by byte.
    if (len > maxLength + 1)
        return fail(overflowStatus, overflowReason);
    if (len == 0 || begin[len - 1] != '\r')
        return fail(400, "line ends in a bare LF");
    line = QByteArrayView(begin, len - 1);
    m_pos += len + 1;
    m_scanned = 0;
    return std::nullopt;
}

HttpRequestParser::Status HttpRequestParser::next(HttpRequest &out)
{
    for (;;) {
        QByteArrayView line;
        switch (m_state) {
        case State::Failed:
            return Error;

        case State::RequestLine:
            // Refuse what cannot become a request line (a TLS ClientHello, binary junk) on its
            // first byte, instead of waiting for 8 KiB that will never contain a CRLF. Checked
            // before the line is complete so the verdict never depends on how bytes arrived.
            if (bufferedBytes() > 0) {
                const unsigned char c = m_buffer.at(m_pos);
                if (c != '\r' && !isTchar(c))
                    return fail(400, "malformed request line");
            }
            if (const std::optional<Status> stop = takeLine(line, m_limits.maxRequestLine, 414, "request line too long"))
                return *stop;
            if (line.isEmpty()) {
                if (++m_emptyLines > kMaxLeadingEmptyLines)
                    return fail(400, "too many empty lines before the request line");
                continue;
            }
            if (!parseRequestLine(line))
                return Error;
            m_state = State::Headers;
            continue;

        case State::Headers:
        case State::Trailers: {
            // What is left of the section must hold this line and its CRLF.
            const qsizetype budget = m_limits.maxHeaderSection - m_headerBytes;
            if (const std::optional<Status> stop = takeLine(line, budget - 2, 431, "header section too large"))
                return *stop;
            m_headerBytes += line.size() + 2;
            const bool trailer = m_state == State::Trailers;
            if (line.isEmpty()) {
                if (trailer)
                    return complete(out);
                if (!finishHeaders())
                    return Error;
                continue;
            }
            if (!parseFieldLine(line, trailer))
                return Error;
            continue;
        }

        case State::Body:
            if (bufferedBytes() < m_remaining)
                return NeedMore;
            m_request.body = m_buffer.mid(m_pos, m_remaining);
            m_pos += m_remaining;
            return complete(out);

        case State::ChunkSize:
            if (const std::optional<Status> stop = takeLine(line, kMaxChunkLine, 400, "chunk size line too long"))
                return *stop;
            if (!parseChunkSize(line))
                return Error;
            continue;

        case State::ChunkData: {
            const qsizetype avail = bufferedBytes();
            // Not m_remaining + 2: a configured limit near INT64_MAX must not overflow.
            if (avail < 2 || avail - 2 < m_remaining) {
                if (avail > m_remaining && m_buffer.at(m_pos + m_remaining) != '\r')
                    return fail(400, "chunk data not followed by CRLF");
                return NeedMore;
            }
            const char *data = m_buffer.constData() + m_pos;
            if (data[m_remaining] != '\r' || data[m_remaining + 1] != '\n')
                return fail(400, "chunk data not followed by CRLF");
            m_request.body.append(data, m_remaining);
            m_pos += m_remaining + 2;
            m_remaining = 0;
            m_state = State::ChunkSize;
            continue;
        }
        }
    }
}

bool HttpRequestParser::parseRequestLine(QByteArrayView line)
{
    // request-line = method SP request-target SP HTTP-version, with exactly one SP each.
    const qsizetype sp1 = line.indexOf(' ');
    if (sp1 <= 0) {
        fail(400, "malformed request line");
        return false;
    }
    const QByteArrayView method = line.first(sp1);
    if (!isToken(method)) {
        fail(400, "invalid method");
        return false;
    }
    const QByteArrayView rest = line.sliced(sp1 + 1);
    const qsizetype sp2 = rest.indexOf(' ');
    if (sp2 <= 0) {
        fail(400, "malformed request line");
        return false;
    }
    const QByteArrayView target = rest.first(sp2);
    const QByteArrayView version = rest.sliced(sp2 + 1);

    auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    if (version.size() != 8 || !version.startsWith("HTTP/") || !isDigit(version[5])
        || version[6] != '.' || !isDigit(version[7])) {
        fail(400, "malformed HTTP version");
        return false;
    }
    for (char c : target) {
        // Visible ASCII only; a fragment is never part of a request-target.
        if (c < 0x21 || c > 0x7e || c == '#') {
            fail(400, "invalid character in request target");
            return false;
        }
    }
    if (version != "HTTP/1.1" && version != "HTTP/1.0") {
        fail(505, "only HTTP/1.0 and HTTP/1.1 are supported");
        return false;
    }

    QByteArrayView pathAndQuery;
    if (target.startsWith('/')) {
        pathAndQuery = target;
    } else if (target == "*") {
        if (method != "OPTIONS") {
            fail(400, "asterisk target is only for OPTIONS");
            return false;
        }
        pathAndQuery = target;
    } else {
        // absolute-form, which RFC 9112 3.2.2 says servers must accept.
        qsizetype schemeEnd = -1;
        if (target.size() > 7 && equalsIgnoreCase(target.first(7), "http://"))
            schemeEnd = 7;
        else if (target.size() > 8 && equalsIgnoreCase(target.first(8), "https://"))
            schemeEnd = 8;
        if (schemeEnd < 0) {
            fail(400, "unsupported request target form");
            return false;
        }
        const QByteArrayView afterScheme = target.sliced(schemeEnd);
        qsizetype authorityEnd = 0;
        while (authorityEnd < afterScheme.size() && afterScheme[authorityEnd] != '/'
               && afterScheme[authorityEnd] != '?')
            ++authorityEnd;
        if (authorityEnd == 0) {
            fail(400, "empty authority in request target");
            return false;
        }
        m_absoluteAuthority = afterScheme.first(authorityEnd).toByteArray();
        pathAndQuery = afterScheme.sliced(authorityEnd);
    }

    const qsizetype q = pathAndQuery.indexOf('?');
    QByteArrayView path = q < 0 ? pathAndQuery : pathAndQuery.first(q);
    m_request.method = method.toByteArray();
    m_request.target = target.toByteArray();
    m_request.path = path.isEmpty() ? QByteArray("/") : path.toByteArray();
    m_request.query = q < 0 ? QByteArray() : pathAndQuery.sliced(q + 1).toByteArray();
    m_request.version = version.toByteArray();
    return true;
}

bool HttpRequestParser::parseFieldLine(QByteArrayView line, bool trailer)
{
    if (isOws(line[0])) {
        fail(400, "obsolete line folding");
        return false;
    }
    const qsizetype colon = line.indexOf(':');
    if (colon < 0) {
        fail(400, "header without colon");
        return false;
    }
    const QByteArrayView name = line.first(colon);
    if (name.isEmpty()) {
        fail(400, "empty header name");
        return false;
    }
    for (char c : name) {
        if (isOws(c)) {
            // RFC 9112 5.1: MUST reject, because intermediaries disagree on what it means.
            fail(400, "whitespace before colon");
            return false;
        }
        if (!isTchar(static_cast<unsigned char>(c))) {
            fail(400, "invalid header name");
            return false;
        }
    }
    const QByteArrayView value = trimOws(line.sliced(colon + 1));
    for (char c : value) {
        if (!isFieldValueChar(static_cast<unsigned char>(c))) {
            fail(400, "invalid character in header value");
            return false;
        }
    }
    if (++m_headerCount > m_limits.maxHeaderCount) {
        fail(431, "too many header fields");
        return false;
    }
    if (!trailer)
        m_request.headers.append({name.toByteArray(), value.toByteArray()});
    return true;
}

bool HttpRequestParser::finishHeaders()
{
    QList<QByteArray> hosts;
    QList<QByteArray> transferEncodings;
    QList<QByteArray> contentLengths;
    for (const auto &h : std::as_const(m_request.headers)) {
        if (equalsIgnoreCase(h.first, "host"))
            hosts.append(h.second);
        else if (equalsIgnoreCase(h.first, "transfer-encoding"))
            transferEncodings.append(h.second);
        else if (equalsIgnoreCase(h.first, "content-length"))
            contentLengths.append(h.second);
    }

    if (hosts.size() > 1) {
        fail(400, "more than one Host header");
        return false;
    }
    // The server validates Host against DNS rebinding; a target naming another authority must
    // not slip past that check (RFC 9112 3.2.2 would have us ignore Host for absolute-form).
    if (!m_absoluteAuthority.isEmpty() && !hosts.isEmpty()
        && !equalsIgnoreCase(m_absoluteAuthority, hosts.first())) {
        fail(400, "Host differs from the request target");
        return false;
    }

    if (!transferEncodings.isEmpty()) {
        if (!m_request.isHttp11()) {
            fail(400, "Transfer-Encoding in an HTTP/1.0 request");
            return false;
        }
        if (!contentLengths.isEmpty()) {
            fail(400, "both Transfer-Encoding and Content-Length");
            return false;
        }
        if (transferEncodings.size() != 1 || !equalsIgnoreCase(transferEncodings.first(), "chunked")) {
            fail(501, "only the chunked transfer coding is supported");
            return false;
        }
        m_state = State::ChunkSize;
    } else if (!contentLengths.isEmpty()) {
        // Every element of every Content-Length must be the same run of digits (leading zeros
        // aside). Compared as strings so that two different huge values are a 400, not a 413.
        QByteArrayView canonical;
        for (const QByteArray &field : std::as_const(contentLengths)) {
            QByteArrayView rest(field);
            for (;;) {
                const qsizetype comma = rest.indexOf(',');
                QByteArrayView item = trimOws(comma < 0 ? rest : rest.first(comma));
                if (item.isEmpty()) {
                    fail(400, "invalid Content-Length");
                    return false;
                }
                for (char c : item) {
                    if (c < '0' || c > '9') {
                        fail(400, "invalid Content-Length");
                        return false;
                    }
                }
                while (item.size() > 1 && item[0] == '0')
                    item = item.sliced(1);
                if (canonical.isNull()) {
                    canonical = item;
                } else if (canonical != item) {
                    fail(400, "conflicting Content-Length values");
                    return false;
                }
                if (comma < 0)
                    break;
                rest = rest.sliced(comma + 1);
            }
        }
        qint64 length = 0;
        for (char c : canonical) {
            const int d = c - '0';
            // length * 10 + d > max, written so that it cannot overflow.
            if (length > m_limits.maxBodySize / 10 || d > m_limits.maxBodySize - length * 10) {
                fail(413, "body too large");
                return false;
            }
            length = length * 10 + d;
        }
        m_remaining = length;
        m_state = State::Body;
    } else {
        m_remaining = 0;
        m_state = State::Body;
    }

    const bool hasBody = m_state == State::ChunkSize || m_remaining > 0;
    m_continuePending = hasBody && m_request.isHttp11()
        && equalsIgnoreCase(m_request.header("expect"), "100-continue");
    return true;
}

bool HttpRequestParser::parseChunkSize(QByteArrayView line)
{
    const qint64 room = m_limits.maxBodySize - m_request.body.size();
    qint64 size = 0;
    bool tooLarge = false;
    qsizetype i = 0;
    for (; i < line.size(); ++i) {
        const int d = hexValue(line[i]);
        if (d < 0)
            break;
        if (!tooLarge && (size > room / 16 || d > room - size * 16))
            tooLarge = true;
        if (!tooLarge)
            size = size * 16 + d;
    }
    if (i == 0) {
        fail(400, "malformed chunk size");
        return false;
    }
    QByteArrayView rest = line.sliced(i);
    while (!rest.isEmpty() && isOws(rest[0]))
        rest = rest.sliced(1);
    if (!rest.isEmpty() && rest[0] != ';') {
        fail(400, "malformed chunk size");
        return false;
    }
    for (char c : rest) {
        if (!isFieldValueChar(static_cast<unsigned char>(c))) {
            fail(400, "invalid character in chunk extension");
            return false;
        }
    }
    if (tooLarge) {
        fail(413, "body too large");
        return false;
    }
    m_remaining = size;
    m_state = size == 0 ? State::Trailers : State::ChunkData;
    return true;
}

HttpRequestParser::Status HttpRequestParser::complete(HttpRequest &out)
{
    out = std::move(m_request);
    startRequest();
    if (m_pos == m_buffer.size()) {
        m_buffer.clear();
        m_pos = 0;
    }
    return Complete;
}

// libFuzzer target for mcp/http/HttpRequestParser. build-and-run.sh reads these directives:
// FUZZ_CORPUS: http
// FUZZ_DICT: http.dict
//
// The input is the byte stream a client sends on one connection; seeds are plain HTTP files.
// Split points and everything else are derived from a hash of the input, so a crash file
// reproduces on its own. Beyond "no crash" (ASan/UBSan), it checks that:
//  - the verdict (requests, then status and reason) is the same however the bytes arrive:
//    whole, in pseudo-random pieces, byte by byte;
//  - every request honours the limits and the grammar (token method and names, clean values,
//    HTTP/1.0 or 1.1, a body no larger than the limit), and an error is one of the statuses
//    the parser documents, and sticks;
//  - a request written back out in canonical form parses to the same request;
//  - under the default limits, tiny ones and ones drawn from the hash (to reach every limit,
//    and both sides of it, with short inputs);
//  - the SSE and response writers never emit a line break the peer would read as structure.
#include "http/HttpRequestParser.h"
#include "http/HttpResponse.h"
#include "http/ServerSentEvents.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

[[noreturn]] void failure(const char *what, const QByteArray &detail = QByteArray())
{
    std::fprintf(stderr, "INVARIANT BROKEN: %s\n%s\n", what, detail.constData());
    std::abort();
}

#define CHECK(cond, detail)                                                                      \
    do {                                                                                         \
        if (!(cond))                                                                             \
            failure(#cond, detail);                                                              \
    } while (0)

struct Rng
{
    quint64 state;
    quint64 next()
    {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    }
};

quint64 fnv1a(const uint8_t *data, size_t size)
{
    quint64 h = 1469598103934665603ull;
    for (size_t i = 0; i < size; ++i) {
        h ^= data[i];
        h *= 1099511628211ull;
    }
    return h | 1; // xorshift must not start at 0
}

bool isTchar(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
        || (c && std::strchr("!#$%&'*+-.^_`|~", c));
}

bool isToken(const QByteArray &s)
{
    if (s.isEmpty())
        return false;
    for (char c : s) {
        if (!isTchar(static_cast<unsigned char>(c)))
            return false;
    }
    return true;
}

struct Outcome
{
    QList<HttpRequest> requests;
    int status = 0;
    QByteArray reason;
};

QByteArray describe(const Outcome &o)
{
    QByteArray s;
    for (const HttpRequest &r : o.requests) {
        s += r.method + ' ' + r.target + ' ' + r.version + '|' + r.path + '|' + r.query + '\n';
        for (const auto &h : r.headers)
            s += h.first + ": " + h.second + '\n';
        s += "body " + QByteArray::number(r.body.size()) + ':' + r.body.toHex() + "\n--\n";
    }
    return s + "status " + QByteArray::number(o.status) + ' ' + o.reason;
}

void checkRequest(const HttpRequest &r, const HttpLimits &limits)
{
    CHECK(isToken(r.method), r.method);
    CHECK(r.version == "HTTP/1.0" || r.version == "HTTP/1.1", r.version);
    CHECK(!r.target.isEmpty(), r.target);
    for (char c : r.target)
        CHECK(c > 0x20 && c < 0x7f && c != '#', r.target);
    CHECK(r.path.startsWith('/') || r.path == "*", r.path);
    CHECK(r.headers.size() <= limits.maxHeaderCount, QByteArray::number(r.headers.size()));
    CHECK(r.body.size() <= limits.maxBodySize, QByteArray::number(r.body.size()));
    int hosts = 0;
    for (const auto &h : r.headers) {
        CHECK(isToken(h.first), h.first);
        for (char c : h.second) {
            const auto u = static_cast<unsigned char>(c);
            CHECK(u == '\t' || (u >= 0x20 && u != 0x7f), h.second);
        }
        if (!h.second.isEmpty()) {
            CHECK(h.second.front() != ' ' && h.second.front() != '\t', h.second);
            CHECK(h.second.back() != ' ' && h.second.back() != '\t', h.second);
        }
        hosts += h.first.compare("host", Qt::CaseInsensitive) == 0;
    }
    CHECK(hosts <= 1, QByteArray());
    CHECK(!r.hasHeader("transfer-encoding") || !r.hasHeader("content-length"), QByteArray());
}

Outcome run(const uint8_t *data, size_t size, const HttpLimits &limits, const QList<size_t> &cuts)
{
    HttpRequestParser parser(limits);
    Outcome o;
    size_t from = 0;
    QList<size_t> ends = cuts;
    ends.append(size);
    HttpRequestParser::Status status = HttpRequestParser::NeedMore;
    for (size_t end : ends) {
        parser.feed(reinterpret_cast<const char *>(data) + from, qsizetype(end - from));
        from = end;
        HttpRequest r;
        while ((status = parser.next(r)) == HttpRequestParser::Complete) {
            checkRequest(r, limits);
            o.requests.append(r);
        }
        if (status == HttpRequestParser::Error)
            break;
        CHECK(parser.errorStatus() == 0, QByteArray());
    }
    if (status == HttpRequestParser::Error) {
        const int s = parser.errorStatus();
        CHECK(s == 400 || s == 413 || s == 414 || s == 431 || s == 501 || s == 505, QByteArray::number(s));
        CHECK(!parser.errorReason().isEmpty(), QByteArray());
        HttpRequest r;
        parser.feed("GET / HTTP/1.1\r\n\r\n", 18);
        CHECK(parser.next(r) == HttpRequestParser::Error, QByteArray("error is not sticky"));
        CHECK(parser.bufferedBytes() == 0, QByteArray());
        o.status = s;
        o.reason = parser.errorReason();
    }
    return o;
}

// The request in canonical form: no leading empty lines, single spaces, one Content-Length
// instead of whatever framed the body, no trailers. It must parse back to the same request.
void checkRoundTrip(const HttpRequest &r, const HttpLimits &limits)
{
    QByteArray out = r.method + ' ' + r.target + ' ' + r.version + "\r\n";
    HttpRequest expected = r;
    expected.headers.clear();
    for (const auto &h : r.headers) {
        if (h.first.compare("content-length", Qt::CaseInsensitive) == 0
            || h.first.compare("transfer-encoding", Qt::CaseInsensitive) == 0)
            continue;
        out += h.first + ':' + h.second + "\r\n";
        expected.headers.append(h);
    }
    if (!r.body.isEmpty()) {
        out += "Content-Length:" + QByteArray::number(r.body.size()) + "\r\n";
        expected.headers.append({"Content-Length", QByteArray::number(r.body.size())});
    }
    out += "\r\n" + r.body;
    const Outcome again = run(reinterpret_cast<const uint8_t *>(out.constData()), size_t(out.size()), limits, {});
    Outcome want;
    want.requests.append(expected);
    CHECK(describe(again) == describe(want), describe(again) + "\n=== expected\n" + describe(want));
}

void checkParser(const uint8_t *data, size_t size, const HttpLimits &limits, Rng &rng)
{
    const Outcome whole = run(data, size, limits, {});
    const QByteArray expected = describe(whole);

    QList<size_t> cuts;
    if (size > 1) {
        const int pieces = int(rng.next() % 8) + 1;
        for (int i = 0; i < pieces; ++i)
            cuts.append(size_t(rng.next() % size));
        std::sort(cuts.begin(), cuts.end());
    }
    const Outcome split = run(data, size, limits, cuts);
    CHECK(describe(split) == expected, describe(split) + "\n=== whole\n" + expected);

    if (size <= 2048) {
        QList<size_t> every;
        for (size_t i = 1; i < size; ++i)
            every.append(i);
        const Outcome bytes = run(data, size, limits, every);
        CHECK(describe(bytes) == expected, describe(bytes) + "\n=== whole\n" + expected);
    }

    for (const HttpRequest &r : whole.requests)
        checkRoundTrip(r, limits);
}

// Just enough of the WHATWG event-stream parser to read back one event we wrote.
void checkSse(const QByteArray &data, const QByteArray &event, const QByteArray &id)
{
    const QByteArray text = formatSseEvent(data, event, id);
    CHECK(text.endsWith("\n\n"), text);
    CHECK(!text.contains('\r'), text);
    QByteArray gotData, gotEvent, gotId;
    int dataLines = 0;
    const QList<QByteArray> lines = text.left(text.size() - 2).split('\n');
    for (const QByteArray &line : lines) {
        CHECK(!line.isEmpty(), text); // an empty line would end the event early
        const qsizetype colon = line.indexOf(':');
        CHECK(colon > 0, text);
        const QByteArray field = line.left(colon);
        QByteArray value = line.mid(colon + 1);
        if (value.startsWith(' '))
            value.remove(0, 1);
        if (field == "data") {
            gotData += (dataLines++ ? "\n" : "") + value;
        } else if (field == "event") {
            gotEvent = value;
        } else if (field == "id") {
            gotId = value;
        } else {
            CHECK(false, text);
        }
    }
    QByteArray want = data;
    want.replace("\r\n", "\n").replace('\r', '\n');
    CHECK(gotData == want, text);
    auto clean = [](QByteArray s) { return s.replace('\r', "").replace('\n', "").replace('\0', ""); };
    CHECK(gotEvent == clean(event), text);
    CHECK(gotId == clean(id), text);
}

void checkResponse(const QByteArray &a, const QByteArray &b, int status)
{
    HttpResponse response;
    response.status = status;
    response.reason = a;
    response.addHeader(a, b);
    response.addHeader("X-B", b);
    response.body = b;
    const QByteArray bytes = response.serialize();
    const qsizetype end = bytes.indexOf("\r\n\r\n");
    CHECK(end > 0, bytes);
    const QByteArray head = bytes.left(end + 2);
    // Every CR and LF of the head belongs to a CRLF that ends one of our lines.
    const qsizetype lines = head.count("\r\n");
    CHECK(head.count('\r') == lines && head.count('\n') == lines, head);
    const bool bodiless = (status >= 100 && status < 200) || status == 204 || status == 304;
    CHECK(bytes.size() - end - 4 == (bodiless ? 0 : b.size()), bytes);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Rng rng{fnv1a(data, size)};

    checkParser(data, size, HttpLimits(), rng);

    HttpLimits tiny;
    tiny.maxRequestLine = 48;
    tiny.maxHeaderSection = 96;
    tiny.maxHeaderCount = 4;
    tiny.maxBodySize = 32;
    checkParser(data, size, tiny, rng);

    // Limits that move with every mutation, so that each off-by-one at a limit is next to some
    // seed rather than only at the few values above.
    HttpLimits moving;
    moving.maxRequestLine = qsizetype(8 + rng.next() % 120);
    moving.maxHeaderSection = qsizetype(16 + rng.next() % 400);
    moving.maxHeaderCount = int(1 + rng.next() % 12);
    moving.maxBodySize = qint64(rng.next() % 100);
    checkParser(data, size, moving, rng);

    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype third = bytes.size() / 3;
    const QByteArray a = bytes.left(third), b = bytes.mid(third, third), c = bytes.mid(2 * third);
    checkSse(c, a, b);
    checkResponse(a, b, int(rng.next() % 700));
    return 0;
}

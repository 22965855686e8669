// Framing edge cases of the Streamable HTTP request parser, and its response/SSE helpers.
// Inputs the fuzzer found interesting live in handlesInputsTheFuzzerFound_data().
#include "http/HttpRequestParser.h"
#include "http/HttpResponse.h"
#include "http/ServerSentEvents.h"

#include <QTest>

#include <limits>

namespace {

// A byte string literal with its NULs, without counting them by hand.
template <qsizetype N>
QByteArray raw(const char (&s)[N])
{
    return QByteArray(s, N - 1);
}

struct Outcome
{
    QList<HttpRequest> requests;
    HttpRequestParser::Status last = HttpRequestParser::NeedMore;
    int status = 0;
    QByteArray reason;
    qsizetype leftOver = 0;
};

// Feeds input in pieces ending at each of cuts (then the rest), pulling every complete request
// out after each piece, the way the server will.
Outcome parseInPieces(const QByteArray &input, const QList<qsizetype> &cuts,
                      const HttpLimits &limits = HttpLimits())
{
    HttpRequestParser parser(limits);
    Outcome o;
    qsizetype from = 0;
    QList<qsizetype> ends = cuts;
    ends.append(input.size());
    for (qsizetype end : std::as_const(ends)) {
        parser.feed(input.constData() + from, end - from);
        from = end;
        HttpRequest r;
        while ((o.last = parser.next(r)) == HttpRequestParser::Complete)
            o.requests.append(r);
        if (o.last == HttpRequestParser::Error)
            break;
    }
    o.status = parser.errorStatus();
    o.reason = parser.errorReason();
    o.leftOver = parser.bufferedBytes();
    return o;
}

Outcome parseWhole(const QByteArray &input, const HttpLimits &limits = HttpLimits())
{
    return parseInPieces(input, {}, limits);
}

Outcome parseByteByByte(const QByteArray &input, const HttpLimits &limits = HttpLimits())
{
    QList<qsizetype> cuts;
    for (qsizetype i = 1; i < input.size(); ++i)
        cuts.append(i);
    return parseInPieces(input, cuts, limits);
}

QByteArray describe(const HttpRequest &r)
{
    QByteArray s = r.method + ' ' + r.target + ' ' + r.version + " path=" + r.path + " query="
        + r.query + '\n';
    for (const auto &h : r.headers)
        s += h.first + ": " + h.second + '\n';
    s += "body(" + QByteArray::number(r.body.size()) + ")=" + r.body;
    return s;
}

QByteArray describe(const Outcome &o)
{
    QByteArray s;
    for (const HttpRequest &r : o.requests)
        s += describe(r) + "\n--\n";
    s += "last=" + QByteArray::number(o.last) + " status=" + QByteArray::number(o.status) + ' '
        + o.reason;
    return s;
}

const QByteArray kMcpPost =
    "POST /mcp HTTP/1.1\r\n"
    "Host: 127.0.0.1:8765\r\n"
    "Content-Type: application/json\r\n"
    "Accept: application/json, text/event-stream\r\n"
    "Mcp-Session-Id: 3f1c2a\r\n"
    "MCP-Protocol-Version: 2025-11-25\r\n"
    "Content-Length: 58\r\n"
    "\r\n"
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}";

const QByteArray kSseGet =
    "GET /mcp?x=1&y=2 HTTP/1.1\r\n"
    "Host: localhost\r\n"
    "Accept: text/event-stream\r\n"
    "Last-Event-ID: 41\r\n"
    "\r\n";

const QByteArray kChunkedPost =
    "POST /mcp HTTP/1.1\r\n"
    "Host: localhost\r\n"
    "Transfer-Encoding: chunked\r\n"
    "\r\n"
    "5\r\nhello\r\n"
    "1;ext=\"a b\"\r\n,\r\n"
    "A\r\n world!!!!\r\n"
    "0\r\n"
    "X-Trailer: ignored\r\n"
    "\r\n";

QByteArray requestWithHeaders(int count, qsizetype valueSize = 1)
{
    QByteArray r = "GET / HTTP/1.1\r\n";
    for (int i = 0; i < count; ++i)
        r += "X-H" + QByteArray::number(i) + ": " + QByteArray(valueSize, 'v') + "\r\n";
    return r + "\r\n";
}

} // namespace

class TestHttpRequestParser : public QObject
{
    Q_OBJECT

private slots:
    void parsesAnMcpPostIntoItsParts();
    void givesTheSameRequestsWhereverTheInputIsSplit_data();
    void givesTheSameRequestsWhereverTheInputIsSplit();
    void parsesTwoPipelinedRequestsOneAtATime();
    void keepsBytesAfterACompleteRequestForTheNextOne();

    void rejectsMalformedRequests_data();
    void rejectsMalformedRequests();
    void rejectsMalformedRequestsFedByteByByteWithTheSameStatus_data();
    void rejectsMalformedRequestsFedByteByByteWithTheSameStatus();
    void acceptsWellFormedVariants_data();
    void acceptsWellFormedVariants();

    void acceptsARequestLineExactlyAtTheLimit();
    void rejectsARequestLineLongerThanTheLimit();
    void rejectsAnEndlessRequestLineBeforeItsEnd();
    void acceptsAHeaderSectionExactlyAtTheLimit();
    void rejectsAHeaderSectionLargerThanTheLimit();
    void rejectsAnEndlessHeaderLineBeforeItsEnd();
    void acceptsAsManyHeadersAsTheLimit();
    void rejectsMoreHeadersThanTheLimit();
    void countsTrailersAgainstTheHeaderLimits();
    void acceptsABodyExactlyAtTheLimit();
    void rejectsABodyLargerThanTheLimitBeforeItArrives();
    void rejectsAChunkedBodyLargerThanTheLimit();
    void honoursConfiguredLimits();
    void survivesTheLargestConfigurableBodyLimit();

    void keepAliveFollowsVersionAndConnectionHeader_data();
    void keepAliveFollowsVersionAndConnectionHeader();
    void looksUpHeadersIgnoringCaseAndKeepsDuplicates();
    void splitsTheTargetIntoPathAndQuery_data();
    void splitsTheTargetIntoPathAndQuery();
    void leavesAMissingHostToTheServer();
    void reportsOnceThatTheClientWaitsFor100Continue();
    void staysInErrorUntilReset();
    void isIdleOnlyBetweenRequests();

    void handlesInputsTheFuzzerFound_data();
    void handlesInputsTheFuzzerFound();

    void serializesAResponseWithItsContentLength();
    void neverLetsAHeaderValueSplitTheResponse();
    void sendsNoBodyFor204And1xx();
    void framesChunks();
    void formatsAnSseEventWithEachLineAsDataLine_data();
    void formatsAnSseEventWithEachLineAsDataLine();
    void dropsLineBreaksFromSseEventNameAndId();
};

void TestHttpRequestParser::parsesAnMcpPostIntoItsParts()
{
    const Outcome o = parseWhole(kMcpPost);
    QCOMPARE(o.last, HttpRequestParser::NeedMore);
    QCOMPARE(o.requests.size(), 1);
    const HttpRequest &r = o.requests.first();
    QCOMPARE(r.method, QByteArray("POST"));
    QCOMPARE(r.target, QByteArray("/mcp"));
    QCOMPARE(r.path, QByteArray("/mcp"));
    QVERIFY(r.query.isEmpty());
    QCOMPARE(r.version, QByteArray("HTTP/1.1"));
    QCOMPARE(r.headers.size(), 6);
    QCOMPARE(r.header("mcp-session-id"), QByteArray("3f1c2a"));
    QCOMPARE(r.header("Accept"), QByteArray("application/json, text/event-stream"));
    QVERIFY(r.headerHasToken("accept", "text/event-stream"));
    QCOMPARE(r.body, QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}"));
    QVERIFY(r.keepAlive());
    QCOMPARE(o.leftOver, 0);
}

void TestHttpRequestParser::givesTheSameRequestsWhereverTheInputIsSplit_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("requests");
    QTest::newRow("mcp post") << kMcpPost << 1;
    QTest::newRow("sse get") << kSseGet << 1;
    QTest::newRow("chunked post with extension and trailer") << kChunkedPost << 1;
    QTest::newRow("pipelined post then get") << kMcpPost + kSseGet << 2;
    QTest::newRow("leading empty line") << "\r\n" + kSseGet << 1;
    QTest::newRow("three pipelined, last incomplete") << kSseGet + kChunkedPost + kMcpPost.left(40) << 2;
}

void TestHttpRequestParser::givesTheSameRequestsWhereverTheInputIsSplit()
{
    QFETCH(QByteArray, input);
    QFETCH(int, requests);
    const Outcome whole = parseWhole(input);
    QCOMPARE(whole.requests.size(), requests);
    QCOMPARE(whole.last, HttpRequestParser::NeedMore);
    const QByteArray expected = describe(whole);
    for (qsizetype cut = 0; cut <= input.size(); ++cut) {
        const Outcome split = parseInPieces(input, {cut});
        if (describe(split) != expected)
            QFAIL(qPrintable("split at " + QByteArray::number(cut) + ":\n" + describe(split)));
    }
    for (qsizetype a = 0; a <= input.size(); a += 7) {
        for (qsizetype b = a; b <= input.size(); b += 5)
            QCOMPARE(describe(parseInPieces(input, {a, b})), expected);
    }
    const Outcome bytes = parseByteByByte(input);
    QCOMPARE(describe(bytes), expected);
    QCOMPARE(bytes.leftOver, whole.leftOver);
}

void TestHttpRequestParser::parsesTwoPipelinedRequestsOneAtATime()
{
    HttpRequestParser parser;
    parser.feed(kMcpPost + kSseGet);
    HttpRequest r;
    QCOMPARE(parser.next(r), HttpRequestParser::Complete);
    QCOMPARE(r.method, QByteArray("POST"));
    QCOMPARE(parser.bufferedBytes(), kSseGet.size());
    QCOMPARE(parser.next(r), HttpRequestParser::Complete);
    QCOMPARE(r.method, QByteArray("GET"));
    QCOMPARE(r.header("last-event-id"), QByteArray("41"));
    QVERIFY(r.body.isEmpty());
    QCOMPARE(parser.next(r), HttpRequestParser::NeedMore);
    QCOMPARE(parser.bufferedBytes(), 0);
}

void TestHttpRequestParser::keepsBytesAfterACompleteRequestForTheNextOne()
{
    HttpRequestParser parser;
    parser.feed(kSseGet + "POST /mcp HTTP/1.1\r\nContent-Le");
    HttpRequest r;
    QCOMPARE(parser.next(r), HttpRequestParser::Complete);
    QCOMPARE(parser.next(r), HttpRequestParser::NeedMore);
    parser.feed(QByteArray("ngth: 2\r\n\r\nhi"));
    QCOMPARE(parser.next(r), HttpRequestParser::Complete);
    QCOMPARE(r.body, QByteArray("hi"));
}

void TestHttpRequestParser::rejectsMalformedRequests_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("status");
    const QByteArray get = "GET / HTTP/1.1\r\n";
    auto post = [](const QByteArray &headers) {
        return "POST /mcp HTTP/1.1\r\nHost: h\r\n" + headers + "\r\n";
    };

    // Request line.
    QTest::newRow("invalid method char paren") << QByteArray("GE(T / HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("invalid method char quote") << QByteArray("G\"ET / HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("non-ascii method") << QByteArray("G\xc3\x89T / HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("leading space") << QByteArray(" GET / HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("two spaces after method") << QByteArray("GET  / HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("tab as separator") << QByteArray("GET\t/ HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("space after version") << QByteArray("GET / HTTP/1.1 \r\n\r\n") << 400;
    QTest::newRow("no version") << QByteArray("GET /\r\n\r\n") << 400;
    QTest::newRow("no target") << QByteArray("GET HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("lowercase protocol") << QByteArray("GET / http/1.1\r\n\r\n") << 400;
    QTest::newRow("two-digit minor version") << QByteArray("GET / HTTP/1.10\r\n\r\n") << 400;
    QTest::newRow("version without dot") << QByteArray("GET / HTTP/11\r\n\r\n") << 400;
    QTest::newRow("HTTP/2.0") << QByteArray("GET / HTTP/2.0\r\n\r\n") << 505;
    QTest::newRow("HTTP/0.9") << QByteArray("GET / HTTP/0.9\r\n\r\n") << 505;
    QTest::newRow("HTTP/1.2") << QByteArray("GET / HTTP/1.2\r\n\r\n") << 505;
    QTest::newRow("HTTP/3.0") << QByteArray("GET / HTTP/3.0\r\n\r\n") << 505;
    QTest::newRow("relative target") << QByteArray("GET mcp HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("fragment in target") << QByteArray("GET /mcp#x HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("DEL in target") << QByteArray("GET /\x7f HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("non-ascii target") << QByteArray("GET /\xc3\xa9 HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("NUL in target") << raw("GET /a\0b HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("asterisk for GET") << QByteArray("GET * HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("authority-form") << QByteArray("CONNECT h:443 HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("ftp absolute-form") << QByteArray("GET ftp://h/ HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("empty authority") << QByteArray("GET http:///mcp HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("bare LF after request line") << QByteArray("GET / HTTP/1.1\n\r\n") << 400;
    QTest::newRow("bare CR in request line") << QByteArray("GET /\r HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("TLS ClientHello") << raw("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03") << 400;
    QTest::newRow("too many empty lines first") << "\r\n\r\n\r\n\r\n\r\n" + get + "\r\n" << 400;
    QTest::newRow("bare LF empty line first") << "\n" + get + "\r\n" << 400;

    // Header lines.
    QTest::newRow("header without colon") << get + "Host localhost\r\n\r\n" << 400;
    QTest::newRow("empty header name") << get + ": x\r\n\r\n" << 400;
    QTest::newRow("space before colon") << get + "Host : h\r\n\r\n" << 400;
    QTest::newRow("tab before colon") << get + "Host\t: h\r\n\r\n" << 400;
    QTest::newRow("obs-fold") << get + "X-A: one\r\n two\r\n\r\n" << 400;
    QTest::newRow("obs-fold with tab") << get + "X-A: one\r\n\ttwo\r\n\r\n" << 400;
    QTest::newRow("whitespace line before headers") << get + " \r\nHost: h\r\n\r\n" << 400;
    QTest::newRow("invalid header name char") << get + "Ho(st: h\r\n\r\n" << 400;
    QTest::newRow("non-ascii header name") << get + "H\xc3\xa9: h\r\n\r\n" << 400;
    QTest::newRow("NUL in header name") << get + raw("X\0A: v\r\n\r\n") << 400;
    QTest::newRow("NUL in header value") << get + raw("X-A: a\0b\r\n\r\n") << 400;
    QTest::newRow("bare CR in header value") << get + "X-A: a\rb\r\n\r\n" << 400;
    QTest::newRow("VT in header value") << get + "X-A: \x0b" "a\r\n\r\n" << 400;
    QTest::newRow("DEL in header value") << get + "X-A: a\x7f\r\n\r\n" << 400;
    QTest::newRow("header ends in bare LF") << get + "Host: h\n\r\n" << 400;
    QTest::newRow("headers end in bare LF") << get + "Host: h\r\n\n" << 400;
    QTest::newRow("two Host headers") << get + "Host: a\r\nHost: b\r\n\r\n" << 400;
    QTest::newRow("absolute-form with another Host")
        << QByteArray("GET http://evil.example.com/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") << 400;

    // Content-Length.
    QTest::newRow("CL letters") << post("Content-Length: abc\r\n") << 400;
    QTest::newRow("CL negative") << post("Content-Length: -1\r\n") << 400;
    QTest::newRow("CL plus sign") << post("Content-Length: +5\r\n") << 400;
    QTest::newRow("CL inner space") << post("Content-Length: 1 2\r\n") << 400;
    QTest::newRow("CL empty") << post("Content-Length:\r\n") << 400;
    QTest::newRow("CL hex") << post("Content-Length: 0x10\r\n") << 400;
    QTest::newRow("CL decimal point") << post("Content-Length: 1.0\r\n") << 400;
    QTest::newRow("CL empty list element") << post("Content-Length: 5,\r\n") << 400;
    QTest::newRow("CL differing duplicates") << post("Content-Length: 5\r\nContent-Length: 6\r\n") << 400;
    QTest::newRow("CL differing list") << post("Content-Length: 5, 6\r\n") << 400;
    QTest::newRow("CL differing huge duplicates")
        << post("Content-Length: 99999999999999999999999\r\nContent-Length: 99999999999999999999998\r\n") << 400;
    QTest::newRow("CL huge") << post("Content-Length: 99999999999999999999999999999999999\r\n") << 413;
    QTest::newRow("CL int64 max") << post("Content-Length: 9223372036854775807\r\n") << 413;
    QTest::newRow("CL int64 max + 1") << post("Content-Length: 9223372036854775808\r\n") << 413;
    QTest::newRow("CL uint64 max + 1") << post("Content-Length: 18446744073709551616\r\n") << 413;

    // Transfer-Encoding.
    QTest::newRow("TE and CL") << post("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n") << 400;
    QTest::newRow("TE in HTTP/1.0")
        << QByteArray("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n") << 400;
    QTest::newRow("TE gzip") << post("Transfer-Encoding: gzip\r\n") << 501;
    QTest::newRow("TE gzip, chunked") << post("Transfer-Encoding: gzip, chunked\r\n") << 501;
    QTest::newRow("TE identity") << post("Transfer-Encoding: identity\r\n") << 501;
    QTest::newRow("TE chunked twice")
        << post("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n") << 501;
    QTest::newRow("chunk size not hex") << post("Transfer-Encoding: chunked\r\n") + "zz\r\n" << 400;
    QTest::newRow("chunk size empty") << post("Transfer-Encoding: chunked\r\n") + "\r\n" << 400;
    QTest::newRow("chunk size negative") << post("Transfer-Encoding: chunked\r\n") + "-1\r\n" << 400;
    QTest::newRow("chunk size junk after") << post("Transfer-Encoding: chunked\r\n") + "5 x\r\n" << 400;
    QTest::newRow("chunk size huge")
        << post("Transfer-Encoding: chunked\r\n") + "ffffffffffffffffffffffff\r\n" << 413;
    QTest::newRow("chunk extension with NUL")
        << post("Transfer-Encoding: chunked\r\n") + raw("1;a\0\r\nx\r\n0\r\n\r\n") << 400;
    QTest::newRow("chunk data longer than size")
        << post("Transfer-Encoding: chunked\r\n") + "2\r\nabc\r\n0\r\n\r\n" << 400;
    QTest::newRow("chunk data without CRLF")
        << post("Transfer-Encoding: chunked\r\n") + "2\r\nab\n0\r\n\r\n" << 400;
    QTest::newRow("chunk size bare LF") << post("Transfer-Encoding: chunked\r\n") + "2\nab\r\n" << 400;
    QTest::newRow("trailer without colon")
        << post("Transfer-Encoding: chunked\r\n") + "0\r\nbad trailer\r\n\r\n" << 400;
}

void TestHttpRequestParser::rejectsMalformedRequests()
{
    QFETCH(QByteArray, input);
    QFETCH(int, status);
    const Outcome o = parseWhole(input);
    QVERIFY2(o.last == HttpRequestParser::Error, describe(o).constData());
    QCOMPARE(o.status, status);
    QVERIFY(!o.reason.isEmpty());
    QVERIFY(o.requests.isEmpty());
}

void TestHttpRequestParser::rejectsMalformedRequestsFedByteByByteWithTheSameStatus_data()
{
    rejectsMalformedRequests_data();
}

void TestHttpRequestParser::rejectsMalformedRequestsFedByteByByteWithTheSameStatus()
{
    QFETCH(QByteArray, input);
    QFETCH(int, status);
    const Outcome o = parseByteByByte(input);
    QVERIFY2(o.last == HttpRequestParser::Error, describe(o).constData());
    QCOMPARE(o.status, status);
    QCOMPARE(o.reason, parseWhole(input).reason);
}

void TestHttpRequestParser::acceptsWellFormedVariants_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("body");
    const QByteArray post = "POST /mcp HTTP/1.1\r\nHost: h\r\n";
    QTest::newRow("identical Content-Length duplicates")
        << post + "Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc" << QByteArray("abc");
    QTest::newRow("identical Content-Length list") << post + "Content-Length: 3, 3\r\n\r\nabc" << QByteArray("abc");
    QTest::newRow("Content-Length leading zeros") << post + "Content-Length: 003\r\n\r\nabc" << QByteArray("abc");
    QTest::newRow("Content-Length zeros and plain") << post + "Content-Length: 03\r\ncontent-length: 3\r\n\r\nabc"
                                                     << QByteArray("abc");
    QTest::newRow("Content-Length zero") << post + "Content-Length: 0\r\n\r\n" << QByteArray();
    QTest::newRow("Content-Length with surrounding tabs") << post + "Content-Length:\t3 \r\n\r\nabc" << QByteArray("abc");
    QTest::newRow("chunked, mixed case") << post + "Transfer-Encoding: ChUnKeD\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                                         << QByteArray("abc");
    QTest::newRow("chunk size upper hex with zeros")
        << post + "Transfer-Encoding: chunked\r\n\r\n00A\r\n0123456789\r\n0000\r\n\r\n" << QByteArray("0123456789");
    QTest::newRow("chunk extension") << post + "Transfer-Encoding: chunked\r\n\r\n3 ;a=b;c\r\nabc\r\n0\r\n\r\n"
                                     << QByteArray("abc");
    QTest::newRow("chunked trailer") << post + "Transfer-Encoding: chunked\r\n\r\n0\r\nX-T: 1\r\n\r\n" << QByteArray();
    QTest::newRow("binary body") << post + "Content-Length: 4\r\n\r\n" + QByteArray("\0\r\n\xff", 4)
                                 << QByteArray("\0\r\n\xff", 4);
    QTest::newRow("obs-text in a header value") << post + "X-Name: caf\xc3\xa9\r\n\r\n" << QByteArray();
    QTest::newRow("empty header value") << post + "X-Empty:\r\n\r\n" << QByteArray();
    QTest::newRow("lowercase method is a token") << QByteArray("get / HTTP/1.1\r\n\r\n") << QByteArray();
    QTest::newRow("OPTIONS asterisk") << QByteArray("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n") << QByteArray();
    QTest::newRow("absolute-form with its Host")
        << QByteArray("GET http://127.0.0.1:8765/mcp HTTP/1.1\r\nHost: 127.0.0.1:8765\r\n\r\n") << QByteArray();
    QTest::newRow("four empty lines first") << "\r\n\r\n\r\n\r\n" + post + "\r\n" << QByteArray();
}

void TestHttpRequestParser::acceptsWellFormedVariants()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, body);
    const Outcome o = parseWhole(input);
    QVERIFY2(o.requests.size() == 1 && o.last == HttpRequestParser::NeedMore, describe(o).constData());
    QCOMPARE(o.requests.first().body, body);
    QCOMPARE(o.leftOver, 0);
    QCOMPARE(describe(parseByteByByte(input)), describe(o));
}

void TestHttpRequestParser::acceptsARequestLineExactlyAtTheLimit()
{
    const HttpLimits limits;
    const QByteArray prefix = "GET /";
    const QByteArray suffix = " HTTP/1.1";
    const QByteArray line = prefix + QByteArray(limits.maxRequestLine - prefix.size() - suffix.size(), 'a') + suffix;
    QCOMPARE(line.size(), 8 * 1024);
    const Outcome o = parseWhole(line + "\r\n\r\n");
    QCOMPARE(o.requests.size(), 1);
}

void TestHttpRequestParser::rejectsARequestLineLongerThanTheLimit()
{
    const QByteArray line = "GET /" + QByteArray(8 * 1024 - 13, 'a') + " HTTP/1.1";
    QCOMPARE(line.size(), 8 * 1024 + 1);
    const Outcome o = parseWhole(line + "\r\n\r\n");
    QCOMPARE(o.last, HttpRequestParser::Error);
    QCOMPARE(o.status, 414);
}

void TestHttpRequestParser::rejectsAnEndlessRequestLineBeforeItsEnd()
{
    HttpRequestParser parser;
    HttpRequest r;
    parser.feed("GET /" + QByteArray(8 * 1024 - 4, 'a'));
    QCOMPARE(parser.next(r), HttpRequestParser::NeedMore); // 8193: an 8192-byte line and its CR
    parser.feed(QByteArray("a"));
    QCOMPARE(parser.next(r), HttpRequestParser::Error);
    QCOMPARE(parser.errorStatus(), 414);
    QCOMPARE(parser.bufferedBytes(), 0); // and what it held is gone
}

void TestHttpRequestParser::acceptsAHeaderSectionExactlyAtTheLimit()
{
    // 32 headers of "X-Hnn: " + value + CRLF, padded to exactly 32 KiB with the final CRLF.
    QByteArray headers;
    for (int i = 0; i < 31; ++i)
        headers += "X-H" + QByteArray::number(i + 10) + ": " + QByteArray(1000, 'v') + "\r\n";
    const qsizetype room = 32 * 1024 - headers.size() - 2 /* final CRLF */;
    headers += "X-Last: " + QByteArray(room - 8 - 2, 'w') + "\r\n";
    QCOMPARE(headers.size() + 2, 32 * 1024);
    const Outcome ok = parseWhole("GET / HTTP/1.1\r\n" + headers + "\r\n");
    QVERIFY2(ok.requests.size() == 1, describe(ok).constData());

    const Outcome over = parseWhole("GET / HTTP/1.1\r\n" + headers + "X: \r\n\r\n");
    QCOMPARE(over.status, 431);
}

void TestHttpRequestParser::rejectsAHeaderSectionLargerThanTheLimit()
{
    const Outcome o = parseWhole(requestWithHeaders(40, 1000));
    QCOMPARE(o.last, HttpRequestParser::Error);
    QCOMPARE(o.status, 431);
}

void TestHttpRequestParser::rejectsAnEndlessHeaderLineBeforeItsEnd()
{
    HttpRequestParser parser;
    HttpRequest r;
    parser.feed("GET / HTTP/1.1\r\nX-Big: " + QByteArray(32 * 1024, 'x'));
    QCOMPARE(parser.next(r), HttpRequestParser::Error);
    QCOMPARE(parser.errorStatus(), 431);
}

void TestHttpRequestParser::acceptsAsManyHeadersAsTheLimit()
{
    const Outcome o = parseWhole(requestWithHeaders(100));
    QCOMPARE(o.requests.size(), 1);
    QCOMPARE(o.requests.first().headers.size(), 100);
}

void TestHttpRequestParser::rejectsMoreHeadersThanTheLimit()
{
    const Outcome o = parseWhole(requestWithHeaders(101));
    QCOMPARE(o.last, HttpRequestParser::Error);
    QCOMPARE(o.status, 431);
}

void TestHttpRequestParser::countsTrailersAgainstTheHeaderLimits()
{
    QByteArray input = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n";
    for (int i = 0; i < 100; ++i)
        input += "X-T: 1\r\n";
    const Outcome o = parseWhole(input + "\r\n");
    QCOMPARE(o.status, 431);

    QByteArray big = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: " + QByteArray(33 * 1024, 't');
    QCOMPARE(parseWhole(big).status, 431);
}

void TestHttpRequestParser::acceptsABodyExactlyAtTheLimit()
{
    const QByteArray body(4 * 1024 * 1024, 'b');
    const Outcome o = parseWhole("POST /mcp HTTP/1.1\r\nContent-Length: 4194304\r\n\r\n" + body);
    QCOMPARE(o.requests.size(), 1);
    QCOMPARE(o.requests.first().body.size(), body.size());

    const QByteArray chunked = "POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n200000\r\n"
        + body.left(2 * 1024 * 1024) + "\r\n200000\r\n" + body.left(2 * 1024 * 1024) + "\r\n0\r\n\r\n";
    const Outcome c = parseWhole(chunked);
    QCOMPARE(c.requests.size(), 1);
    QCOMPARE(c.requests.first().body.size(), body.size());
}

void TestHttpRequestParser::rejectsABodyLargerThanTheLimitBeforeItArrives()
{
    HttpRequestParser parser;
    HttpRequest r;
    parser.feed(QByteArray("POST /mcp HTTP/1.1\r\nContent-Length: 4194305\r\n\r\n"));
    QCOMPARE(parser.next(r), HttpRequestParser::Error);
    QCOMPARE(parser.errorStatus(), 413);
}

void TestHttpRequestParser::rejectsAChunkedBodyLargerThanTheLimit()
{
    HttpLimits limits;
    limits.maxBodySize = 10;
    const QByteArray head = "POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
    QCOMPARE(parseWhole(head + "6\r\nabcdef\r\n4\r\nghij\r\n0\r\n\r\n", limits).requests.size(), 1);
    const Outcome o = parseWhole(head + "6\r\nabcdef\r\n5\r\n", limits);
    QCOMPARE(o.status, 413);
    QCOMPARE(parseWhole(head + "B\r\n", limits).status, 413);
}

void TestHttpRequestParser::honoursConfiguredLimits()
{
    HttpLimits limits;
    limits.maxRequestLine = 20;
    limits.maxHeaderSection = 30;
    limits.maxHeaderCount = 2;
    limits.maxBodySize = 3;
    QCOMPARE(parseWhole("GET /123456 HTTP/1.1\r\n\r\n", limits).requests.size(), 1); // 20 bytes
    QCOMPARE(parseWhole("GET /1234567 HTTP/1.1\r\n\r\n", limits).status, 414);
    QCOMPARE(parseWhole("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", limits).status, 431);
    // "A: " + 23 digits + CRLF + CRLF is exactly 30 bytes.
    QCOMPARE(parseWhole("GET / HTTP/1.1\r\nA: 12345678901234567890123\r\n\r\n", limits).requests.size(), 1);
    QCOMPARE(parseWhole("GET / HTTP/1.1\r\nA: 123456789012345678901234\r\n\r\n", limits).status, 431);
    QCOMPARE(parseWhole("POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc", limits).requests.size(), 1);
    QCOMPARE(parseWhole("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd", limits).status, 413);
}

void TestHttpRequestParser::survivesTheLargestConfigurableBodyLimit()
{
    // Nothing may compute "length + something" in a way that overflows near INT64_MAX.
    HttpLimits limits;
    limits.maxBodySize = std::numeric_limits<qint64>::max();
    const QByteArray post = "POST / HTTP/1.1\r\n";
    Outcome o = parseWhole(post + "Transfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nabc", limits);
    QCOMPARE(o.last, HttpRequestParser::NeedMore);
    o = parseWhole(post + "Transfer-Encoding: chunked\r\n\r\n8000000000000000\r\n", limits);
    QCOMPARE(o.status, 413);
    o = parseWhole(post + "Content-Length: 9223372036854775807\r\n\r\nabc", limits);
    QCOMPARE(o.last, HttpRequestParser::NeedMore);
    o = parseWhole(post + "Content-Length: 9223372036854775808\r\n\r\n", limits);
    QCOMPARE(o.status, 413);
}

void TestHttpRequestParser::keepAliveFollowsVersionAndConnectionHeader_data()
{
    QTest::addColumn<QByteArray>("version");
    QTest::addColumn<QByteArray>("connection");
    QTest::addColumn<bool>("keepAlive");
    const QByteArray none; // no Connection header
    QTest::newRow("1.1 default") << QByteArray("HTTP/1.1") << none << true;
    QTest::newRow("1.1 close") << QByteArray("HTTP/1.1") << QByteArray("close") << false;
    QTest::newRow("1.1 Close mixed case") << QByteArray("HTTP/1.1") << QByteArray("Close") << false;
    QTest::newRow("1.1 close in a list") << QByteArray("HTTP/1.1") << QByteArray("keep-alive, close") << false;
    QTest::newRow("1.1 closed is not close") << QByteArray("HTTP/1.1") << QByteArray("closed") << true;
    QTest::newRow("1.1 keep-alive") << QByteArray("HTTP/1.1") << QByteArray("keep-alive") << true;
    QTest::newRow("1.0 default") << QByteArray("HTTP/1.0") << none << false;
    QTest::newRow("1.0 keep-alive") << QByteArray("HTTP/1.0") << QByteArray("Keep-Alive") << true;
    QTest::newRow("1.0 keep-alive and close") << QByteArray("HTTP/1.0") << QByteArray("keep-alive,close") << false;
    QTest::newRow("1.0 upgrade") << QByteArray("HTTP/1.0") << QByteArray("upgrade") << false;
}

void TestHttpRequestParser::keepAliveFollowsVersionAndConnectionHeader()
{
    QFETCH(QByteArray, version);
    QFETCH(QByteArray, connection);
    QFETCH(bool, keepAlive);
    QByteArray input = "GET /mcp " + version + "\r\nHost: h\r\n";
    if (!connection.isNull())
        input += "Connection: " + connection + "\r\n";
    const Outcome o = parseWhole(input + "\r\n");
    QCOMPARE(o.requests.size(), 1);
    QCOMPARE(o.requests.first().keepAlive(), keepAlive);
}

void TestHttpRequestParser::looksUpHeadersIgnoringCaseAndKeepsDuplicates()
{
    const Outcome o = parseWhole("GET / HTTP/1.1\r\nX-Dup: one\r\nx-dup:   two  \r\nX-Other: z\r\nX-DUP:three\r\n\r\n");
    QCOMPARE(o.requests.size(), 1);
    const HttpRequest &r = o.requests.first();
    QCOMPARE(r.header("x-DUP"), QByteArray("one"));
    QCOMPARE(r.headerValues("X-Dup"), (QList<QByteArray>{"one", "two", "three"}));
    QCOMPARE(r.headers.at(1).first, QByteArray("x-dup")); // names kept as sent
    QVERIFY(r.hasHeader("x-other"));
    QVERIFY(!r.hasHeader("x-missing"));
    QVERIFY(r.header("x-missing").isNull());
    QVERIFY(r.headerHasToken("x-dup", "TWO"));
}

void TestHttpRequestParser::splitsTheTargetIntoPathAndQuery_data()
{
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QByteArray>("query");
    QTest::newRow("plain") << QByteArray("/mcp") << QByteArray("/mcp") << QByteArray();
    QTest::newRow("query") << QByteArray("/mcp?a=1&b=%20") << QByteArray("/mcp") << QByteArray("a=1&b=%20");
    QTest::newRow("empty query") << QByteArray("/mcp?") << QByteArray("/mcp") << QByteArray();
    QTest::newRow("second question mark") << QByteArray("/m?a?b") << QByteArray("/m") << QByteArray("a?b");
    QTest::newRow("percent-encoded path stays encoded") << QByteArray("/m%63p") << QByteArray("/m%63p") << QByteArray();
    QTest::newRow("absolute-form") << QByteArray("http://h:1/mcp?q") << QByteArray("/mcp") << QByteArray("q");
    QTest::newRow("absolute-form without path") << QByteArray("http://h") << QByteArray("/") << QByteArray();
    QTest::newRow("absolute-form query only") << QByteArray("HTTPS://h?q") << QByteArray("/") << QByteArray("q");
}

void TestHttpRequestParser::splitsTheTargetIntoPathAndQuery()
{
    QFETCH(QByteArray, target);
    QFETCH(QByteArray, path);
    QFETCH(QByteArray, query);
    const Outcome o = parseWhole("GET " + target + " HTTP/1.1\r\n\r\n");
    QVERIFY2(o.requests.size() == 1, describe(o).constData());
    QCOMPARE(o.requests.first().target, target);
    QCOMPARE(o.requests.first().path, path);
    QCOMPARE(o.requests.first().query, query);
}

void TestHttpRequestParser::leavesAMissingHostToTheServer()
{
    const Outcome o = parseWhole("POST /mcp HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}");
    QCOMPARE(o.requests.size(), 1);
    QVERIFY(!o.requests.first().hasHeader("host"));
}

void TestHttpRequestParser::reportsOnceThatTheClientWaitsFor100Continue()
{
    HttpRequestParser parser;
    HttpRequest r;
    parser.feed(QByteArray("POST /mcp HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n"));
    QCOMPARE(parser.next(r), HttpRequestParser::NeedMore);
    QVERIFY(parser.takeContinueRequest());
    QVERIFY(!parser.takeContinueRequest());
    parser.feed(QByteArray("{}"));
    QCOMPARE(parser.next(r), HttpRequestParser::Complete);

    // Not when the body came along anyway, nor without a body, nor for HTTP/1.0.
    parser.feed(QByteArray("POST /mcp HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}"));
    QCOMPARE(parser.next(r), HttpRequestParser::Complete);
    QVERIFY(!parser.takeContinueRequest());
    parser.feed(QByteArray("POST /mcp HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n"));
    QCOMPARE(parser.next(r), HttpRequestParser::Complete);
    QVERIFY(!parser.takeContinueRequest());
    parser.feed(QByteArray("POST /mcp HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"));
    QCOMPARE(parser.next(r), HttpRequestParser::NeedMore);
    QVERIFY(!parser.takeContinueRequest());
}

void TestHttpRequestParser::staysInErrorUntilReset()
{
    HttpRequestParser parser;
    HttpRequest r;
    parser.feed(QByteArray("GET / HTTP/9.9\r\n\r\n"));
    QCOMPARE(parser.next(r), HttpRequestParser::Error);
    QCOMPARE(parser.errorStatus(), 505);
    QVERIFY(parser.hasError());
    parser.feed(kSseGet);
    QCOMPARE(parser.next(r), HttpRequestParser::Error);
    QCOMPARE(parser.bufferedBytes(), 0);
    parser.reset();
    QVERIFY(!parser.hasError());
    QCOMPARE(parser.errorStatus(), 0);
    parser.feed(kSseGet);
    QCOMPARE(parser.next(r), HttpRequestParser::Complete);
}

void TestHttpRequestParser::isIdleOnlyBetweenRequests()
{
    HttpRequestParser parser;
    HttpRequest r;
    QVERIFY(parser.isIdle());
    parser.feed(kSseGet.left(5));
    QCOMPARE(parser.next(r), HttpRequestParser::NeedMore);
    QVERIFY(!parser.isIdle());
    parser.feed(kSseGet.mid(5));
    QCOMPARE(parser.next(r), HttpRequestParser::Complete);
    QVERIFY(parser.isIdle());
}

void TestHttpRequestParser::handlesInputsTheFuzzerFound_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("requests");
    QTest::addColumn<int>("status"); // 0: no error
    // Found while writing the fuzzer's "same verdict however the bytes arrive" check: a line
    // longer than the limit that ends in a bare LF got 400 when it arrived whole but 414 byte
    // by byte. Both are now 414 (with the old order restored, the fuzzer finds it in seconds).
    QTest::newRow("overlong line ending in bare LF")
        << "GET /" + QByteArray(8200, 'a') + "\n" << 0 << 414;
    // Same family: the first-byte check ran only on a partial line, so junk followed by an
    // overlong line was 400 byte by byte but 414 whole.
    QTest::newRow("junk first byte then overlong line") << "\x01" + QByteArray(9000, 'a') << 0 << 400;
    // Header budget used up exactly by the last field: only CRLF can follow.
    QTest::newRow("header budget exactly used")
        << "GET / HTTP/1.1\r\nA: " + QByteArray(32 * 1024 - 7, 'a') + "\r\n\r\n" << 1 << 0;
}

void TestHttpRequestParser::handlesInputsTheFuzzerFound()
{
    QFETCH(QByteArray, input);
    QFETCH(int, requests);
    QFETCH(int, status);
    const Outcome whole = parseWhole(input);
    QCOMPARE(whole.requests.size(), requests);
    QCOMPARE(whole.status, status);
    QCOMPARE(describe(parseByteByByte(input)), describe(whole));
}

void TestHttpRequestParser::serializesAResponseWithItsContentLength()
{
    HttpResponse response;
    response.status = 200;
    response.setHeader("Content-Type", "application/json");
    response.setHeader("Date", "Tue, 03 Nov 2026 10:00:00 GMT");
    response.addHeader("Content-Length", "999"); // the body decides
    response.body = "{\"ok\":true}";
    QCOMPARE(response.serialize(),
             QByteArray("HTTP/1.1 200 OK\r\n"
                        "Content-Type: application/json\r\n"
                        "Date: Tue, 03 Nov 2026 10:00:00 GMT\r\n"
                        "Content-Length: 11\r\n"
                        "\r\n"
                        "{\"ok\":true}"));

    HttpResponse error;
    error.status = 431;
    const QByteArray bytes = error.serialize();
    QVERIFY(bytes.startsWith("HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nDate: "));
    QVERIFY(bytes.endsWith(" GMT\r\n\r\n"));
    QCOMPARE(HttpResponse::reasonPhrase(505), QByteArray("HTTP Version Not Supported"));
    QCOMPARE(HttpResponse::reasonPhrase(499), QByteArray("Client Error"));

    HttpResponse stream;
    stream.setHeader("Content-Type", "text/event-stream");
    stream.setHeader("Content-Type", "text/event-stream"); // replaces, does not duplicate
    stream.setHeader("Transfer-Encoding", "chunked");
    stream.setHeader("Date", "x");
    QCOMPARE(stream.serializeHead(),
             QByteArray("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
                        "Date: x\r\n\r\n"));
}

void TestHttpRequestParser::neverLetsAHeaderValueSplitTheResponse()
{
    HttpResponse response;
    response.status = 400;
    response.reason = "Bad\r\nX-Evil: 1";
    response.addHeader("Date", "x");
    response.addHeader("X-Echo", raw("a\r\nSet-Cookie: b\nc\0d"));
    response.addHeader("Bad Name", "dropped");
    response.addHeader("X-Injected\r\nFoo", "dropped");
    const QByteArray head = response.serializeHead();
    QCOMPARE(head,
             QByteArray("HTTP/1.1 400 Bad  X-Evil: 1\r\nDate: x\r\nX-Echo: a  Set-Cookie: b c d\r\n\r\n"));

    HttpResponse silly;
    silly.status = 1234;
    silly.reason = "ignored with an invalid status";
    silly.addHeader("Date", "x");
    QVERIFY(silly.serializeHead().startsWith("HTTP/1.1 500 Internal Server Error\r\n"));
}

void TestHttpRequestParser::sendsNoBodyFor204And1xx()
{
    for (int status : {100, 204, 304}) {
        HttpResponse response;
        response.status = status;
        response.addHeader("Date", "x");
        response.body = "dropped";
        const QByteArray bytes = response.serialize();
        QVERIFY(bytes.endsWith("Date: x\r\n\r\n"));
        QVERIFY(!bytes.contains("Content-Length"));
    }
}

void TestHttpRequestParser::framesChunks()
{
    QCOMPARE(httpChunk("hello world, sixteen+"), QByteArray("15\r\nhello world, sixteen+\r\n"));
    QCOMPARE(httpChunk(QByteArray()), QByteArray());
    QCOMPARE(httpLastChunk(), QByteArray("0\r\n\r\n"));

    // What we frame, we parse back.
    const QByteArray input = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + httpChunk("data: x\n\n")
        + httpChunk(QByteArray(300, 'y')) + httpLastChunk();
    const Outcome o = parseWhole(input);
    QCOMPARE(o.requests.size(), 1);
    QCOMPARE(o.requests.first().body, "data: x\n\n" + QByteArray(300, 'y'));
}

void TestHttpRequestParser::formatsAnSseEventWithEachLineAsDataLine_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("one line") << QByteArray("{\"jsonrpc\":\"2.0\"}") << QByteArray("data: {\"jsonrpc\":\"2.0\"}\n\n");
    QTest::newRow("LF") << QByteArray("a\nb") << QByteArray("data: a\ndata: b\n\n");
    QTest::newRow("CRLF") << QByteArray("a\r\nb") << QByteArray("data: a\ndata: b\n\n");
    QTest::newRow("lone CR") << QByteArray("a\rb") << QByteArray("data: a\ndata: b\n\n");
    QTest::newRow("CR CR LF is two breaks") << QByteArray("a\r\r\nb") << QByteArray("data: a\ndata:\ndata: b\n\n");
    QTest::newRow("trailing LF kept") << QByteArray("a\n") << QByteArray("data: a\ndata:\n\n");
    QTest::newRow("empty") << QByteArray() << QByteArray("data:\n\n");
    QTest::newRow("leading space kept") << QByteArray(" a") << QByteArray("data:  a\n\n");
    QTest::newRow("blank line inside") << QByteArray("a\n\nb") << QByteArray("data: a\ndata:\ndata: b\n\n");
}

void TestHttpRequestParser::formatsAnSseEventWithEachLineAsDataLine()
{
    QFETCH(QByteArray, data);
    QFETCH(QByteArray, expected);
    QCOMPARE(formatSseEvent(data), expected);
}

void TestHttpRequestParser::dropsLineBreaksFromSseEventNameAndId()
{
    QCOMPARE(formatSseEvent("x", "message", "7"), QByteArray("event: message\nid: 7\ndata: x\n\n"));
    QCOMPARE(formatSseEvent("x", "mes\r\nsage", QByteArray("1\n2\0003", 5), 2500),
             QByteArray("event: message\nid: 123\nretry: 2500\ndata: x\n\n"));
    QCOMPARE(formatSseEvent(QByteArray(), QByteArray(), "prime-1"), QByteArray("id: prime-1\ndata:\n\n"));
    QCOMPARE(formatSseComment("ping"), QByteArray(": ping\n"));
    QCOMPARE(formatSseComment("a\nb"), QByteArray(": a\n: b\n"));
}

QTEST_APPLESS_MAIN(TestHttpRequestParser)
#include "tst_httprequestparser.moc"

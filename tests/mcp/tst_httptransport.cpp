// The Streamable HTTP transport with raw requests over real sockets on 127.0.0.1, against the
// real engine: each rule of the transport and its security, cancellation, progress as an
// event stream, and two clients sharing the session.

#include "transports/HttpTransport.h"
#include "McpTestServer.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTcpSocket>

namespace {
const QByteArray Token = "test-token-0123456789abcdefghijklmnopqrstuvwxyz";

struct Reply
{
    int status = 0;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    bool complete = false;

    QByteArray header(const QByteArray &name) const
    {
        for (const auto &h : headers)
            if (h.first.compare(name, Qt::CaseInsensitive) == 0)
                return h.second;
        return {};
    }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    // The data of every SSE event in the body, as JSON.
    QList<QJsonObject> events() const
    {
        QList<QJsonObject> list;
        for (const QByteArray &block : body.split('\n')) {
            if (block.startsWith("data:"))
                list << QJsonDocument::fromJson(block.mid(5).trimmed()).object();
        }
        return list;
    }
};

// Reads one response from `buffer` (fed from the socket); chunked bodies are decoded.
bool parseReply(QByteArray &buffer, Reply &reply)
{
    const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return false;
    const QList<QByteArray> lines = buffer.left(headEnd).split('\n');
    Reply r;
    r.status = lines.first().split(' ').value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        r.headers.append({line.left(colon).trimmed(), line.mid(colon + 1).trimmed()});
    }
    qsizetype pos = headEnd + 4;
    if (r.header("Transfer-Encoding") == "chunked") {
        for (;;) {
            const qsizetype lineEnd = buffer.indexOf("\r\n", pos);
            if (lineEnd < 0)
                return false;
            const qsizetype size = buffer.mid(pos, lineEnd - pos).toLongLong(nullptr, 16);
            if (buffer.size() < lineEnd + 2 + size + 2)
                return false;
            r.body += buffer.mid(lineEnd + 2, size);
            pos = lineEnd + 2 + size + 2;
            if (size == 0)
                break;
        }
    } else {
        const qsizetype length = r.header("Content-Length").toLongLong();
        if (buffer.size() < pos + length)
            return false;
        r.body = buffer.mid(pos, length);
        pos += length;
    }
    r.complete = true;
    buffer.remove(0, pos);
    reply = r;
    return true;
}

class Client
{
public:
    explicit Client(quint16 port) : m_port(port) { connect(); }
    void connect()
    {
        m_socket.abort();
        m_buffer.clear();
        m_socket.connectToHost(QHostAddress::LocalHost, m_port);
        (void)QTest::qWaitFor([this] { return m_socket.state() == QAbstractSocket::ConnectedState; }, 2000);
    }
    QTcpSocket &socket() { return m_socket; }

    QByteArray request(const QByteArray &method, const QByteArray &body, const QList<QByteArray> &extraHeaders = {},
                       bool withDefaults = true) const
    {
        QByteArray r = method + " /mcp HTTP/1.1\r\n";
        bool hasHost = false;
        for (const QByteArray &h : extraHeaders)
            hasHost = hasHost || h.toLower().startsWith("host:");
        if (!hasHost)
            r += "Host: 127.0.0.1:" + QByteArray::number(m_port) + "\r\n";
        if (withDefaults) {
            r += "Authorization: Bearer " + Token + "\r\n";
            r += "Accept: application/json, text/event-stream\r\n";
            if (!m_sessionId.isEmpty())
                r += "Mcp-Session-Id: " + m_sessionId + "\r\nMCP-Protocol-Version: 2025-11-25\r\n";
        }
        for (const QByteArray &h : extraHeaders)
            r += h + "\r\n";
        if (!body.isNull())
            r += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
        r += "\r\n" + body;
        return r;
    }
    void send(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
    }
    // The server runs in this thread: wait by spinning the event loop, never by blocking.
    Reply read(int timeoutMs = 10000)
    {
        Reply reply;
        (void)QTest::qWaitFor([&] {
            m_buffer += m_socket.readAll();
            return parseReply(m_buffer, reply) || (m_socket.state() != QAbstractSocket::ConnectedState && m_socket.bytesAvailable() == 0);
        }, timeoutMs);
        return reply;
    }
    Reply exchange(const QByteArray &method, const QByteArray &body, const QList<QByteArray> &headers = {}, bool withDefaults = true)
    {
        send(request(method, body, headers, withDefaults));
        return read();
    }
    Reply post(const QByteArray &body) { return exchange("POST", body); }
    // Waits for raw bytes containing `needle` (streams that have not ended).
    QByteArray readUntil(const QByteArray &needle, int timeoutMs = 10000)
    {
        (void)QTest::qWaitFor([&] {
            m_buffer += m_socket.readAll();
            return m_buffer.contains(needle);
        }, timeoutMs);
        return m_buffer;
    }
    bool waitClosed(int timeoutMs = 5000)
    {
        return QTest::qWaitFor([&] {
            m_buffer += m_socket.readAll();
            return m_socket.state() != QAbstractSocket::ConnectedState;
        }, timeoutMs);
    }
    bool initialize(const QString &name = QStringLiteral("test-client"))
    {
        const Reply reply = post(Mcp::initialize(1, name));
        m_sessionId = reply.header("Mcp-Session-Id");
        if (reply.status != 200 || m_sessionId.isEmpty())
            return false;
        return post(Mcp::initialized()).status == 202;
    }
    QByteArray sessionId() const { return m_sessionId; }
    void setSessionId(const QByteArray &id) { m_sessionId = id; }

private:
    quint16 m_port;
    QTcpSocket m_socket;
    QByteArray m_buffer;
    QByteArray m_sessionId;
};
} // namespace

class TestHttpTransport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_stack = std::make_unique<McpTestServer>();
        QVERIFY(m_stack->waitReady());
        HttpTransport::Options options;
        options.port = 0;
        options.token = Token;
        options.connection.requestTimeoutMs = 500;
        options.connection.limits.maxBodySize = 64 * 1024;
        options.keepAliveCommentMs = 200;
        m_transport = std::make_unique<HttpTransport>(&m_stack->server, options);
        QVERIFY2(m_transport->listen(), qPrintable(m_transport->errorString()));
        m_port = m_transport->port();
    }
    void cleanupTestCase()
    {
        m_transport.reset();
        m_stack.reset();
    }

    void initializeIssuesAVisibleAsciiSessionId()
    {
        Client client(m_port);
        const Reply reply = client.post(Mcp::initialize());
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.header("Content-Type"), QByteArray("application/json"));
        const QByteArray id = reply.header("Mcp-Session-Id");
        QVERIFY(id.size() >= 32);
        for (char c : id)
            QVERIFY(c >= 0x21 && c <= 0x7e);
        QCOMPARE(reply.json().value("result").toObject().value("protocolVersion").toString(), QStringLiteral("2025-11-25"));
    }

    // An initialize that names its session re-initializes that session; only one without opens
    // another.
    void anInitializeWithASessionIdKeepsThatSession()
    {
        Client client(m_port);
        QVERIFY(client.initialize(QStringLiteral("first-name")));
        const int sessions = m_transport->peerCount();
        const Reply again = client.post(Mcp::initialize(2, QStringLiteral("second-name")));
        QCOMPARE(again.status, 200);
        QVERIFY(again.header("Mcp-Session-Id").isEmpty());
        QCOMPARE(m_transport->peerCount(), sessions);
        QCOMPARE(again.json().value("result").toObject().value("serverInfo").toObject().value("name").toString(), QStringLiteral("lisp-duet"));
    }

    void refusesAForeignOrigin()
    {
        Client client(m_port);
        QCOMPARE(client.exchange("POST", Mcp::initialize(), {"Origin: https://evil.example.com"}).status, 403);
        client.connect();
        QCOMPARE(client.exchange("POST", Mcp::initialize(), {"Origin: null"}).status, 403);
        client.connect();
        QCOMPARE(client.exchange("POST", Mcp::initialize(), {"Origin: http://localhost:6274"}).status, 200);
    }

    void letsALocalPageReadAnswersButNoOtherSite()
    {
        Client client(m_port);
        // The preflight comes without the token (browsers never send credentials with it).
        const Reply preflight = client.exchange("OPTIONS", QByteArray(),
                                                {"Origin: http://localhost:6274", "Access-Control-Request-Method: POST"}, false);
        QCOMPARE(preflight.status, 204);
        QCOMPARE(preflight.header("Access-Control-Allow-Origin"), QByteArray("http://localhost:6274"));
        QVERIFY(preflight.header("Access-Control-Allow-Headers").contains("Mcp-Session-Id"));
        const Reply reply = client.exchange("POST", Mcp::initialize(), {"Origin: http://localhost:6274"});
        QCOMPARE(reply.status, 200);
        QVERIFY(reply.header("Access-Control-Expose-Headers").contains("Mcp-Session-Id"));
        client.connect();
        const Reply foreign = client.exchange("OPTIONS", QByteArray(), {"Origin: https://evil.example.com"}, false);
        QCOMPARE(foreign.status, 403);
        QVERIFY(foreign.header("Access-Control-Allow-Origin").isEmpty());
    }

    void refusesAForeignHostAgainstDnsRebinding_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<bool>("allowed");
        const QByteArray port = QByteArray::number(m_port);
        QTest::newRow("evil name") << QByteArray("evil.example.com") << false;
        QTest::newRow("evil name with our port") << QByteArray("evil.example.com:" + port) << false;
        QTest::newRow("loopback, other port") << QByteArray("127.0.0.1:1") << false;
        QTest::newRow("127.0.0.1") << QByteArray("127.0.0.1:" + port) << true;
        QTest::newRow("localhost") << QByteArray("localhost:" + port) << true;
        QTest::newRow("[::1]") << QByteArray("[::1]:" + port) << true;
    }
    void refusesAForeignHostAgainstDnsRebinding()
    {
        QFETCH(QByteArray, host);
        QFETCH(bool, allowed);
        Client client(m_port);
        const Reply reply = client.exchange("POST", Mcp::initialize(), {"Host: " + host});
        QCOMPARE(reply.status, allowed ? 200 : 403);
    }

    void requiresTheBearerToken_data()
    {
        QTest::addColumn<QByteArray>("authorization");
        QTest::newRow("missing") << QByteArray();
        QTest::newRow("wrong") << QByteArray("Authorization: Bearer not-the-token");
        QTest::newRow("a prefix of the token") << QByteArray("Authorization: Bearer " + Token.left(10));
        QTest::newRow("basic scheme") << QByteArray("Authorization: Basic " + Token);
    }
    void requiresTheBearerToken()
    {
        QFETCH(QByteArray, authorization);
        Client client(m_port);
        QList<QByteArray> headers{"Accept: application/json, text/event-stream"};
        if (!authorization.isEmpty())
            headers << authorization;
        const Reply reply = client.exchange("POST", Mcp::initialize(), headers, false);
        QCOMPARE(reply.status, 401);
        QVERIFY(reply.header("WWW-Authenticate").startsWith("Bearer"));
        QVERIFY(!reply.body.contains(Token));
    }

    void requiresTheSessionIdAfterInitialize()
    {
        Client client(m_port);
        QCOMPARE(client.post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})").status, 400);
    }

    void answersAnUnknownSessionIdWith404()
    {
        Client client(m_port);
        client.setSessionId("no-such-session");
        QCOMPARE(client.post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})").status, 404);
    }

    void refusesAnUnsupportedProtocolVersion()
    {
        Client client(m_port);
        QVERIFY(client.initialize());
        const Reply reply = client.exchange("POST", R"({"jsonrpc":"2.0","id":2,"method":"ping"})",
                                            {"Authorization: Bearer " + Token, "Accept: application/json, text/event-stream",
                                             "Mcp-Session-Id: " + client.sessionId(), "MCP-Protocol-Version: 1999-01-01"},
                                            false);
        QCOMPARE(reply.status, 400);
        QVERIFY(reply.body.contains("1999-01-01"));
    }

    void answersNotificationsWith202AndNoBody()
    {
        Client client(m_port);
        QVERIFY(client.initialize());
        const Reply reply = client.post(R"({"jsonrpc":"2.0","method":"notifications/roots/list_changed"})");
        QCOMPARE(reply.status, 202);
        QVERIFY(reply.body.isEmpty());
    }

    void refusesAnOversizeBodyWith413AndCloses()
    {
        Client client(m_port);
        const QByteArray body(100 * 1024, 'x');
        const Reply reply = client.exchange("POST", body);
        QCOMPARE(reply.status, 413);
        QVERIFY(client.waitClosed());
    }

    void answersASlowClientWith408AndCloses()
    {
        Client client(m_port);
        client.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(m_port) + "\r\n");
        QElapsedTimer timer;
        timer.start();
        const Reply reply = client.read(5000);
        QCOMPARE(reply.status, 408);
        QVERIFY(timer.elapsed() >= 400);
        QVERIFY(client.waitClosed());
    }

    void keepsTheConnectionAliveForTwoRequests()
    {
        Client client(m_port);
        QVERIFY(client.initialize());
        const Reply first = client.post(R"({"jsonrpc":"2.0","id":"a","method":"ping"})");
        const Reply second = client.post(Mcp::evaluate(7, QStringLiteral("(+ 1 2)")));
        QCOMPARE(first.status, 200);
        QCOMPARE(first.json().value("id").toString(), QStringLiteral("a"));
        QCOMPARE(second.status, 200);
        QCOMPARE(second.json().value("id").toInt(), 7);
        QVERIFY(Mcp::resultText(second.json()).contains(QStringLiteral("3")));
        QCOMPARE(client.socket().state(), QAbstractSocket::ConnectedState);
    }

    void answersMalformedJsonWith400ParseError()
    {
        Client client(m_port);
        QVERIFY(client.initialize());
        const Reply reply = client.post("{not json");
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.json().value("error").toObject().value("code").toInt(), -32700);
    }

    void answersUnknownMethodsWithMethodNotFound()
    {
        Client client(m_port);
        QVERIFY(client.initialize());
        const Reply reply = client.post(R"({"jsonrpc":"2.0","id":3,"method":"server/discover"})");
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.json().value("error").toObject().value("code").toInt(), -32601);
    }

    void refusesAClientThatAcceptsNeitherJsonNorEvents()
    {
        Client client(m_port);
        QVERIFY(client.initialize());
        const Reply reply = client.exchange("POST", R"({"jsonrpc":"2.0","id":3,"method":"ping"})",
                                            {"Authorization: Bearer " + Token, "Accept: text/html", "Mcp-Session-Id: " + client.sessionId()},
                                            false);
        QCOMPARE(reply.status, 406);
    }

    void streamsProgressThenTheResponseForACallWithAProgressToken()
    {
        Client client(m_port);
        QVERIFY(client.initialize());
        const Reply reply = client.post(Mcp::evaluate(11, QStringLiteral("(progn (sleep 2.3) :done)"), QStringLiteral("tok")));
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.header("Content-Type"), QByteArray("text/event-stream"));
        const QList<QJsonObject> events = reply.events();
        QVERIFY2(events.size() >= 3, reply.body.constData());
        double last = 0;
        for (qsizetype i = 0; i + 1 < events.size(); ++i) {
            QCOMPARE(events.at(i).value("method").toString(), QStringLiteral("notifications/progress"));
            const QJsonObject params = events.at(i).value("params").toObject();
            QCOMPARE(params.value("progressToken").toString(), QStringLiteral("tok"));
            QVERIFY(params.value("progress").toDouble() > last);
            last = params.value("progress").toDouble();
        }
        QCOMPARE(events.last().value("id").toInt(), 11);
        QVERIFY(Mcp::resultText(events.last()).contains(QStringLiteral(":DONE")));
        // The stream ended; the connection serves the next request.
        QCOMPARE(client.post(R"({"jsonrpc":"2.0","id":12,"method":"ping"})").status, 200);
    }

    void getStreamCarriesTheClientsOwnNotifications()
    {
        Client client(m_port);
        QVERIFY(client.initialize());
        QCOMPARE(client.post(R"({"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}})").status, 200);
        Client stream(m_port);
        stream.setSessionId(client.sessionId());
        stream.send(stream.request("GET", QByteArray()));
        QVERIFY(stream.readUntil("stream open").contains("text/event-stream"));
        m_stack->server.log(QStringLiteral("info"), QStringLiteral("test"), QStringLiteral("hello over the GET stream"));
        QVERIFY(stream.readUntil("hello over the GET stream").contains("notifications/message"));
        QVERIFY(stream.readUntil(": keep-alive").contains(": keep-alive"));
    }

    void deleteEndsTheSessionIdAndLaterRequestsGet404()
    {
        Client client(m_port);
        QVERIFY(client.initialize());
        QCOMPARE(client.exchange("DELETE", QByteArray()).status, 200);
        QCOMPARE(client.post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})").status, 404);
    }

    void cancellationStopsALoopQuickly()
    {
        Client client(m_port);
        QVERIFY(client.initialize());
        JobPtr running;
        const auto startedConnection = connect(&m_stack->session, &Session::started, this, [&](JobPtr e) { running = e; });
        client.send(client.request("POST", Mcp::evaluate(21, QStringLiteral("(loop)"))));
        QVERIFY(QTest::qWaitFor([&] { return running != nullptr; }, 10000));
        disconnect(startedConnection);
        QTest::qWait(200);

        QElapsedTimer timer;
        qint64 stoppedAfter = -1;
        const auto finishedConnection = connect(&m_stack->session, &Session::finished, this, [&](JobPtr e) {
            if (e->id == running->id)
                stoppedAfter = timer.nsecsElapsed() / 1000;
        });
        Client canceller(m_port);
        canceller.setSessionId(client.sessionId());
        timer.start();
        QCOMPARE(canceller.post(Mcp::cancel(21)).status, 202);
        QVERIFY(QTest::qWaitFor([&] { return stoppedAfter >= 0; }, 5000));
        disconnect(finishedConnection);
        qInfo("the (loop) stopped %lld us after the client's notifications/cancelled", stoppedAfter);
        QVERIFY(stoppedAfter < 2'000'000);
        // No JSON-RPC response for a cancelled request; its POST ends without one.
        const Reply abandoned = client.read(2000);
        QCOMPARE(abandoned.status, 204);
        const Reply next = client.post(Mcp::evaluate(22, QStringLiteral("(+ 40 2)")));
        QVERIFY(Mcp::resultText(next.json()).contains(QStringLiteral("42")));
    }

    void aCancelledCallOnAnEventStreamEndsItsStream()
    {
        Client client(m_port);
        QVERIFY(client.initialize());
        client.send(client.request("POST", Mcp::evaluate(31, QStringLiteral("(loop)"), QStringLiteral("tok-31"))));
        QVERIFY(client.readUntil("text/event-stream").contains("200"));
        QVERIFY(QTest::qWaitFor([this] { return m_stack->session.current() != nullptr; }, 10000));
        Client canceller(m_port);
        canceller.setSessionId(client.sessionId());
        QCOMPARE(canceller.post(Mcp::cancel(31)).status, 202);
        // No response event: the stream simply ends, and the connection serves the next request.
        const Reply abandoned = client.read(5000);
        QVERIFY(abandoned.complete);
        QCOMPARE(abandoned.status, 200);
        for (const QJsonObject &event : abandoned.events())
            QCOMPARE(event.value("method").toString(), QStringLiteral("notifications/progress"));
        QCOMPARE(client.post(R"({"jsonrpc":"2.0","id":32,"method":"ping"})").status, 200);
    }

    void refusesARequestWhoseIdIsStillInFlight()
    {
        Client client(m_port), second(m_port);
        QVERIFY(client.initialize());
        second.setSessionId(client.sessionId());
        client.send(client.request("POST", Mcp::evaluate(41, QStringLiteral("(sleep 0.5) :first"))));
        QVERIFY(QTest::qWaitFor([this] { return m_stack->session.current() != nullptr; }, 10000));
        const Reply refused = second.post(R"({"jsonrpc":"2.0","id":41,"method":"ping"})");
        QCOMPARE(refused.status, 400);
        QCOMPARE(refused.json().value("error").toObject().value("code").toInt(), -32600);
        QCOMPARE(refused.json().value("id").toInt(), 41);
        // The first request still gets its own answer.
        const Reply first = client.read();
        QCOMPARE(first.status, 200);
        QCOMPARE(Mcp::resultText(first.json()), QStringLiteral("=> :FIRST"));
    }

    void answersAMessageThatIsNotJsonRpcWith400AndTheReason()
    {
        Client client(m_port);
        QVERIFY(client.initialize());
        const Reply reply = client.post(R"({"jsonrpc":"1.0","id":5,"method":"ping"})");
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.json().value("error").toObject().value("code").toInt(), -32600);
        QCOMPARE(reply.json().value("id").toInt(), 5);
        QCOMPARE(client.post(R"([{"jsonrpc":"2.0","id":6,"method":"ping"}])").status, 400); // one message per POST
    }

    void twoClientsEvaluatingAtOnceSeeEachOther()
    {
        Client alice(m_port), bob(m_port);
        QVERIFY(alice.initialize(QStringLiteral("alice")));
        QVERIFY(bob.initialize(QStringLiteral("bob")));
        // Both catch up on what earlier tests did.
        alice.post(Mcp::evaluate(1, QStringLiteral("1")));
        bob.post(Mcp::evaluate(1, QStringLiteral("1")));

        alice.send(alice.request("POST", Mcp::evaluate(2, QStringLiteral("(progn (sleep 0.3) (defvar *alice* 1))"))));
        QVERIFY(QTest::qWaitFor([this] { return m_stack->session.current() != nullptr; }, 5000)); // Alice's runs
        bob.send(bob.request("POST", Mcp::evaluate(2, QStringLiteral("(defvar *bob* 2)"))));
        const Reply a = alice.read(), b = bob.read();
        QCOMPARE(a.status, 200);
        QCOMPARE(b.status, 200);
        QVERIFY(Mcp::resultText(a.json()).contains(QStringLiteral("*ALICE*")));
        QVERIFY(Mcp::resultText(b.json()).contains(QStringLiteral("*BOB*")));

        const Reply a2 = alice.post(Mcp::evaluate(3, QStringLiteral("(list *alice* *bob*)")));
        QVERIFY(Mcp::resultText(a2.json()).contains(QStringLiteral("(1 2)")));
        const QStringList seenByAlice = Mcp::activityCodes(a.json()) + Mcp::activityCodes(a2.json());
        // In order: Alice's call was queued first, so it had finished when Bob's was answered,
        // and Bob's very first answer already tells him about it.
        const QStringList seenByBob = Mcp::activityCodes(b.json());
        QVERIFY2(seenByAlice.contains(QStringLiteral("(defvar *bob* 2)")), qPrintable(seenByAlice.join(" | ")));
        QVERIFY2(seenByBob.contains(QStringLiteral("(progn (sleep 0.3) (defvar *alice* 1))")), qPrintable(seenByBob.join(" | ")));
    }

    void aSlowCallDoesNotBlockOtherConnections()
    {
        Client slow(m_port), quick(m_port);
        QVERIFY(slow.initialize());
        QVERIFY(quick.initialize());
        slow.send(slow.request("POST", Mcp::evaluate(5, QStringLiteral("(sleep 2)"))));
        QTest::qWait(100);
        QElapsedTimer timer;
        timer.start();
        const Reply ping = quick.post(R"({"jsonrpc":"2.0","id":6,"method":"ping"})");
        QCOMPARE(ping.status, 200);
        QVERIFY(timer.elapsed() < 1000);
        QCOMPARE(slow.read().status, 200);
    }

    void tooManyClientsEndTheLongestIdleOne()
    {
        HttpTransport::Options options;
        options.port = 0;
        options.token = Token;
        options.maxPeers = 3;
        HttpTransport small(&m_stack->server, options);
        QVERIFY(small.listen());
        QList<QByteArray> ids;
        for (int i = 0; i < 5; ++i) {
            Client client(small.port());
            QVERIFY(client.initialize());
            ids << client.sessionId();
            QTest::qWait(5);
        }
        QCOMPARE(small.peerCount(), 3);
        Client first(small.port());
        first.setSessionId(ids.first());
        QCOMPARE(first.post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})").status, 404);
        Client last(small.port());
        last.setSessionId(ids.last());
        QCOMPARE(last.post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})").status, 200);
    }

private:
    std::unique_ptr<McpTestServer> m_stack;
    std::unique_ptr<HttpTransport> m_transport;
    quint16 m_port = 0;
};

QTEST_GUILESS_MAIN(TestHttpTransport)
#include "tst_httptransport.moc"

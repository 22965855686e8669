// The fault table of issue 6, HTTP rows: misbehaving clients of the Streamable HTTP transport
// with its default limits, on real sockets against the real engine. After every row a fresh
// client's evaluation succeeds and every evaluation that completed is in the transcript.

#include "../common/ResidentMemory.h"
#include "transports/HttpTransport.h"
#include "McpTestServer.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTcpSocket>

namespace {
const QByteArray Token = "fault-token-0123456789abcdefghijklmnopqrstuvwxyz";


// A raw HTTP/1.1 client: requests are written by hand so that they can be wrong on purpose.
class RawClient
{
public:
    explicit RawClient(quint16 port) : m_port(port)
    {
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        (void)QTest::qWaitFor([this] { return m_socket.state() == QAbstractSocket::ConnectedState; }, 3000);
    }
    QTcpSocket &socket() { return m_socket; }
    QByteArray sessionId() const { return m_sessionId; }

    QByteArray head(qint64 contentLength) const
    {
        QByteArray r = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(m_port) + "\r\n"
                       "Authorization: Bearer " + Token + "\r\nAccept: application/json, text/event-stream\r\n"
                       "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(contentLength) + "\r\n";
        if (!m_sessionId.isEmpty())
            r += "Mcp-Session-Id: " + m_sessionId + "\r\nMCP-Protocol-Version: 2025-11-25\r\n";
        return r + "\r\n";
    }
    QByteArray post(const QByteArray &body) const { return head(body.size()) + body; }
    void send(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
    }
    // The next whole response (Content-Length bodies only: these tests ask for JSON).
    bool read(int *status, QByteArray *body, int timeoutMs = 20000)
    {
        return QTest::qWaitFor([&] {
            m_buffer += m_socket.readAll();
            const qsizetype end = m_buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return false;
            const QByteArray headText = m_buffer.left(end);
            qsizetype length = 0;
            for (const QByteArray &line : headText.split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
                if (line.toLower().startsWith("mcp-session-id:") && m_sessionId.isEmpty())
                    m_sessionId = line.mid(15).trimmed();
            }
            if (m_buffer.size() < end + 4 + length)
                return false;
            *status = headText.split(' ').value(1).toInt();
            *body = m_buffer.mid(end + 4, length);
            m_buffer.remove(0, end + 4 + length);
            return true;
        }, timeoutMs);
    }
    QJsonObject call(const QByteArray &message, int *status = nullptr)
    {
        send(post(message));
        int s = 0;
        QByteArray body;
        if (!read(&s, &body))
            return {};
        if (status)
            *status = s;
        return QJsonDocument::fromJson(body).object();
    }
    bool initialize(const QString &name)
    {
        int status = 0;
        call(Mcp::initialize(1, name), &status);
        if (status != 200 || m_sessionId.isEmpty())
            return false;
        call(Mcp::initialized(), &status);
        return status == 202;
    }
    bool waitClosed(int timeoutMs = 10000)
    {
        return QTest::qWaitFor([&] {
            m_buffer += m_socket.readAll();
            return m_socket.state() != QAbstractSocket::ConnectedState;
        }, timeoutMs);
    }
    QByteArray buffered() const { return m_buffer; }

private:
    quint16 m_port;
    QTcpSocket m_socket;
    QByteArray m_buffer;
    QByteArray m_sessionId;
};
} // namespace

class TestHttpFaults : public QObject
{
    Q_OBJECT

    std::unique_ptr<McpTestServer> m_stack;
    std::unique_ptr<HttpTransport> m_transport;
    quint16 m_port = 0;
    int m_finished = 0;

    // A new client, then an evaluation through it: the server still serves.
    void assertServing()
    {
        RawClient client(m_port);
        QVERIFY(client.initialize(QStringLiteral("checker")));
        const QJsonObject reply = client.call(Mcp::evaluate(2, QStringLiteral("(+ 40 2)")));
        QVERIFY2(Mcp::resultText(reply).contains(QStringLiteral("=> 42")), qPrintable(Mcp::resultText(reply)));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_stack = std::make_unique<McpTestServer>();
        QVERIFY(m_stack->waitReady());
        connect(&m_stack->session, &Session::finished, this, [this] { ++m_finished; });
        HttpTransport::Options options; // the app's defaults, but any free port
        options.port = 0;
        options.token = Token;
        m_transport = std::make_unique<HttpTransport>(&m_stack->server, options);
        QVERIFY2(m_transport->listen(), qPrintable(m_transport->errorString()));
        m_port = m_transport->port();
    }

    void cleanup()
    {
        if (!QTest::currentTestFailed()) {
            assertServing();
            QCOMPARE(int(m_stack->session.transcript().size()), m_finished);
        }
    }

    void cleanupTestCase()
    {
        m_transport.reset();
        m_stack.reset();
    }

    void aClientThatDisconnectsMidEvaluationLeavesTheEvaluationToFinish()
    {
        const int before = m_finished;
        {
            RawClient client(m_port);
            QVERIFY(client.initialize(QStringLiteral("leaver")));
            client.send(client.post(Mcp::evaluate(7, QStringLiteral("(progn (sleep 1) (defvar *left-behind* :done))"))));
            QTRY_VERIFY(m_stack->session.current());
            client.socket().abort();
        }
        QTRY_COMPARE_WITH_TIMEOUT(m_finished, before + 1, 10000);
        const JobPtr done = m_stack->session.transcript().last();
        QVERIFY(done->result.ok());
        QCOMPARE(done->request.origin.name, QStringLiteral("leaver"));
    }

    void aClientThatSendsTenThousandRequestsWithoutReadingStaysBounded()
    {
        RawClient flooder(m_port);
        QVERIFY(flooder.initialize(QStringLiteral("flooder")));
        const qint64 rssBefore = residentKiB();
        QByteArray burst;
        for (int i = 0; i < 10000; ++i)
            burst += flooder.post(QByteArray(R"({"jsonrpc":"2.0","id":)") + QByteArray::number(1000 + i) + R"(,"method":"ping"})");
        flooder.send(burst); // about 3 MB of pipelined requests, and not one reply read
        // Meanwhile another client is served.
        QElapsedTimer clock;
        clock.start();
        assertServing();
        const qint64 servedMs = clock.elapsed();
        QTest::qWait(2000);
        const qint64 growthKiB = residentKiB() - rssBefore;
        // Now read: every request was answered, in order.
        int answered = 0;
        int status = 0;
        QByteArray body;
        while (answered < 10000 && flooder.read(&status, &body, 20000)) {
            if (status != 200 || QJsonDocument::fromJson(body).object().value(QStringLiteral("id")).toInt() != 1000 + answered)
                break;
            ++answered;
        }
        qInfo("10,000 unread requests: another client served in %lld ms; host RSS grew %lld KiB; %d answered in order",
              servedMs, growthKiB, answered);
        QCOMPARE(answered, 10000);
#if !DUET_UNDER_ASAN // ASan holds freed memory in its quarantine: RSS says nothing there
        QVERIFY2(growthKiB < 64 * 1024, qPrintable(QString::number(growthKiB)));
#endif
    }

    void aHundredMegabyteBodyIsRefusedWithoutBeingRead()
    {
        RawClient client(m_port);
        const qint64 rssBefore = residentKiB();
        client.send(client.head(100 * 1000 * 1000));
        const QByteArray chunk(1024 * 1024, ' ');
        qint64 sent = 0;
        while (sent < 100 * 1000 * 1000 && client.socket().state() == QAbstractSocket::ConnectedState) {
            client.socket().write(chunk);
            sent += chunk.size();
            // Let the server run; stop feeding once it has answered.
            QTest::qWait(1);
            if (client.socket().bytesAvailable() > 0)
                break;
        }
        int status = 0;
        QByteArray body;
        QVERIFY(client.read(&status, &body, 10000));
        QCOMPARE(status, 413);
        QVERIFY(client.waitClosed());
        const qint64 growthKiB = residentKiB() - rssBefore;
        qInfo("100 MB body: refused with 413 after %lld MB were offered; host RSS grew %lld KiB", sent / (1024 * 1024), growthKiB);
#if !DUET_UNDER_ASAN // ASan holds freed memory in its quarantine: RSS says nothing there
        QVERIFY2(growthKiB < 64 * 1024, qPrintable(QString::number(growthKiB)));
#endif
    }

    void aRequestDribbledOneByteASecondTimesOutWhileOthersAreServed()
    {
        RawClient slow(m_port);
        const QByteArray request = slow.post(QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"));
        QElapsedTimer clock;
        clock.start();
        int sent = 0;
        bool servedOthers = false;
        while (slow.socket().state() == QAbstractSocket::ConnectedState && sent < request.size() && clock.elapsed() < 30000) {
            slow.send(request.mid(sent++, 1));
            if (!servedOthers) {
                assertServing();
                servedOthers = true;
            }
            QTest::qWait(1000);
            if (slow.socket().bytesAvailable() > 0)
                break;
        }
        int status = 0;
        QByteArray body;
        QVERIFY(slow.read(&status, &body, 15000));
        qInfo("dribbled request: %d bytes in %lld ms, then status %d", sent, clock.elapsed(), status);
        QCOMPARE(status, 408);
        QVERIFY(servedOthers);
        QVERIFY(slow.waitClosed());
    }

    void invalidUtf8IsAParseErrorThatNamesTheProblem()
    {
        RawClient client(m_port);
        QVERIFY(client.initialize(QStringLiteral("bad-bytes")));
        int status = 0;
        const QJsonObject reply = client.call(QByteArray("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":"
                                                         "{\"name\":\"evaluate-lisp\",\"arguments\":{\"code\":\"(print \\\"\xff\xfe\xc3\\\")\"}}}"),
                                              &status);
        qInfo("invalid UTF-8: status %d, %s", status, QJsonDocument(reply).toJson(QJsonDocument::Compact).constData());
        QCOMPARE(status, 400);
        QCOMPARE(reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32700);
        QVERIFY(!reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString().isEmpty());
    }

    void jsonNestedAHundredThousandLevelsIsAParseErrorNotACrash_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("arrays") << QByteArray(100000, '[') + QByteArray(100000, ']');
        QByteArray objects;
        for (int i = 0; i < 100000; ++i)
            objects += "{\"a\":";
        objects += "1" + QByteArray(100000, '}');
        QTest::newRow("objects") << objects;
        QByteArray inParams = R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"evaluate-lisp","arguments":{"code":)";
        inParams += QByteArray(100000, '[') + QByteArray(100000, ']') + "}}}";
        QTest::newRow("inside a tool call") << inParams;
    }

    void jsonNestedAHundredThousandLevelsIsAParseErrorNotACrash()
    {
        QFETCH(QByteArray, body);
        RawClient client(m_port);
        QVERIFY(client.initialize(QStringLiteral("deep")));
        int status = 0;
        const QJsonObject reply = client.call(body, &status);
        qInfo("nested %lld bytes: status %d, error %d %s", qint64(body.size()), status,
              reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
              qPrintable(reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString()));
        QCOMPARE(status, 400);
        QCOMPARE(reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32700);
        QVERIFY(reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString().contains(QStringLiteral("nested")));
    }
};

QTEST_GUILESS_MAIN(TestHttpFaults)
#include "tst_httpfaults.moc"

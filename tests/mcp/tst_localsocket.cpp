// MCP over the local socket (what lisp-duet-bridge connects to), over a real Unix socket
// against the real engine: framing, user-only permissions, stale sockets, several clients,
// and a closed connection cancelling its call.

#include "transports/LocalSocketTransport.h"
#include "McpTestServer.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTemporaryDir>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace {
// Built, not written as raw strings: moc's preprocessor reads "//" in a raw string as a comment.
QByteArray resourceRequest(int id, const char *method, const char *uri)
{
    return QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", QJsonObject{{"uri", uri}}}})
        .toJson(QJsonDocument::Compact);
}

class LineClient
{
public:
    explicit LineClient(const QString &path)
    {
        m_socket.connectToServer(path);
        (void)QTest::qWaitFor([this] { return m_socket.state() == QLocalSocket::ConnectedState; }, 2000);
    }
    bool isConnected() const { return m_socket.state() == QLocalSocket::ConnectedState; }
    void send(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
    }
    QJsonObject read(int timeoutMs = 10000)
    {
        QJsonObject message;
        (void)QTest::qWaitFor([&] {
            m_buffer += m_socket.readAll();
            const qsizetype newline = m_buffer.indexOf('\n');
            if (newline < 0)
                return false;
            message = QJsonDocument::fromJson(m_buffer.left(newline)).object();
            m_buffer.remove(0, newline + 1);
            return true;
        }, timeoutMs);
        return message;
    }
    QJsonObject call(const QByteArray &line)
    {
        send(line + '\n');
        return read();
    }
    bool initialize(const QString &name)
    {
        const QJsonObject reply = call(Mcp::initialize(1, name));
        send(Mcp::initialized() + '\n');
        return reply.value("result").toObject().contains("protocolVersion");
    }
    QLocalSocket &socket() { return m_socket; }

private:
    QLocalSocket m_socket;
    QByteArray m_buffer;
};
} // namespace

class TestLocalSocket : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_stack = std::make_unique<McpTestServer>();
        QVERIFY(m_stack->waitReady());
        m_transport = std::make_unique<LocalSocketTransport>(&m_stack->server, m_dir.filePath(QStringLiteral("duet")));
        QVERIFY2(m_transport->listen(), qPrintable(m_transport->errorString()));
    }
    void cleanupTestCase()
    {
        m_transport.reset();
        m_stack.reset();
    }

    void theSocketIsForItsUserOnly()
    {
        struct stat info {};
        QCOMPARE(::stat(QFile::encodeName(m_transport->path()).constData(), &info), 0);
        QVERIFY(S_ISSOCK(info.st_mode));
        QCOMPARE(info.st_mode & (S_IRWXG | S_IRWXO), mode_t(0));
    }

    void initializeAndEvaluate()
    {
        LineClient client(m_transport->path());
        QVERIFY(client.isConnected());
        QVERIFY(client.initialize(QStringLiteral("local")));
        const QJsonObject reply = client.call(Mcp::evaluate(2, QStringLiteral("(+ 1 2)")));
        QCOMPARE(reply.value("id").toInt(), 2);
        QCOMPARE(Mcp::resultText(reply), QStringLiteral("=> 3"));
    }

    void framingSurvivesSplitAndJoinedWrites()
    {
        LineClient client(m_transport->path());
        QVERIFY(client.initialize(QStringLiteral("framing")));
        const QByteArray ping = R"({"jsonrpc":"2.0","id":"p1","method":"ping"})";
        client.send(ping.left(10));
        QTest::qWait(50);
        client.send(ping.mid(10) + "\n" + R"({"jsonrpc":"2.0","id":"p2","method":"ping"})" + "\n\n");
        QCOMPARE(client.read().value("id").toString(), QStringLiteral("p1"));
        QCOMPARE(client.read().value("id").toString(), QStringLiteral("p2"));
        QCOMPARE(client.call("{oops").value("error").toObject().value("code").toInt(), -32700);
    }

    void aMessageOverTheCapIsDroppedWithAnErrorAndTheConnectionGoesOn()
    {
        LineClient client(m_transport->path());
        QVERIFY(client.initialize(QStringLiteral("oversize")));
        // 9 MB in pieces, then its newline and a ping: the same policy as stdio (LineBuffer).
        const QByteArray piece(1024 * 1024, 'x');
        client.send("{\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"ping\",\"params\":{\"pad\":\"");
        for (int i = 0; i < 9; ++i)
            client.send(piece);
        const QJsonObject error = client.read();
        QCOMPARE(error.value("error").toObject().value("code").toInt(), -32600);
        QVERIFY2(error.value("error").toObject().value("message").toString().startsWith(
                     QStringLiteral("Message larger than %1 bytes; it was discarded").arg(McpServer::MaxMessageBytes)),
                 qPrintable(QJsonDocument(error).toJson()));
        client.send("\"}}\n");
        QCOMPARE(client.call("{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"method\":\"ping\"}").value("id").toString(), QStringLiteral("after"));
        QVERIFY(client.isConnected());
    }

    void closingTheConnectionCancelsItsCall()
    {
        JobPtr running;
        const auto started = connect(&m_stack->session, &Session::started, this, [&](JobPtr e) { running = e; });
        auto client = std::make_unique<LineClient>(m_transport->path());
        QVERIFY(client->initialize(QStringLiteral("leaver")));
        client->send(Mcp::evaluate(3, QStringLiteral("(loop)")) + '\n');
        QVERIFY(QTest::qWaitFor([&] { return running != nullptr; }, 10000));
        disconnect(started);
        QElapsedTimer timer;
        qint64 stoppedAfter = -1;
        const auto finished = connect(&m_stack->session, &Session::finished, this, [&](JobPtr e) {
            if (e->id == running->id)
                stoppedAfter = timer.elapsed();
        });
        timer.start();
        client.reset(); // closes the socket
        QVERIFY(QTest::qWaitFor([&] { return stoppedAfter >= 0; }, 5000));
        disconnect(finished);
        qInfo("the (loop) stopped %lld ms after its client went away", stoppedAfter);
        QVERIFY(stoppedAfter < 2000);
        LineClient next(m_transport->path());
        QVERIFY(next.initialize(QStringLiteral("next")));
        QVERIFY(Mcp::resultText(next.call(Mcp::evaluate(4, QStringLiteral("(+ 40 2)")))).contains(QStringLiteral("42")));
    }

    void twoClientsSeeEachOthersWork()
    {
        LineClient a(m_transport->path()), b(m_transport->path());
        QVERIFY(a.initialize(QStringLiteral("ann")));
        QVERIFY(b.initialize(QStringLiteral("ben")));
        a.call(Mcp::evaluate(1, QStringLiteral("1")));
        b.call(Mcp::evaluate(1, QStringLiteral("1")));
        a.send(Mcp::evaluate(2, QStringLiteral("(defvar *ann* 1)")) + '\n');
        b.send(Mcp::evaluate(2, QStringLiteral("(defvar *ben* 2)")) + '\n');
        const QJsonObject ra = a.read(), rb = b.read();
        QCOMPARE(ra.value("id").toInt(), 2);
        QCOMPARE(rb.value("id").toInt(), 2);
        const QJsonObject ra2 = a.call(Mcp::evaluate(3, QStringLiteral("(list *ann* *ben*)")));
        const QJsonObject rb2 = b.call(Mcp::evaluate(3, QStringLiteral("(list *ann* *ben*)")));
        QVERIFY(Mcp::resultText(ra2).contains(QStringLiteral("(1 2)")));
        QVERIFY((Mcp::activityCodes(ra) + Mcp::activityCodes(ra2)).contains(QStringLiteral("(defvar *ben* 2)")));
        QVERIFY((Mcp::activityCodes(rb) + Mcp::activityCodes(rb2)).contains(QStringLiteral("(defvar *ann* 1)")));
    }

    void resourcesAreReadAndSubscribersHearOfUpdates()
    {
        LineClient client(m_transport->path());
        QVERIFY(client.initialize(QStringLiteral("reader")));
        const QJsonArray list = client.call(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})").value("result").toObject().value("resources").toArray();
        QCOMPARE(list.size(), 2);
        const QJsonObject subscribed = client.call(resourceRequest(2, "resources/subscribe", "lisp-duet://session/definitions"));
        QVERIFY(subscribed.value("result").isObject());
        client.send(Mcp::evaluate(3, QStringLiteral("(defun local-cube (x) (* x x x))")) + '\n');
        QJsonObject updated, response;
        for (int i = 0; i < 2; ++i) {
            const QJsonObject message = client.read();
            (message.contains("method") ? updated : response) = message;
        }
        QCOMPARE(updated.value("method").toString(), QStringLiteral("notifications/resources/updated"));
        QCOMPARE(updated.value("params").toObject().value("uri").toString(), QStringLiteral("lisp-duet://session/definitions"));
        QCOMPARE(response.value("id").toInt(), 3);
        const QString text = client.call(resourceRequest(4, "resources/read", "lisp-duet://session/definitions"))
                                 .value("result").toObject().value("contents").toArray().first().toObject().value("text").toString();
        QVERIFY2(text.contains(QStringLiteral("function LOCAL-CUBE (X)")), qPrintable(text)); // the image, from the engine
        QVERIFY2(text.contains(QStringLiteral(";; defun LOCAL-CUBE (by reader")), qPrintable(text)); // the source
        QVERIFY(text.contains(QStringLiteral("(defun local-cube (x) (* x x x))")));
        const QJsonObject missing = client.call(resourceRequest(5, "resources/read", "lisp-duet://nope"));
        QCOMPARE(missing.value("error").toObject().value("code").toInt(), -32002);
    }

    void aLiveSocketIsNotTakenOver()
    {
        LocalSocketTransport second(&m_stack->server, m_transport->path());
        QVERIFY(!second.listen());
        QVERIFY(second.errorString().contains(m_transport->path()));
        LineClient stillServed(m_transport->path());
        QVERIFY(stillServed.initialize(QStringLiteral("still")));
    }

    void aStaleSocketFileIsReplaced()
    {
        // A socket file nobody listens on, as a crashed run leaves behind.
        const QString path = m_dir.filePath(QStringLiteral("stale"));
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un address {};
        address.sun_family = AF_UNIX;
        qstrncpy(address.sun_path, QFile::encodeName(path).constData(), sizeof address.sun_path);
        QCOMPARE(::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        ::close(fd);
        QVERIFY(QFileInfo::exists(path));
        LocalSocketTransport transport(&m_stack->server, path);
        QVERIFY2(transport.listen(), qPrintable(transport.errorString()));
        LineClient client(path);
        QVERIFY(client.initialize(QStringLiteral("after-stale")));
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<McpTestServer> m_stack;
    std::unique_ptr<LocalSocketTransport> m_transport;
};

QTEST_GUILESS_MAIN(TestLocalSocket)
#include "tst_localsocket.moc"

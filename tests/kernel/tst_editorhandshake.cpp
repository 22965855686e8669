// The person's Swank port under attack (issue 41): a first message that cannot be the secret
// is refused from its six-byte header, before it is read (16 MiB announced costs nothing);
// a client that is not Swank is refused with its bytes escaped; refusals reach the host at
// most five a minute; the secret is the first line of the file exactly as SLIME sends it;
// a flood of silent clients holds no more than 32 threads; and the listening socket the host
// holds (passed to each engine) never closes while engines come and go, so a squatter (a
// second local user when the machine allows) never gets the port, and a client that connects
// in the gap is served by the next engine.

#include "../common/EditorHost.h"
#include "../common/OtherUser.h"
#include "../common/ResidentMemory.h"
#include "../common/TestFiles.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTcpServer>
#include <QTest>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>

class TestEditorHandshake : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EditorHost> m_host;

    QStringList refusals() const
    {
        QStringList reasons;
        for (const QJsonObject &event : std::as_const(m_host->events))
            if (event.value(QStringLiteral("event")).toString() == QLatin1String("editor-refused"))
                reasons << event.value(QStringLiteral("reason")).toString();
        return reasons;
    }

    bool listen(const QByteArray &secretFileBytes)
    {
        if (!TestFiles::write(m_host->secretFile, secretFileBytes)
            || !QFile::setPermissions(m_host->secretFile, QFile::ReadOwner | QFile::WriteOwner))
            return false;
        const JobPtr listening = m_host->listen();
        return listening && listening->result.ok();
    }

    // A listening socket on 127.0.0.1 that every engine started from now on inherits (no
    // close-on-exec), as the host holds the Swank port for its engines.
    static int inheritedListener(quint16 *port)
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 || ::listen(fd, 16) != 0
            || ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0)
            return -1;
        *port = ntohs(address.sin_port);
        return fd;
    }

    bool newEngine(const QString &why)
    {
        const qint64 old = m_host->lisp.engine.pid();
        m_host->lisp.session.reset(Origin::person(), why);
        return QTest::qWaitFor([&] { return m_host->lisp.engine.pid() != old && m_host->lisp.session.isEngineReady(); }, 30000);
    }

    bool listenOn(int fd)
    {
        bool answered = false, ok = false;
        m_host->lisp.session.query({QStringLiteral("editor-listen"), {{QStringLiteral("port"), 0}, {QStringLiteral("fd"), fd},
                                                                        {QStringLiteral("secret_file"), m_host->secretFile}}},
                                   [&](const QJsonObject &reply) {
                                       ok = EngineProtocol::Reply(reply).ok();
                                       if (!ok)
                                           qWarning() << "editor-listen:" << reply;
                                       answered = true;
                                   });
        return QTest::qWaitFor([&] { return answered; }, 60000) && ok;
    }

private Q_SLOTS:
    void init()
    {
        DUET_START_EDITOR_HOST(m_host);
    }
    void cleanup() { m_host.reset(); }

    void aFirstMessageLongerThanTheSecretIsRefusedFromItsHeader()
    {
        const qint64 before = residentKiB(m_host->lisp.engine.pid());
        QElapsedTimer clock;
        clock.start();
        QList<std::shared_ptr<SwankClient>> clients;
        for (int i = 0; i < 8; ++i) {
            auto client = std::make_shared<SwankClient>();
            QVERIFY(client->connectTo(m_host->port));
            client->sendRaw("ffffff" + QByteArray(64 * 1024, 'a')); // announces 16 MiB, sends 64 KiB
            clients << client;
        }
        for (const auto &client : std::as_const(clients))
            QVERIFY(client->waitClosed(5000));
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(QTest::qWaitFor([&] { return !refusals().isEmpty(); }, 5000));
        QVERIFY2(refusals().first().startsWith(QLatin1String("Its first message (16777215 bytes) is not the secret")),
                 qPrintable(refusals().first()));
        // Nothing of it was kept: the engine's memory did not grow by the 128 MiB announced.
        const qint64 after = residentKiB(m_host->lisp.engine.pid());
        QVERIFY2(after - before < 32 * 1024, qPrintable(QStringLiteral("%1 KiB -> %2 KiB").arg(before).arg(after)));
        QCOMPARE(m_host->lisp.result(QStringLiteral("(+ 1 2)")).values, QStringList{QStringLiteral("3")});
    }

    void aClientThatIsNotSwankIsRefusedWithItsBytesEscaped()
    {
        SwankClient http;
        QVERIFY(http.connectTo(m_host->port));
        http.sendRaw("\x1b[31mGET / HTTP/1.1\r\n\r\n");
        QVERIFY(http.waitClosed());
        QVERIFY(QTest::qWaitFor([&] { return !refusals().isEmpty(); }, 5000));
        const QString reason = refusals().first();
        QVERIFY2(reason.contains(QLatin1String("\"\\x1b[31mG\"")), qPrintable(reason));
        for (const QChar c : reason)
            QVERIFY2(c.unicode() >= 0x20, qPrintable(reason));
    }

    void refusalsReachTheHostAtMostFiveAMinute()
    {
        for (int i = 0; i < 30; ++i) {
            SwankClient probe;
            QVERIFY(probe.connectTo(m_host->port));
            probe.sendRaw("000003abc");
            QVERIFY(probe.waitClosed());
        }
        QTest::qWait(500);
        const QStringList told = refusals();
        QCOMPARE(told.size(), 5);
        QVERIFY2(told.last().endsWith(QLatin1String("(Further refusals this minute are counted, not shown one by one.)")), qPrintable(told.last()));
        // The person's own editor still gets in.
        SwankClient editor;
        QVERIFY(m_host->connect(editor));
        const int id = editor.rex(QStringLiteral("(swank:connection-info)"));
        QVERIFY(!editor.waitReturn(id).isEmpty());
    }

    void theSecretIsTheFirstLineAsSlimeSendsIt()
    {
        // Spaces are part of it (SLIME sends the line as it is); a CRLF line end is not.
        QVERIFY(m_host->runOp(EngineProtocol::editorClose()));
        QVERIFY(listen("  spaced secret  \r\nsecond line\n"));
        SwankClient trimmed;
        QVERIFY(trimmed.connectWithSecret(m_host->port, QStringLiteral("spaced secret")));
        QVERIFY(trimmed.waitClosed());
        SwankClient exact;
        QVERIFY(exact.connectWithSecret(m_host->port, QStringLiteral("  spaced secret  ")));
        const int id = exact.rex(QStringLiteral("(swank:connection-info)"));
        QVERIFY(!exact.waitReturn(id).isEmpty());
        QCOMPARE(refusals().size(), 1);
    }

    void aFloodOfSilentClientsHoldsAtMostThirtyTwoThreads()
    {
        QList<std::shared_ptr<SwankClient>> silent;
        for (int i = 0; i < 40; ++i) {
            auto client = std::make_shared<SwankClient>();
            QVERIFY(client->connectTo(m_host->port));
            silent << client;
        }
        // Those past the 32nd are closed at once; the others when their 10 s are up.
        QVERIFY(QTest::qWaitFor([&] {
            return std::count_if(silent.cbegin(), silent.cend(), [](const auto &c) {
                       return c->socket.state() == QAbstractSocket::UnconnectedState;
                   }) >= 8;
        }, 5000));
        QVERIFY(QTest::qWaitFor([&] {
            return std::all_of(silent.cbegin(), silent.cend(), [](const auto &c) {
                return c->socket.state() == QAbstractSocket::UnconnectedState;
            });
        }, 20000));
        SwankClient editor;
        QVERIFY(m_host->connect(editor));
        const int id = editor.rex(QStringLiteral("(swank:connection-info)"));
        QVERIFY(!editor.waitReturn(id).isEmpty());
    }

    void aPortAnotherProgramHoldsIsNamedWithTheDanger()
    {
        QTcpServer squatter;
        QVERIFY(squatter.listen(QHostAddress::LocalHost));
        QVERIFY(m_host->runOp(EngineProtocol::editorClose()));
        const JobPtr refused = m_host->listen(squatter.serverPort());
        QVERIFY(refused);
        QCOMPARE(refused->result.error.type, QStringLiteral("EDITOR-PORT"));
        const QString message = refused->result.error.message;
        QVERIFY2(message.startsWith(QStringLiteral("Another program already listens on 127.0.0.1:%1 (%2, process %3)")
                                        .arg(squatter.serverPort())
                                        .arg(QFileInfo(QCoreApplication::applicationFilePath()).fileName().left(15))
                                        .arg(QCoreApplication::applicationPid())),
                 qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("it would send that program your ~/.slime-secret")), qPrintable(message));
    }

    void thePortTheHostHoldsNeverClosesWhileEnginesComeAndGo()
    {
        quint16 port = 0;
        const int fd = inheritedListener(&port);
        QVERIFY(fd >= 0);
        // A new engine inherits the socket: the test's host restarts it.
        QVERIFY(newEngine(QStringLiteral("a new engine for the inherited port")));
        QVERIFY(listenOn(fd));
        m_host->port = port;
        SwankClient first;
        QVERIFY(m_host->connect(first));
        const int id = first.rex(QStringLiteral("(swank:connection-info)"));
        QVERIFY(!first.waitReturn(id).isEmpty());

        // A squatter tries to bind the port every millisecond while the engine restarts:
        // another local user where the machine allows, else this user.
        QString why;
        const std::optional<OtherUser> other = OtherUser::get(&why);
        if (!other)
            qInfo().noquote() << "the squatter runs as this user:" << why;
        const pid_t squatter = ::fork();
        if (squatter == 0) {
            if (other && (::setgid(other->gid) != 0 || ::setuid(other->uid) != 0))
                ::_exit(3);
            sockaddr_in address{};
            address.sin_family = AF_INET;
            address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            address.sin_port = htons(port);
            for (int i = 0; i < 20000; ++i) { // about 20 s, or until killed
                const int s = ::socket(AF_INET, SOCK_STREAM, 0);
                const int one = 1;
                ::setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
                if (::bind(s, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 && ::listen(s, 1) == 0)
                    ::_exit(1); // the port was ours to take
                ::close(s);
                ::usleep(1000);
            }
            ::_exit(0);
        }
        QVERIFY(squatter > 0);
        // The engine goes (a reset, as after a crash or a time limit), a client connects in
        // the gap: the port is the host's all along, the client waits in its backlog.
        const qint64 oldEngine = m_host->lisp.engine.pid();
        m_host->lisp.session.reset(Origin::person(), QStringLiteral("the squatter test"));
        QVERIFY(QTest::qWaitFor([&] { return m_host->lisp.engine.pid() != oldEngine; }, 30000));
        SwankClient inTheGap;
        QVERIFY(inTheGap.connectWithSecret(port, m_host->secret));
        QVERIFY(QTest::qWaitFor([&] { return m_host->lisp.session.isEngineReady(); }, 30000));
        QVERIFY(listenOn(fd));
        const int late = inTheGap.rex(QStringLiteral("(swank:connection-info)"));
        QVERIFY2(!inTheGap.waitReturn(late).isEmpty(), "the client that connected in the gap is served by the new engine");
        ::kill(squatter, SIGTERM);
        int status = 0;
        QCOMPARE(::waitpid(squatter, &status, 0), squatter);
        QVERIFY2(!(WIFEXITED(status) && WEXITSTATUS(status) == 1), "the squatter bound the Swank port");
        QVERIFY2(!(WIFEXITED(status) && WEXITSTATUS(status) == 3), "the squatter could not become the other user");
        ::close(fd);
    }
};

QTEST_MAIN(TestEditorHandshake)
#include "tst_editorhandshake.moc"

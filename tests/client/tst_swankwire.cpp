// The person's Swank port below Swank (engine/swankwire, issue 41): the secret's line as SLIME
// reads it, the verdict on what a client sent so far (refused from the header when it cannot
// be the secret, never asking past the secret's message), escaping for logs; the listening
// socket the host holds (close-on-exec, not shared: a second listener is refused with the
// holder named). The engine's handshake over a real socket is tests/kernel/tst_editorhandshake.

#include "swankwire/SocketOwner.h"
#include "swankwire/SwankHandshake.h"
#include "swankwire/SwankListener.h"

#include <QTcpSocket>
#include <QTest>

#include <fcntl.h>

using SwankHandshake::Verdict;

class TestSwankWire : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theSecretIsTheFirstLineAsSlimeReadsIt_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QByteArray>("secret");
        QTest::newRow("one line") << QByteArray("abc123\n") << QByteArray("abc123");
        QTest::newRow("no line end") << QByteArray("abc123") << QByteArray("abc123");
        QTest::newRow("spaces kept") << QByteArray("  abc 123 \n") << QByteArray("  abc 123 ");
        QTest::newRow("CRLF") << QByteArray("abc123\r\nmore\r\n") << QByteArray("abc123");
        QTest::newRow("lone CR kept") << QByteArray("abc\r123\n") << QByteArray("abc\r123");
        QTest::newRow("second line ignored") << QByteArray("first\nsecond\n") << QByteArray("first");
        QTest::newRow("empty") << QByteArray("\nsecond\n") << QByteArray();
        QTest::newRow("UTF-8 bytes") << QByteArray("s\xc3\xa9kr\xc3\xa9t\n") << QByteArray("s\xc3\xa9kr\xc3\xa9t");
    }
    void theSecretIsTheFirstLineAsSlimeReadsIt()
    {
        QFETCH(QByteArray, file);
        QFETCH(QByteArray, secret);
        QCOMPARE(SwankHandshake::secretLine(file), secret);
    }

    void theVerdictComesAsSoonAsTheBytesTell()
    {
        const QByteArray secret = "lisp-duet-test-secret-4711";
        const QByteArray message = QByteArray::number(secret.size(), 16).rightJustified(6, '0') + secret;
        // Byte by byte, it asks exactly for what the secret's message still needs.
        for (qsizetype n = 0; n < message.size(); ++n) {
            const Verdict verdict = SwankHandshake::judge(message.left(n), secret);
            QCOMPARE(verdict.kind, Verdict::Kind::NeedMore);
            QVERIFY(n + verdict.needed <= message.size());
        }
        QCOMPARE(SwankHandshake::judge(message, secret).kind, Verdict::Kind::Accept);
        // What follows the secret is Swank's: never asked for, ignored if present.
        QCOMPARE(SwankHandshake::judge(message + "000010(:emacs-rex", secret).kind, Verdict::Kind::Accept);
        // Uppercase hexadecimal digits are digits too.
        QByteArray upper = QByteArray("00001A") + secret;
        QCOMPARE(SwankHandshake::judge(upper, secret).kind, Verdict::Kind::Accept);
    }

    void whatCannotBeTheSecretIsRefusedFromTheHeader()
    {
        const QByteArray secret = "lisp-duet-test-secret-4711";
        const Verdict huge = SwankHandshake::judge("ffffff", secret);
        QCOMPARE(huge.kind, Verdict::Kind::Refuse);
        QVERIFY2(huge.reason.startsWith(QLatin1String("Its first message (16777215 bytes) is not the secret")), qPrintable(huge.reason));
        QCOMPARE(SwankHandshake::judge("000003", secret).kind, Verdict::Kind::Refuse);
        // A non-digit ends it at once, even in the first byte.
        const Verdict http = SwankHandshake::judge("G", secret);
        QCOMPARE(http.kind, Verdict::Kind::Refuse);
        QVERIFY2(http.reason.contains(QLatin1String("\"G\"")), qPrintable(http.reason));
        QCOMPARE(SwankHandshake::judge("00 01a", secret).kind, Verdict::Kind::Refuse);
        // The right length with other bytes: a wrong secret.
        const Verdict wrong = SwankHandshake::judge("00001a" + QByteArray(26, 'x'), secret);
        QCOMPARE(wrong.kind, Verdict::Kind::Refuse);
        QCOMPARE(wrong.reason, QStringLiteral("It sent a wrong secret (not the first line of ~/.slime-secret)."));
    }

    void theHostsListenerHoldsThePortAlone()
    {
        SwankListener held;
        QString problem;
        QVERIFY2(held.open(0, &problem), qPrintable(problem));
        QVERIFY(held.port() > 0);
        QVERIFY(::fcntl(held.descriptor(), F_GETFD) & FD_CLOEXEC); // only the engine gets it (EngineClient)
        QTcpSocket client;
        client.connectToHost(QStringLiteral("127.0.0.1"), quint16(held.port()));
        QVERIFY(client.waitForConnected(5000)); // waits in the backlog until an engine accepts
        // Nobody else gets it, and the message says who holds it and what connecting would cost.
        SwankListener second;
        QVERIFY(!second.open(held.port(), &problem));
        // (The holder is this very process, which SocketOwner does not name; the engine's test
        // names a holder: tst_editorhandshake::aPortAnotherProgramHoldsIsNamedWithTheDanger.)
        QVERIFY2(problem.startsWith(QStringLiteral("Another program already listens on 127.0.0.1:%1 ").arg(held.port())), qPrintable(problem));
        QVERIFY(problem.contains(QLatin1String("it would send that program your ~/.slime-secret")));
        const int port = held.port();
        held.close();
        QVERIFY(!held.isOpen());
        QVERIFY2(second.open(port, &problem), qPrintable(problem));
    }

    void logsGetNoControlCharacters()
    {
        QCOMPARE(SwankHandshake::escaped("\x1b[31mred\\\x7f\n\xc3\xa9"), QStringLiteral("\\x1b[31mred\\x5c\\x7f\\x0a\\xc3\\xa9"));
        QCOMPARE(SwankHandshake::printable(QStringLiteral("caf\u00e9 \x1b[2J\u0085ok\n")), QStringLiteral("caf\u00e9 \\x1b[2J\\x85ok\\x0a"));
        const Verdict escape = SwankHandshake::judge("\x1b]0;", "secret");
        for (const QChar c : escape.reason)
            QVERIFY(c.unicode() >= 0x20 && c.unicode() < 0x7f);
    }
};

QTEST_MAIN(TestSwankWire)
#include "tst_swankwire.moc"

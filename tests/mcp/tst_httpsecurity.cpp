// The HTTP transport's checks, one rule per row: Host (DNS rebinding), Origin, the bearer
// token and Accept.

#include "transports/HttpSecurity.h"

#include <QTest>

class TestHttpSecurity : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void acceptsOnlyHostsThatNameThisServer_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<bool>("anyIp");
        QTest::addColumn<bool>("allowed");
        const QStringList none;
        QTest::newRow("127.0.0.1:7878") << QByteArray("127.0.0.1:7878") << none << false << true;
        QTest::newRow("localhost:7878") << QByteArray("localhost:7878") << none << false << true;
        QTest::newRow("LOCALHOST:7878") << QByteArray("LOCALHOST:7878") << none << false << true;
        QTest::newRow("[::1]:7878") << QByteArray("[::1]:7878") << none << false << true;
        QTest::newRow("other port") << QByteArray("127.0.0.1:7879") << none << false << false;
        QTest::newRow("no port (80)") << QByteArray("localhost") << none << false << false;
        QTest::newRow("evil name") << QByteArray("evil.example.com") << none << false << false;
        QTest::newRow("evil name, our port") << QByteArray("evil.example.com:7878") << none << false << false;
        QTest::newRow("localhost as a subdomain") << QByteArray("localhost.evil.example.com:7878") << none << false << false;
        QTest::newRow("empty") << QByteArray() << none << false << false;
        QTest::newRow("port not a number") << QByteArray("localhost:78x8") << none << false << false;
        QTest::newRow("unclosed bracket") << QByteArray("[::1:7878") << none << false << false;
        QTest::newRow("--listen address") << QByteArray("192.168.1.5:7878") << QStringList{"192.168.1.5"} << false << true;
        QTest::newRow("--listen v6 address") << QByteArray("[fe80::1]:7878") << QStringList{"fe80::1"} << false << true;
        QTest::newRow("any address: an IP") << QByteArray("10.0.0.7:7878") << none << true << true;
        QTest::newRow("any address: a name") << QByteArray("evil.example.com:7878") << none << true << false;
    }
    void acceptsOnlyHostsThatNameThisServer()
    {
        QFETCH(QByteArray, host);
        QFETCH(QStringList, extra);
        QFETCH(bool, anyIp);
        QFETCH(bool, allowed);
        QCOMPARE(HttpSecurity::isAllowedHost(host, 7878, extra, anyIp), allowed);
    }

    void acceptsOnlyLocalOrigins_data()
    {
        QTest::addColumn<QByteArray>("origin");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("http://localhost:6274") << QByteArray("http://localhost:6274") << true;
        QTest::newRow("https://127.0.0.1") << QByteArray("https://127.0.0.1") << true;
        QTest::newRow("http://[::1]:3000") << QByteArray("http://[::1]:3000") << true;
        QTest::newRow("foreign site") << QByteArray("https://evil.example.com") << false;
        QTest::newRow("localhost lookalike") << QByteArray("http://localhost.evil.example.com") << false;
        QTest::newRow("null (sandboxed page, file:)") << QByteArray("null") << false;
        QTest::newRow("file scheme") << QByteArray("file://localhost") << false;
        QTest::newRow("with userinfo") << QByteArray("http://evil@localhost") << false;
        QTest::newRow("with a path") << QByteArray("http://localhost/x") << false;
        QTest::newRow("garbage") << QByteArray("::::") << false;
    }
    void acceptsOnlyLocalOrigins()
    {
        QFETCH(QByteArray, origin);
        QFETCH(bool, allowed);
        QCOMPARE(HttpSecurity::isAllowedOrigin(origin), allowed);
    }

    void checksTheBearerToken_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<bool>("authorized");
        QTest::newRow("right") << QByteArray("Bearer s3cret-token") << true;
        QTest::newRow("scheme in any case") << QByteArray("bearer s3cret-token") << true;
        QTest::newRow("wrong") << QByteArray("Bearer s3cret-tokeN") << false;
        QTest::newRow("prefix") << QByteArray("Bearer s3cret") << false;
        QTest::newRow("longer") << QByteArray("Bearer s3cret-token-and-more") << false;
        QTest::newRow("no scheme") << QByteArray("s3cret-token") << false;
        QTest::newRow("basic") << QByteArray("Basic s3cret-token") << false;
        QTest::newRow("empty") << QByteArray() << false;
    }
    void checksTheBearerToken()
    {
        QFETCH(QByteArray, header);
        QFETCH(bool, authorized);
        QCOMPARE(HttpSecurity::isAuthorized(header, "s3cret-token"), authorized);
        QVERIFY(!HttpSecurity::isAuthorized(header, QByteArray())); // no token configured: nobody
    }

    void readsAccept_data()
    {
        QTest::addColumn<QByteArray>("accept");
        QTest::addColumn<bool>("json");
        QTest::addColumn<bool>("events");
        QTest::newRow("both") << QByteArray("application/json, text/event-stream") << true << true;
        QTest::newRow("absent") << QByteArray() << true << true;
        QTest::newRow("*/*") << QByteArray("*/*") << true << true;
        QTest::newRow("json only") << QByteArray("application/json") << true << false;
        QTest::newRow("events only, with q") << QByteArray("text/event-stream;q=0.9") << false << true;
        QTest::newRow("json refused with q=0") << QByteArray("application/json;q=0, text/*") << false << true;
        QTest::newRow("html") << QByteArray("text/html") << false << false;
        QTest::newRow("case") << QByteArray("Application/JSON") << true << false;
    }
    void readsAccept()
    {
        QFETCH(QByteArray, accept);
        QFETCH(bool, json);
        QFETCH(bool, events);
        const HttpSecurity::Acceptance result = HttpSecurity::parseAccept(accept);
        QCOMPARE(result.json, json);
        QCOMPARE(result.eventStream, events);
    }
};

QTEST_GUILESS_MAIN(TestHttpSecurity)
#include "tst_httpsecurity.moc"

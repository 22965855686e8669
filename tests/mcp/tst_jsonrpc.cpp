// JSON-RPC 2.0 as MCP uses it (mcp/jsonrpc/JsonRpc), on its own: which ids are ids, how they are keyed
// and echoed, the shapes of answers, and what Message::parse makes of a client's bytes.

#include "jsonrpc/JsonRpc.h"
#include "server/RequestEnvelope.h" // MCP's progress token, read from a message's params

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

Q_DECLARE_METATYPE(JsonRpc::Message::Kind)

class TestJsonRpc : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void idsAreStringsOrIntegersADoubleHoldsExactly_data()
    {
        QTest::addColumn<QJsonValue>("id");
        QTest::addColumn<bool>("valid");
        QTest::newRow("a string") << QJsonValue("abc") << true;
        QTest::newRow("an empty string") << QJsonValue("") << true;
        QTest::newRow("zero") << QJsonValue(0) << true;
        QTest::newRow("a negative integer") << QJsonValue(-7) << true;
        QTest::newRow("2^53") << QJsonValue(9007199254740992.0) << true;
        QTest::newRow("beyond 2^53") << QJsonValue(9007199254740994.0) << false;
        QTest::newRow("7e60 (the fuzzer's)") << QJsonValue(7e60) << false;
        QTest::newRow("a fraction") << QJsonValue(1.5) << false;
        QTest::newRow("null") << QJsonValue(QJsonValue::Null) << false;
        QTest::newRow("a boolean") << QJsonValue(true) << false;
        QTest::newRow("an object") << QJsonValue(QJsonObject{}) << false;
        QTest::newRow("an array") << QJsonValue(QJsonArray{1}) << false;
        QTest::newRow("nothing") << QJsonValue(QJsonValue::Undefined) << false;
    }
    void idsAreStringsOrIntegersADoubleHoldsExactly()
    {
        QFETCH(QJsonValue, id);
        QFETCH(bool, valid);
        QCOMPARE(JsonRpc::isValidId(id), valid);
    }

    void theStringFortyTwoAndTheNumberFortyTwoAreDifferentRequests()
    {
        QCOMPARE(JsonRpc::idKey(QJsonValue("42")), QStringLiteral("s:42"));
        QCOMPARE(JsonRpc::idKey(QJsonValue(42)), QStringLiteral("n:42"));
        QVERIFY(JsonRpc::idKey(QJsonValue("42")) != JsonRpc::idKey(QJsonValue(42)));
        QCOMPARE(JsonRpc::idKey(QJsonValue(42.0)), JsonRpc::idKey(QJsonValue(42)));
    }

    void answersEchoTheIdExactly()
    {
        const QJsonObject result = JsonRpc::response(QJsonValue("r-1"), QJsonObject{{"ok", true}});
        QCOMPARE(result, (QJsonObject{{"jsonrpc", "2.0"}, {"id", "r-1"}, {"result", QJsonObject{{"ok", true}}}}));
        const QJsonObject error = JsonRpc::error(QJsonValue(7), JsonRpc::InvalidParams, "bad", QJsonObject{{"hint", "x"}});
        QCOMPARE(error, (QJsonObject{{"jsonrpc", "2.0"}, {"id", 7},
                                     {"error", QJsonObject{{"code", -32602}, {"message", "bad"}, {"data", QJsonObject{{"hint", "x"}}}}}}));
    }

    void anErrorWithoutAnIdSaysNullAndDataIsLeftOutWhenThereIsNone()
    {
        const QJsonObject error = JsonRpc::error(QJsonValue(QJsonValue::Undefined), JsonRpc::ParseError, "no");
        QVERIFY(error.contains("id"));
        QVERIFY(error.value("id").isNull());
        QVERIFY(!error.value("error").toObject().contains("data"));
        QVERIFY(!JsonRpc::error(QJsonValue(1), JsonRpc::InternalError, "x", QJsonValue()).value("error").toObject().contains("data"));
    }

    void aNotificationHasNoIdAndNoEmptyParams()
    {
        QCOMPARE(JsonRpc::notification("notifications/initialized"), (QJsonObject{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}));
        QCOMPARE(JsonRpc::notification("m", {{"a", 1}}).value("params").toObject(), (QJsonObject{{"a", 1}}));
    }

    void parseSaysWhatAMessageIsAndWhatItsRefusalIs_data()
    {
        using Kind = JsonRpc::Message::Kind;
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<QJsonValue>("id");
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("code");        // the refusal's, 0 when none
        QTest::addColumn<QString>("message"); // a part of the refusal's message
        QTest::newRow("a request") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"ping"})") << Kind::Request << QJsonValue(1) << "ping" << 0 << "";
        QTest::newRow("a notification") << QByteArray(R"({"jsonrpc":"2.0","method":"n"})") << Kind::Notification
                                        << QJsonValue(QJsonValue::Undefined) << "n" << 0 << "";
        QTest::newRow("a result") << QByteArray(R"({"jsonrpc":"2.0","id":"s","result":{}})") << Kind::Response << QJsonValue("s") << "" << 0 << "";
        QTest::newRow("an error answer") << QByteArray(R"({"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"m"}})") << Kind::Response
                                         << QJsonValue(3) << "" << 0 << "";
        QTest::newRow("a batch") << QByteArray(R"([{"jsonrpc":"2.0","method":"n"}])") << Kind::Batch << QJsonValue(QJsonValue::Undefined)
                                 << "" << 0 << "";
        QTest::newRow("an empty batch") << QByteArray("[]") << Kind::Invalid << QJsonValue(QJsonValue::Null) << "" << -32600 << "Empty batch";
        QTest::newRow("not JSON") << QByteArray("{\"jsonrpc\":") << Kind::Invalid << QJsonValue(QJsonValue::Null) << "" << -32700
                                  << "Parse error: ";
        QTest::newRow("a lone string is JSON, not a message") << QByteArray("\"hello\"") << Kind::Invalid << QJsonValue(QJsonValue::Null)
                                                              << "" << -32600 << "must be an object";
        QTest::newRow("jsonrpc 1.0, id echoed") << QByteArray(R"({"jsonrpc":"1.0","id":5,"method":"ping"})") << Kind::Invalid << QJsonValue(5)
                                               << "" << -32600 << "\"jsonrpc\" must be \"2.0\"";
        QTest::newRow("no method") << QByteArray(R"({"jsonrpc":"2.0","id":6})") << Kind::Invalid << QJsonValue(6) << "" << -32600
                                   << "\"method\" must be a string";
        QTest::newRow("a number as method") << QByteArray(R"({"jsonrpc":"2.0","id":6,"method":7})") << Kind::Invalid << QJsonValue(6) << ""
                                            << -32600 << "\"method\" must be a string";
        QTest::newRow("a fractional id, not echoed") << QByteArray(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})") << Kind::Invalid
                                                     << QJsonValue(QJsonValue::Null) << "" << -32600 << "\"id\" must be a string or an integer";
        QTest::newRow("a null id") << QByteArray(R"({"jsonrpc":"2.0","id":null,"method":"ping"})") << Kind::Invalid
                                   << QJsonValue(QJsonValue::Null) << "" << -32600 << "\"id\" must be";
    }
    void parseSaysWhatAMessageIsAndWhatItsRefusalIs()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(JsonRpc::Message::Kind, kind);
        QFETCH(QJsonValue, id);
        QFETCH(QString, method);
        QFETCH(int, code);
        QFETCH(QString, message);
        const JsonRpc::Message parsed = JsonRpc::Message::parse(bytes);
        QCOMPARE(parsed.kind(), kind);
        QCOMPARE(parsed.id(), id);
        QCOMPARE(parsed.method(), method);
        const QJsonObject error = parsed.refusal().value("error").toObject();
        QCOMPARE(error.value("code").toInt(), code);
        QVERIFY2(error.value("message").toString().contains(message), qPrintable(error.value("message").toString()));
        if (code != 0)
            QCOMPARE(parsed.refusal().value("id"), id); // the refusal echoes what it can
    }

    void aParseErrorSaysWhere()
    {
        const JsonRpc::Message parsed = JsonRpc::Message::parse("{\"a\": tru}");
        QVERIFY(parsed.refusal().value("error").toObject().value("message").toString().contains(QStringLiteral("at offset")));
    }

    void aBatchKeepsEachElementAndRefusesTheOnesThatAreNotMessages()
    {
        const JsonRpc::Message batch = JsonRpc::Message::parse(R"([{"jsonrpc":"2.0","id":1,"method":"a"}, 3, {"jsonrpc":"2.0","method":"b"}])");
        QCOMPARE(batch.kind(), JsonRpc::Message::Kind::Batch);
        QCOMPARE(batch.batch().size(), 3);
        QCOMPARE(batch.batch().at(0).kind(), JsonRpc::Message::Kind::Request);
        QCOMPARE(batch.batch().at(1).kind(), JsonRpc::Message::Kind::Invalid);
        QCOMPARE(batch.batch().at(1).refusal().value("error").toObject().value("code").toInt(), int(JsonRpc::InvalidRequest));
        QCOMPARE(batch.batch().at(2).method(), QStringLiteral("b"));
    }

    void theProgressTokenIsAStringOrANumberUnderMeta_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QJsonValue>("token");
        QTest::newRow("a number") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"progressToken":9}}})") << QJsonValue(9);
        QTest::newRow("a string") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"progressToken":"t"}}})")
                                  << QJsonValue("t");
        QTest::newRow("an object is none") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"progressToken":{}}}})")
                                           << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("no _meta") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"m","params":{}})") << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("params an array") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"m","params":[1]})") << QJsonValue(QJsonValue::Undefined);
    }
    void theProgressTokenIsAStringOrANumberUnderMeta()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QJsonValue, token);
        QCOMPARE(RequestEnvelope::progressToken(JsonRpc::Message::parse(bytes).params()), token);
    }

    void aMessageKeepsWhatTheClientSent()
    {
        const QJsonObject sent{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", QJsonObject{{"name", "x"}}}, {"extra", 1}};
        const JsonRpc::Message message = JsonRpc::Message::fromObject(sent);
        QCOMPARE(message.object(), sent);
        QCOMPARE(message.params().toObject().value("name").toString(), QStringLiteral("x"));
    }
};

QTEST_GUILESS_MAIN(TestJsonRpc)
#include "tst_jsonrpc.moc"

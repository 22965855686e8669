// JsonTextWriter: compact JSON text that QJsonDocument reads back as the same value, for
// every kind of string and number an answer can hold.
#include "json/JsonTextWriter.h"

#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

#include <cmath>
#include <limits>

namespace {
QJsonValue readBack(const QByteArray &text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson("[" + text + "]", &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON (%s): %s", qPrintable(error.errorString()), text.left(200).constData());
    return document.array().first();
}
} // namespace

class TestJsonTextWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void writesFieldByFieldWithCommasInTheirPlaces()
    {
        JsonTextWriter json;
        json.beginObject()
            .key("id").value(7)
            .key("op").value(u"eval")
            .key("empty").beginArray().endArray()
            .key("list").strings({QStringLiteral("a"), QStringLiteral("b")})
            .key("nested").beginObject().key("yes").value(true).key("no").value(false).key("none").null().endObject()
            .key("raw").raw("{\"x\":1}")
            .endObject();
        QCOMPARE(json.text(), QByteArray("{\"id\":7,\"op\":\"eval\",\"empty\":[],\"list\":[\"a\",\"b\"],\"nested\":{\"yes\":true,\"no\":false,\"none\":null},\"raw\":{\"x\":1}}"));
    }

    void anObjectsMembersGoIntoTheOpenObjectWithMoreAfterThem()
    {
        JsonTextWriter json;
        json.beginObject().members(R"( {"status":"ok","values":[1,{"a":2}]} )").key("more").value(true).endObject();
        QCOMPARE(json.text(), QByteArray(R"({"status":"ok","values":[1,{"a":2}],"more":true})"));
        JsonTextWriter empty;
        empty.beginObject().members("{}").key("more").value(1).members("{ }").endObject();
        QCOMPARE(empty.text(), QByteArray(R"({"more":1})"));
        QVERIFY(!QJsonDocument::fromJson(json.text()).isNull());
    }

    void stringsAreEscapedAsJsonSays_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("plain") << QStringLiteral("=> 3") << QByteArray("\"=> 3\"");
        QTest::newRow("quote and backslash") << QStringLiteral("a\"b\\c") << QByteArray("\"a\\\"b\\\\c\"");
        QTest::newRow("named controls") << QStringLiteral("\n\r\t\b\f") << QByteArray("\"\\n\\r\\t\\b\\f\"");
        QTest::newRow("other controls") << QString(QChar(0)) + QChar(0x1f) << QByteArray("\"\\u0000\\u001f\"");
        QTest::newRow("slash and delete stay") << QStringLiteral("/\x7f") << QByteArray("\"/\x7f\"");
        QTest::newRow("two-byte UTF-8") << QStringLiteral("é") << QByteArray("\"\xc3\xa9\"");
        QTest::newRow("three-byte UTF-8") << QStringLiteral("λ→") << QByteArray("\"\xce\xbb\xe2\x86\x92\"");
        QTest::newRow("surrogate pair") << QString::fromUcs4(U"\U0001F600") << QByteArray("\"\xf0\x9f\x98\x80\"");
        QTest::newRow("lone high surrogate") << QString(QChar(0xD800)) + u'x' << QByteArray("\"\xef\xbf\xbdx\"");
        QTest::newRow("lone low surrogate at the end") << u'x' + QString(QChar(0xDC00)) << QByteArray("\"x\xef\xbf\xbd\"");
        QTest::newRow("empty") << QString() << QByteArray("\"\"");
    }
    void stringsAreEscapedAsJsonSays()
    {
        QFETCH(QString, text);
        QFETCH(QByteArray, expected);
        JsonTextWriter json;
        json.value(text);
        QCOMPARE(json.text(), expected);
    }

    void longStringsCrossingPiecesReadBackWhole()
    {
        // Pieces of 8,192 UTF-16 units: surrogate pairs and escapes on every boundary.
        QString text;
        for (int i = 0; i < 40000; ++i)
            text += i % 7 == 0 ? QString::fromUcs4(U"\U0001F600") : i % 5 == 0 ? QStringLiteral("\"\n") : QStringLiteral("ab");
        JsonTextWriter json;
        json.value(text);
        QCOMPARE(readBack(json.text()).toString(), text);
    }

    void numbersReadBackAsTheSameNumbers_data()
    {
        QTest::addColumn<QJsonValue>("number");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("zero") << QJsonValue(0) << QByteArray("0");
        QTest::newRow("integer") << QJsonValue(250) << QByteArray("250");
        QTest::newRow("negative") << QJsonValue(-42) << QByteArray("-42");
        QTest::newRow("whole double") << QJsonValue(3.0) << QByteArray("3");
        QTest::newRow("fraction") << QJsonValue(0.031) << QByteArray("0.031");
        QTest::newRow("2^62 exactly") << QJsonValue(qint64(1) << 62) << QByteArray("4611686018427387904");
        QTest::newRow("tiny") << QJsonValue(1e-300) << QByteArray("1e-300");
        QTest::newRow("huge") << QJsonValue(1.5e300) << QByteArray("1.5e+300");
        QTest::newRow("not a number") << QJsonValue(std::numeric_limits<double>::quiet_NaN()) << QByteArray("null");
        QTest::newRow("infinity") << QJsonValue(std::numeric_limits<double>::infinity()) << QByteArray("null");
    }
    void numbersReadBackAsTheSameNumbers()
    {
        QFETCH(QJsonValue, number);
        QFETCH(QByteArray, expected);
        JsonTextWriter json;
        json.value(number);
        QCOMPARE(json.text(), expected);
        if (expected != "null")
            QCOMPARE(readBack(json.text()), number);
    }

    void aQJsonObjectIsWrittenAsQJsonDocumentReadsIt()
    {
        const QJsonObject answer = QJsonDocument::fromJson(
            "{\"id\":250,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"=> 3\",\"type\":\"text\"}],\"isError\":false,"
            "\"structuredContent\":{\"elapsed_ms\":0.031,\"output_truncated_chars\":0,\"package\":\"COMMON-LISP-USER\","
            "\"status\":\"ok\",\"stderr\":\"\",\"stdout\":\"\",\"values\":[\"3\"],\"warnings\":[],\"nothing\":null}}}").object();
        const QByteArray text = JsonTextWriter::compact(answer);
        QCOMPARE(text, QJsonDocument(answer).toJson(QJsonDocument::Compact));
        QCOMPARE(QJsonDocument::fromJson(text).object(), answer);
    }

    void randomValuesReadBackEqual()
    {
        // A property check against QJsonDocument's reader: deep, mixed values with random text.
        QRandomGenerator random(22);
        const auto randomText = [&random] {
            QString text;
            const int length = random.bounded(12);
            for (int i = 0; i < length; ++i)
                text += QChar(char16_t(random.bounded(4) == 0 ? random.bounded(0x10000) : random.bounded(0x80)));
            return text;
        };
        std::function<QJsonValue(int)> randomValue = [&](int depth) -> QJsonValue {
            switch (random.bounded(depth > 3 ? 5 : 7)) {
            case 0: return QJsonValue();
            case 1: return random.bounded(2) == 1;
            case 2: return double(random.bounded(-1000000, 1000000)) / (random.bounded(2) ? 1.0 : 1000.0);
            case 3: return qint64(random.generate64() >> 2);
            case 4: return randomText();
            case 5: {
                QJsonArray array;
                for (int i = random.bounded(4); i > 0; --i)
                    array.append(randomValue(depth + 1));
                return array;
            }
            default: {
                QJsonObject object;
                for (int i = random.bounded(4); i > 0; --i)
                    object.insert(randomText(), randomValue(depth + 1));
                return object;
            }
            }
        };
        for (int round = 0; round < 2000; ++round) {
            const QJsonValue value = randomValue(0);
            JsonTextWriter json;
            json.value(value);
            // QJsonValue compares strings with lone surrogates after the writer replaced them;
            // compare what both writers make of it instead.
            const QJsonValue back = readBack(json.text());
            JsonTextWriter again;
            again.value(back);
            QCOMPARE(again.text(), json.text());
        }
    }
};

QTEST_GUILESS_MAIN(TestJsonTextWriter)
#include "tst_jsontextwriter.moc"

// A tool's arguments declared once (mcp/toolapi/ToolArguments): the inputSchema they give, the sentence
// each wrong value gets, and how a tool reads the checked values.

#include "toolapi/ToolArguments.h"

#include <QJsonArray>
#include <QTest>

namespace {
const auto Code = Arg::string(QStringLiteral("code"), QStringLiteral("Lisp source")).required(QStringLiteral("the Lisp code to evaluate"));
const auto Prefix = Arg::string(QStringLiteral("prefix"), QStringLiteral("Start of a name"))
                        .notBlank(QStringLiteral("is empty; give part of a symbol name"));
const auto Package = Arg::string(QStringLiteral("package"), QStringLiteral("A package")).acceptingNumbers();
const auto Action = Arg::choice(QStringLiteral("action"), QStringLiteral("What to do"), {QStringLiteral("replace"), QStringLiteral("delete")});
const auto Timeout = Arg::number(QStringLiteral("timeout_seconds"), QStringLiteral("Seconds (default 30)"), 0.1, 3600);
const auto Limit = Arg::integer(QStringLiteral("limit"), QStringLiteral("Most results (default 50)"), 1, 1000);
const auto Force = Arg::boolean(QStringLiteral("force"), QStringLiteral("Reload"));

const ArgumentTable Table{Code, Prefix, Package, Action, Timeout, Limit, Force};
} // namespace

class TestToolArguments : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theSchemaIsClosedAndDescribesEveryArgument()
    {
        const QJsonObject schema = Table.inputSchema();
        QCOMPARE(schema.value("type").toString(), QStringLiteral("object"));
        QCOMPARE(schema.value("additionalProperties").toBool(true), false);
        QCOMPARE(schema.value("required").toArray(), QJsonArray{"code"});
        const QJsonObject properties = schema.value("properties").toObject();
        QCOMPARE(properties.size(), 7);
        for (auto it = properties.begin(); it != properties.end(); ++it)
            QVERIFY2(!it.value().toObject().value("description").toString().isEmpty(), qPrintable(it.key()));
        QCOMPARE(properties.value("action").toObject().value("enum").toArray(), (QJsonArray{"replace", "delete"}));
        QCOMPARE(properties.value("limit").toObject().value("type").toString(), QStringLiteral("integer"));
        QCOMPARE(properties.value("limit").toObject().value("minimum").toInt(), 1);
        QCOMPARE(properties.value("limit").toObject().value("maximum").toInt(), 1000);
        QCOMPARE(properties.value("timeout_seconds").toObject().value("type").toString(), QStringLiteral("number"));
        QCOMPARE(properties.value("force").toObject().value("type").toString(), QStringLiteral("boolean"));
    }

    void eachWrongValueGetsASentenceNamingTheArgument_data()
    {
        QTest::addColumn<QJsonObject>("arguments");
        QTest::addColumn<QString>("problem");
        const QJsonObject ok{{"code", "(+ 1 2)"}};
        const auto with = [&ok](const char *key, const QJsonValue &value) {
            QJsonObject arguments = ok;
            arguments.insert(QLatin1String(key), value);
            return arguments;
        };
        QTest::newRow("all fine") << QJsonObject(ok) << QString();
        QTest::newRow("required, missing") << QJsonObject{}
                                           << "Invalid arguments: 'code' is required: the Lisp code to evaluate as a string.";
        QTest::newRow("required, null") << QJsonObject{{"code", QJsonValue::Null}}
                                        << "Invalid arguments: 'code' is required: the Lisp code to evaluate as a string.";
        QTest::newRow("required, a number") << QJsonObject{{"code", 5}}
                                            << "Invalid arguments: 'code' must be a string (the Lisp code to evaluate), but it is a number.";
        QTest::newRow("a string, an array") << with("prefix", QJsonArray{}) << "Invalid arguments: 'prefix' must be a string, but it is an array.";
        QTest::newRow("blank") << with("prefix", "  ") << "Invalid arguments: 'prefix' is empty; give part of a symbol name.";
        QTest::newRow("a number where digits are taken") << with("package", 12) << QString();
        QTest::newRow("not a choice") << with("action", "rename")
                                      << "Invalid arguments: 'action' must be \"replace\" or \"delete\", but it is \"rename\".";
        QTest::newRow("a number out of range") << with("timeout_seconds", 0)
                                               << "Invalid arguments: 'timeout_seconds' must be a number from 0.1 to 3600, but it is 0.";
        QTest::newRow("a number as a string") << with("timeout_seconds", "5")
                                              << "Invalid arguments: 'timeout_seconds' must be a number from 0.1 to 3600, but it is a string.";
        QTest::newRow("a fraction for a whole number") << with("limit", 2.5)
                                                       << "Invalid arguments: 'limit' must be a whole number from 1 to 1000, but it is 2.5.";
        QTest::newRow("a whole number too large") << with("limit", 5000)
                                                  << "Invalid arguments: 'limit' must be a whole number from 1 to 1000, but it is 5000.";
        QTest::newRow("a boolean as a string") << with("force", "true") << "Invalid arguments: 'force' must be true or false, but it is a string.";
        QTest::newRow("an unknown argument") << with("forse", true)
                                             << "Invalid arguments: unknown argument 'forse'; this tool takes: code, prefix, package, action, "
                                                "timeout_seconds, limit, force.";
    }
    void eachWrongValueGetsASentenceNamingTheArgument()
    {
        QFETCH(QJsonObject, arguments);
        QFETCH(QString, problem);
        QCOMPARE(Table.problemWith(arguments), problem);
    }

    void theFirstProblemInTableOrderIsTheOneReportedAndBlanksComeLast()
    {
        // A blank prefix (checked last) and a bad limit: the limit is reported.
        QVERIFY(Table.problemWith({{"code", "x"}, {"prefix", " "}, {"limit", 0}}).contains(QStringLiteral("'limit'")));
        QVERIFY(Table.problemWith({{"code", "x"}, {"prefix", " "}}).contains(QStringLiteral("'prefix' is empty")));
        // An unknown argument before anything else.
        QVERIFY(Table.problemWith({{"limit", 0}, {"zzz", 1}}).contains(QStringLiteral("unknown argument 'zzz'")));
    }

    void aToolReadsCheckedValuesThroughTheSameConstants()
    {
        const ToolArguments arguments(QJsonObject{{"code", "(x)"}, {"package", 42}, {"timeout_seconds", 2.5}, {"limit", 7}, {"force", true},
                                                  {"action", QJsonValue::Null}});
        QCOMPARE(arguments.text(Code), QStringLiteral("(x)"));
        QCOMPARE(arguments.text(Package), QStringLiteral("42")); // its digits
        QCOMPARE(arguments.value(Timeout, 30.0), 2.5);
        QCOMPARE(arguments.value(Limit, 50), 7);
        QCOMPARE(arguments.value(Force, false), true);
        QVERIFY(!arguments.value(Action)); // null is left out
        QCOMPARE(arguments.text(Prefix), QString());
        QCOMPARE(ToolArguments(QJsonObject{}).value(Limit, 50), 50);
    }
};

QTEST_GUILESS_MAIN(TestToolArguments)
#include "tst_toolarguments.moc"

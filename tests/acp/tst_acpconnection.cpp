// AcpConnection, the JSON-RPC layer of the ACP client, line by line: what it writes for what it
// reads, without a process (the suites with the mock agent show the same over a real pipe).

#include "acp/AcpConnection.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

class tst_AcpConnection : public QObject
{
    Q_OBJECT

    QList<QJsonObject> m_sent;
    AcpConnection *m_connection = nullptr;

    static QByteArray line(const QJsonObject &message) { return QJsonDocument(message).toJson(QJsonDocument::Compact); }
    QJsonObject lastSent() const { return m_sent.isEmpty() ? QJsonObject() : m_sent.constLast(); }

private Q_SLOTS:
    void init()
    {
        m_sent.clear();
        m_connection = new AcpConnection([this](const QByteArray &bytes) {
            QVERIFY(!bytes.contains('\n'));
            m_sent.append(QJsonDocument::fromJson(bytes).object());
        });
    }
    void cleanup() { delete std::exchange(m_connection, nullptr); }

    void ourIdsAndTheAgentsAreSeparate()
    {
        QList<AcpConnection::Reply> replies;
        const int first = m_connection->request(QStringLiteral("initialize"), {}, nullptr,
                                                [&](const AcpConnection::Reply &reply) { replies.append(reply); });
        QCOMPARE(first, 1);
        QCOMPARE(lastSent().value(QStringLiteral("id")).toInt(), 1);
        QCOMPARE(lastSent().value(QStringLiteral("method")).toString(), QStringLiteral("initialize"));
        // The agent's own request 1 (its ids start at 0) is not an answer to ours.
        QList<QJsonValue> agentIds;
        m_connection->onRequest(QStringLiteral("session/request_permission"),
                                [&](const QJsonObject &, const AcpResponder &responder) {
                                    agentIds.append(responder.id());
                                    responder.respond({{QStringLiteral("outcome"), QJsonObject{{QStringLiteral("outcome"), QStringLiteral("cancelled")}}}});
                                });
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}})");
        QCOMPARE(agentIds, QList<QJsonValue>{QJsonValue(1)});
        QVERIFY(replies.isEmpty());
        QCOMPARE(lastSent().value(QStringLiteral("id")).toInt(), 1);
        QVERIFY(lastSent().contains(QStringLiteral("result")));
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}})");
        QCOMPARE(replies.size(), 1);
        QVERIFY(replies.at(0).ok);
        QCOMPARE(replies.at(0).result.value(QStringLiteral("protocolVersion")).toInt(), 1);
        QCOMPARE(m_connection->request(QStringLiteral("session/new"), {}, nullptr, [](const AcpConnection::Reply &) {}), 2);
    }

    void everyLineBothWaysIsShownToAWireView()
    {
        QSignalSpy traffic(m_connection, &AcpConnection::traffic);
        m_connection->request(QStringLiteral("initialize"), {}, nullptr, [](const AcpConnection::Reply &) {});
        const QByteArray answer = R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}})";
        m_connection->receiveLine(answer);
        QCOMPARE(traffic.size(), 2);
        QCOMPARE(traffic.at(0).at(0).toBool(), true); // ours, as written
        QCOMPARE(QJsonDocument::fromJson(traffic.at(0).at(1).toByteArray()).object(), m_sent.value(0));
        QCOMPARE(traffic.at(1).at(0).toBool(), false); // the agent's, as read
        QCOMPARE(traffic.at(1).at(1).toByteArray(), answer);
    }

    void methodsWeDoNotOfferAre32601()
    {
        QSignalSpy logged(m_connection, &AcpConnection::logged);
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":0,"method":"fs/read_text_file","params":{"path":"/etc/passwd"}})");
        QCOMPARE(lastSent().value(QStringLiteral("id")).toInt(), 0);
        QCOMPARE(lastSent().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32601);
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":"x-7","method":"terminal/create","params":{}})");
        QCOMPARE(lastSent().value(QStringLiteral("id")).toString(), QStringLiteral("x-7"));
        QCOMPARE(lastSent().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32601);
        QCOMPARE(logged.size(), 2);
    }

    void aRequestIsAnsweredExactlyOnce()
    {
        AcpResponder kept;
        m_connection->onRequest(QStringLiteral("session/request_permission"),
                                [&](const QJsonObject &, const AcpResponder &responder) { kept = responder; });
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":4,"method":"session/request_permission","params":{}})");
        QCOMPARE(m_connection->pendingAgentRequests(), 1);
        const AcpResponder copy = kept;
        QVERIFY(copy.isPending());
        copy.respond({{QStringLiteral("a"), 1}});
        kept.respond({{QStringLiteral("b"), 2}});
        kept.fail(-32603, QStringLiteral("late"));
        QCOMPARE(m_sent.size(), 1);
        QCOMPARE(lastSent().value(QStringLiteral("result")).toObject().value(QStringLiteral("a")).toInt(), 1);
        QVERIFY(!kept.isPending());
        QCOMPARE(m_connection->pendingAgentRequests(), 0);
    }

    void aRequestNobodyAnswersIsToldSo()
    {
        m_connection->onRequest(QStringLiteral("session/request_permission"), [](const QJsonObject &, const AcpResponder &) {});
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{}})");
        QCOMPARE(lastSent().value(QStringLiteral("id")).toInt(), 9);
        QCOMPARE(lastSent().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32603);
    }

    void aRequestHasItsTimeLimit()
    {
        QList<AcpConnection::Reply> replies;
        QSignalSpy logged(m_connection, &AcpConnection::logged);
        m_connection->request(QStringLiteral("initialize"), {}, nullptr,
                              [&](const AcpConnection::Reply &reply) { replies.append(reply); }, 50);
        QTRY_COMPARE(replies.size(), 1);
        QVERIFY(!replies.at(0).ok);
        QCOMPARE(replies.at(0).error.code, int(Acp::Error::TimedOut));
        QVERIFY2(replies.at(0).error.message.contains(QStringLiteral("initialize")), qPrintable(replies.at(0).error.message));
        // Its late answer is logged and ignored.
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":1,"result":{}})");
        QCOMPARE(replies.size(), 1);
        QCOMPARE(logged.size(), 1);
        QCOMPARE(m_connection->pendingRequests(), 0);
    }

    void garbageIsLoggedAndTheConnectionGoesOn()
    {
        QSignalSpy logged(m_connection, &AcpConnection::logged);
        int updates = 0;
        m_connection->onNotification(QStringLiteral("session/update"), [&](const QJsonObject &) { ++updates; });
        const QList<QByteArray> garbage{
            "this line is not JSON",
            R"({"jsonrpc": "2.0", "method": )",
            "[1, 2, 3]",
            R"([{"jsonrpc":"2.0","method":"session/update","params":{}}])",
            R"("a string")",
            R"({"jsonrpc":"1.0","method":"session/update"})",
            R"({"jsonrpc":"2.0","id":77,"result":{}})",
            R"({"jsonrpc":"2.0","method":"_vendor/thing","params":{"x":1}})",
            R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})",
        };
        for (const QByteArray &bytes : garbage)
            m_connection->receiveLine(bytes);
        QCOMPARE(logged.size(), garbage.size());
        QVERIFY(m_sent.isEmpty()); // none of them had an id to answer
        QCOMPARE(m_connection->ignoredLines(), garbage.size() - 1); // an unknown notification is not garbage
        m_connection->receiveLine(R"({"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{},"extra":true},"more":1})");
        QCOMPARE(updates, 1);
    }

    void aBrokenRequestWithAnIdIsAnswered()
    {
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":5,"method":7})");
        QCOMPARE(lastSent().value(QStringLiteral("id")).toInt(), 5);
        QCOMPARE(lastSent().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32600);
    }

    void anAnswerThatIsNotAnObjectIsABadAnswer()
    {
        QList<AcpConnection::Reply> replies;
        m_connection->request(QStringLiteral("session/new"), {}, nullptr, [&](const AcpConnection::Reply &reply) { replies.append(reply); });
        m_connection->request(QStringLiteral("session/set_mode"), {}, nullptr, [&](const AcpConnection::Reply &reply) { replies.append(reply); });
        m_connection->request(QStringLiteral("session/prompt"), {}, nullptr, [&](const AcpConnection::Reply &reply) { replies.append(reply); });
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":1,"result":[1]})");
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":2,"result":null})");
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"Authentication required","data":{"x":1}}})");
        QCOMPARE(replies.size(), 3);
        QCOMPARE(replies.at(0).error.code, int(Acp::Error::BadAnswer));
        QVERIFY(replies.at(1).ok);
        QVERIFY(replies.at(2).error.isAuthRequired());
        QCOMPARE(replies.at(2).error.data.toObject().value(QStringLiteral("x")).toInt(), 1);
    }

    void theAgentWithdrawsItsRequest()
    {
        AcpResponder kept;
        int withdrawn = 0;
        m_connection->onRequest(QStringLiteral("session/request_permission"), [&](const QJsonObject &, const AcpResponder &responder) {
            kept = responder;
            responder.onWithdrawn([&] { ++withdrawn; });
        });
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{}})");
        m_connection->receiveLine(R"({"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":0}})");
        QCOMPARE(withdrawn, 1);
        QVERIFY(!kept.isPending());
        kept.respond({});
        QVERIFY(m_sent.isEmpty());
    }

    void closingFailsEverythingInFlight()
    {
        QList<AcpConnection::Reply> replies;
        int withdrawn = 0;
        m_connection->onRequest(QStringLiteral("session/request_permission"), [&](const QJsonObject &, const AcpResponder &responder) {
            responder.onWithdrawn([&] { ++withdrawn; });
            AcpResponder copy = responder; // kept by nobody after this
            Q_UNUSED(copy)
        });
        QObject context;
        m_connection->request(QStringLiteral("session/prompt"), {}, &context, [&](const AcpConnection::Reply &reply) { replies.append(reply); });
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{}})");
        const int sentBefore = int(m_sent.size()); // the prompt, and -32603 for the dropped permission
        m_connection->close(QStringLiteral("mock exited with status 3."));
        QCOMPARE(replies.size(), 1);
        QCOMPARE(replies.at(0).error.code, int(Acp::Error::ConnectionClosed));
        QCOMPARE(replies.at(0).error.message, QStringLiteral("mock exited with status 3."));
        QCOMPARE(int(m_sent.size()), sentBefore);
        bool failed = false;
        m_connection->request(QStringLiteral("session/new"), {}, nullptr, [&](const AcpConnection::Reply &reply) {
            failed = !reply.ok && reply.error.code == Acp::Error::ConnectionClosed;
        });
        QTRY_VERIFY(failed);
        QCOMPARE(int(m_sent.size()), sentBefore);
    }

    void aHandlerWhoseContextIsGoneDoesNotRun()
    {
        bool ran = false;
        auto *context = new QObject;
        m_connection->request(QStringLiteral("session/new"), {}, context, [&](const AcpConnection::Reply &) { ran = true; });
        delete context;
        m_connection->receiveLine(R"({"jsonrpc":"2.0","id":1,"result":{}})");
        QVERIFY(!ran);
        QCOMPARE(m_connection->pendingRequests(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_AcpConnection)
#include "tst_acpconnection.moc"

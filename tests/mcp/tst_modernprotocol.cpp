// Protocol revision 2026-07-28 in McpServer, through a peer with bytes in and out, over the
// real engine: every request carries its era in _meta (no initialize), server/discover, the
// refusals of malformed envelopes and unsupported versions, removed methods, resultType and
// serverInfo and cache hints, logging per request, subscriptions/listen, and the activity
// digest; and that requests without the envelope stay in the handshake's era, unchanged.

#include "PeerHarness.h"

#include "features/ResourceProvider.h"
#include "server/McpErrors.h"

namespace {
const QString TranscriptUri = QStringLiteral("lisp-duet://session/transcript");

QJsonObject evaluation(const QString &code)
{
    return {{"name", "evaluate-lisp"}, {"arguments", QJsonObject{{"code", code}}}};
}
} // namespace

class TestModernProtocol : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<PeerHarness> m_h;
    std::unique_ptr<ResourceProvider> m_resources;

    bool waitRunning(const QString &code)
    {
        return QTest::qWaitFor([&] {
            const JobPtr current = m_h->lisp.session.current();
            return current && current->request.code == code;
        }, 10000);
    }

private Q_SLOTS:
    void init()
    {
        m_h = std::make_unique<PeerHarness>();
        m_resources = std::make_unique<ResourceProvider>(&m_h->server, &m_h->lisp.session);
        QVERIFY2(m_h->lisp.waitReady(), "the engine did not start");
    }
    void cleanup()
    {
        m_resources.reset();
        m_h.reset();
    }

    void discoverNamesTheModernRevisionTheCapabilitiesAndTheServer()
    {
        const QJsonObject response = m_h->call(Modern::request("d1", "server/discover"));
        const QJsonObject result = resultOf(response);
        QCOMPARE(response.value("id"), QJsonValue("d1"));
        QCOMPARE(result.value("resultType").toString(), QStringLiteral("complete"));
        QCOMPARE(result.value("supportedVersions").toArray(), QJsonArray{"2026-07-28"});
        const QJsonObject capabilities = result.value("capabilities").toObject();
        QCOMPARE(capabilities.value("tools").toObject().value("listChanged"), QJsonValue(true));
        QCOMPARE(capabilities.value("resources").toObject().value("subscribe"), QJsonValue(true));
        QVERIFY(!result.value("instructions").toString().isEmpty());
        const QJsonObject serverInfo = result.value("_meta").toObject().value(RequestEnvelope::ServerInfoKey).toObject();
        QCOMPARE(serverInfo.value("name").toString(), QStringLiteral("lisp-duet"));
        QVERIFY(!serverInfo.value("version").toString().isEmpty());
        QCOMPARE(result.value("ttlMs").toInt(), 60000);
        QCOMPARE(result.value("cacheScope").toString(), QStringLiteral("public"));
        QVERIFY(!m_h->peer->isInitialized()); // no handshake, no session
    }

    void aModernToolCallNeedsNoInitialize()
    {
        const QJsonObject result = resultOf(m_h->call(Modern::request(2, "tools/call", evaluation("(+ 1 2)"))));
        QCOMPARE(result.value("content").toArray().first().toObject().value("text").toString(), QStringLiteral("=> 3"));
        QCOMPARE(result.value("resultType").toString(), QStringLiteral("complete"));
        QCOMPARE(result.value("_meta").toObject().value(RequestEnvelope::ServerInfoKey).toObject().value("name").toString(),
                 QStringLiteral("lisp-duet"));
        QVERIFY(!result.contains("ttlMs")); // only lists and reads are cacheable
        QCOMPARE(m_h->lisp.session.transcript().last()->request.origin.name, QStringLiteral("modern-test"));
    }

    void listsAndReadsCarryCacheHints_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QJsonObject>("params");
        QTest::addColumn<int>("ttlMs");
        QTest::addColumn<QString>("scope");
        QTest::newRow("tools/list") << "tools/list" << QJsonObject{} << 60000 << "public";
        QTest::newRow("resources/list") << "resources/list" << QJsonObject{} << 60000 << "public";
        QTest::newRow("resources/templates/list") << "resources/templates/list" << QJsonObject{} << 60000 << "public";
        QTest::newRow("resources/read: the session changes with every evaluation")
            << "resources/read" << QJsonObject{{"uri", TranscriptUri}} << 0 << "private";
    }
    void listsAndReadsCarryCacheHints()
    {
        QFETCH(QString, method);
        QFETCH(QJsonObject, params);
        QFETCH(int, ttlMs);
        QFETCH(QString, scope);
        const QJsonObject result = resultOf(m_h->call(Modern::request(4, method, params)));
        QCOMPARE(result.value("ttlMs"), QJsonValue(ttlMs));
        QCOMPARE(result.value("cacheScope").toString(), scope);
        QCOMPARE(result.value("resultType").toString(), QStringLiteral("complete"));
    }

    void legacyResultsStayAsTheyWere()
    {
        m_h->initialize();
        const QJsonObject result = resultOf(m_h->call(Legacy::request(5, "tools/list")));
        QVERIFY(result.contains("tools"));
        for (const char *added : {"resultType", "_meta", "ttlMs", "cacheScope"})
            QVERIFY2(!result.contains(QLatin1String(added)), added);
    }

    void malformedEnvelopesAreRefusedAsInvalidParams_data()
    {
        QTest::addColumn<QJsonValue>("meta");
        QTest::addColumn<QString>("says");
        QJsonObject noCapabilities = Modern::meta();
        noCapabilities.remove(RequestEnvelope::ClientCapabilitiesKey);
        QTest::newRow("no clientCapabilities") << QJsonValue(noCapabilities) << "clientCapabilities";
        QTest::newRow("protocolVersion a number") << QJsonValue(Modern::meta("t", {{RequestEnvelope::ProtocolVersionKey, 20260728}})) << "protocolVersion";
        QTest::newRow("clientInfo a string") << QJsonValue(Modern::meta("t", {{RequestEnvelope::ClientInfoKey, "me"}})) << "clientInfo";
        QTest::newRow("an unknown log level") << QJsonValue(Modern::meta("t", {{RequestEnvelope::LogLevelKey, "loud"}})) << "log level";
    }
    void malformedEnvelopesAreRefusedAsInvalidParams()
    {
        QFETCH(QJsonValue, meta);
        QFETCH(QString, says);
        const McpServer::Received received = m_h->send(Modern::request(6, "tools/list", {}, meta.toObject()));
        QVERIFY(received.isRefused());
        QCOMPARE(errorCodeOf(received.refusal), int(JsonRpc::InvalidParams));
        QCOMPARE(received.refusal.value("id"), QJsonValue(6));
        QVERIFY2(received.refusal.value("error").toObject().value("message").toString().contains(says),
                 qPrintable(received.refusal.value("error").toObject().value("message").toString()));
        QCOMPARE(m_h->sent.last(), received.refusal); // a stream transport writes it like any answer
    }

    void anUnsupportedVersionListsTheSupportedOnes()
    {
        const McpServer::Received received =
            m_h->send(Modern::request(7, "server/discover", {}, Modern::meta("t", {{RequestEnvelope::ProtocolVersionKey, "2099-01-01"}})));
        QCOMPARE(errorCodeOf(received.refusal), int(McpErrors::UnsupportedProtocolVersion));
        const QJsonObject data = received.refusal.value("error").toObject().value("data").toObject();
        QCOMPARE(data.value("supported").toArray(), QJsonArray{"2026-07-28"});
        QCOMPARE(data.value("requested").toString(), QStringLiteral("2099-01-01"));
    }

    void methodsTheRevisionRemovedAreNotFound_data()
    {
        QTest::addColumn<QString>("method");
        for (const char *method : {"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "made/up"})
            QTest::newRow(method) << QString::fromLatin1(method);
    }
    void methodsTheRevisionRemovedAreNotFound()
    {
        QFETCH(QString, method);
        const McpServer::Received received = m_h->send(Modern::request(8, method, {{"uri", TranscriptUri}}));
        QCOMPARE(errorCodeOf(received.refusal), int(JsonRpc::MethodNotFound)); // HTTP answers 404
        QCOMPARE(received.refusal.value("id"), QJsonValue(8));
        // The same method without the envelope belongs to the handshake's era.
        if (method == QStringLiteral("ping"))
            QCOMPARE(resultOf(m_h->call(Legacy::request(9, "ping"))), QJsonObject{});
    }

    void anUnknownResourceIsInvalidParamsInTheModernEraOnly()
    {
        const QJsonObject modern = m_h->call(Modern::request(10, "resources/read", {{"uri", "lisp-duet://nothing"}}));
        QCOMPARE(errorCodeOf(modern), int(JsonRpc::InvalidParams));
        QCOMPARE(modern.value("error").toObject().value("data").toObject().value("uri").toString(), QStringLiteral("lisp-duet://nothing"));
        m_h->initialize();
        QCOMPARE(errorCodeOf(m_h->call(Legacy::request(11, "resources/read", {{"uri", "lisp-duet://nothing"}}))), int(McpErrors::ResourceNotFound));
    }

    void logMessagesGoOnlyToRequestsThatAskedForThem()
    {
        const QString code = QStringLiteral("(sleep 0.6)");
        m_h->send(Modern::request("quiet", "tools/call", evaluation(code)));
        QVERIFY(waitRunning(code));
        const QJsonObject loud = Modern::request("loud", "tools/call", evaluation(code), Modern::meta("t", {{RequestEnvelope::LogLevelKey, "warning"}}));
        m_h->send(loud); // queued behind the first
        const qsizetype before = m_h->sent.size();
        m_h->server.log(QStringLiteral("info"), QStringLiteral("engine"), QStringLiteral("below the level asked for"));
        m_h->server.log(QStringLiteral("error"), QStringLiteral("engine"), QStringLiteral("the engine restarted"));
        const QList<QJsonObject> messages = m_h->notifications(QStringLiteral("notifications/message"), before);
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.first().value("params").toObject().value("data").toString(), QStringLiteral("the engine restarted"));
        QVERIFY(QTest::qWaitFor([&] { return !PeerHarness::responsesTo("loud", m_h->sent).isEmpty(); }, 10000));
        m_h->server.log(QStringLiteral("error"), QStringLiteral("engine"), QStringLiteral("after the answer"));
        QCOMPARE(m_h->notifications(QStringLiteral("notifications/message"), before).size(), 1);
    }

    void listenAcknowledgesWhatItHonoursThenTagsEveryNotification()
    {
        const QJsonObject filter{{"toolsListChanged", true}, {"promptsListChanged", true}, {"resourceSubscriptions", QJsonArray{TranscriptUri}}};
        const McpServer::Received received = m_h->send(Modern::request("listen-1", "subscriptions/listen", {{"notifications", filter}}));
        QVERIFY(!received.isRefused());
        QVERIFY(!m_h->peer->hasRequestsInFlight()); // an open stream waits for no answer (stdio ends at end of input)
        const QJsonObject ack = m_h->sent.last();
        QCOMPARE(ack.value("method").toString(), QStringLiteral("notifications/subscriptions/acknowledged"));
        const QJsonObject ackParams = ack.value("params").toObject();
        QCOMPARE(ackParams.value("_meta").toObject().value(RequestEnvelope::SubscriptionIdKey), QJsonValue("listen-1"));
        // Our prompts never change, so that part is not honoured.
        QCOMPARE(ackParams.value("notifications").toObject(),
                 (QJsonObject{{"toolsListChanged", true}, {"resourceSubscriptions", QJsonArray{TranscriptUri}}}));

        m_h->tools.add(checkParensTool());
        const QList<QJsonObject> changed = m_h->notifications(QStringLiteral("notifications/tools/list_changed"));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().value("params").toObject().value("_meta").toObject().value(RequestEnvelope::SubscriptionIdKey), QJsonValue("listen-1"));
        m_h->server.broadcast(QStringLiteral("notifications/resources/list_changed")); // not asked for
        QVERIFY(m_h->notifications(QStringLiteral("notifications/resources/list_changed")).isEmpty());

        m_h->call(Modern::request(12, "tools/call", evaluation("(+ 1 1)")));
        QVERIFY(QTest::qWaitFor([&] { return !m_h->notifications(QStringLiteral("notifications/resources/updated")).isEmpty(); }, 5000));
        const QJsonObject updated = m_h->notifications(QStringLiteral("notifications/resources/updated")).first();
        QCOMPARE(updated.value("params").toObject().value("uri").toString(), TranscriptUri);

        // notifications/cancelled ends it: no answer, nothing more.
        const qsizetype before = m_h->sent.size();
        m_h->send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", QJsonObject{{"requestId", "listen-1"}}}});
        m_h->tools.add(aproposTool(&m_h->lisp.session));
        QCOMPARE(m_h->sent.mid(before), QList<QJsonObject>());
        QVERIFY(!m_h->peer->isInFlight("listen-1"));
    }

    void listenNeedsAFilter()
    {
        const QJsonObject response = m_h->call(Modern::request(13, "subscriptions/listen", {{"notifications", "all"}}));
        QCOMPARE(errorCodeOf(response), int(JsonRpc::InvalidParams));
    }

    void theDigestOfAStatelessClientFollowsItsActivityKey()
    {
        // Two peers with the same activity key (two stateless HTTP requests of one client).
        QList<QJsonObject> firstSink, secondSink;
        McpPeer *first = m_h->newPeer(&firstSink, QStringLiteral("http:bob/1"));
        McpPeer *second = m_h->newPeer(&secondSink, QStringLiteral("http:bob/1"));
        m_h->call(Modern::request(14, "tools/call", evaluation("(+ 0 0)"), Modern::meta("bob")), first, &firstSink);
        m_h->call(Modern::request(15, "tools/call", evaluation("(defvar *seen-by-bob* 1)"), Modern::meta("alice")));
        const QJsonObject told = resultOf(m_h->call(Modern::request(16, "tools/call", evaluation("(+ 1 1)"), Modern::meta("bob")), second, &secondSink));
        QCOMPARE(told.value("content").toArray().size(), 2);
        QVERIFY(told.value("content").toArray().at(1).toObject().value("text").toString().contains(QStringLiteral("*seen-by-bob*")));
        m_h->server.closePeer(second); // the end of one request does not forget the client
        const QJsonObject again = resultOf(m_h->call(Modern::request(17, "tools/call", evaluation("(+ 1 1)"), Modern::meta("bob")), first, &firstSink));
        QCOMPARE(again.value("content").toArray().size(), 1);
        QCOMPARE(m_h->lisp.session.transcript().last()->request.origin.clientKey, QStringLiteral("http:bob/1"));
    }

    void theActivityKeyOfAStatelessRequestIsItsClientByNameAndVersion()
    {
        const auto key = [](const QJsonObject &meta) {
            return McpServer::statelessActivityKey(RequestEnvelope::of(JsonRpc::Message::fromObject(Modern::request(1, "tools/list", {}, meta))));
        };
        QCOMPARE(key(Modern::meta("claude-code")), QStringLiteral("http:claude-code/1.0"));
        QJsonObject anonymous = Modern::meta();
        anonymous.remove(RequestEnvelope::ClientInfoKey);
        QCOMPARE(key(anonymous), QStringLiteral("http:(unnamed client)"));
    }

    void theEraIsTheEnvelopesOrTheTransportsDeclaredVersion()
    {
        const JsonRpc::Message bare = JsonRpc::Message::fromObject(Legacy::request(1, "tools/list"));
        QVERIFY(!RequestEnvelope::of(bare).isModern());
        QVERIFY(!RequestEnvelope::of(bare, QStringLiteral("2025-11-25")).isModern());
        const RequestEnvelope declared = RequestEnvelope::of(bare, QStringLiteral("2026-07-28"));
        QVERIFY(declared.isModern());
        QCOMPARE(declared.problem(), RequestEnvelope::Problem::Malformed); // the body must say so too
        const RequestEnvelope claimed = RequestEnvelope::of(JsonRpc::Message::fromObject(Modern::request(1, "tools/list")));
        QVERIFY(claimed.isModern() && claimed.problem() == RequestEnvelope::Problem::None && claimed.claimsVersion());
    }
};

QTEST_GUILESS_MAIN(TestModernProtocol)
#include "tst_modernprotocol.moc"

// The MCP protocol of McpServer, driven through a McpPeer with bytes in and the peer's
// message() signal out (no transport), over the real engine: the handshake, ping, tools,
// JSON-RPC errors, ids, notifications, cancellation and progress.

#include "../common/EngineHarness.h"

#include "server/McpServer.h"
#include "toolapi/ToolRegistry.h"
#include "tools/JobHandles.h"
#include "tools/Tools.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

namespace {
QByteArray json(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}
QJsonObject request(const QJsonValue &id, const QString &method, const QJsonObject &params = {})
{
    QJsonObject message{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (!params.isEmpty())
        message.insert("params", params);
    return message;
}
QJsonObject callParams(const QJsonObject &arguments, const QJsonValue &progressToken = QJsonValue::Undefined)
{
    QJsonObject params{{"name", "evaluate-lisp"}, {"arguments", arguments}};
    if (!progressToken.isUndefined())
        params.insert("_meta", QJsonObject{{"progressToken", progressToken}});
    return params;
}
QString textOf(const QJsonObject &response)
{
    return response.value("result").toObject().value("content").toArray().first().toObject().value("text").toString();
}
} // namespace

class TestMcpProtocol : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> m_lisp;
    std::unique_ptr<JobHandles> m_jobs;
    std::unique_ptr<ToolRegistry> m_tools;
    std::unique_ptr<McpServer> m_server;
    McpPeer *m_peer = nullptr;
    QList<QJsonObject> m_sent; // everything the server sent to the peer, in order

    McpPeer *newPeer(QList<QJsonObject> *sink)
    {
        McpPeer *peer = m_server->createPeer(QStringLiteral("test"));
        connect(peer, &McpPeer::message, this, [sink](const QJsonObject &message, const QJsonValue &) { sink->append(message); });
        return peer;
    }
    void send(const QByteArray &bytes, McpPeer *peer = nullptr) { m_server->receive(peer ? peer : m_peer, bytes); }

    QList<QJsonObject> responsesTo(const QJsonValue &id, const QList<QJsonObject> &messages) const
    {
        QList<QJsonObject> found;
        for (const QJsonObject &message : messages) {
            if (message.contains("id") && message.value("id") == id && !message.contains("method"))
                found << message;
        }
        return found;
    }
    // Sends a request and waits for its one response.
    QJsonObject call(const QJsonObject &message, int ms = 30000)
    {
        const QJsonValue id = message.value("id");
        const qsizetype before = m_sent.size();
        send(json(message));
        if (!QTest::qWaitFor([&] { return !responsesTo(id, m_sent.mid(before)).isEmpty(); }, ms))
            return {};
        return responsesTo(id, m_sent.mid(before)).first();
    }
    QJsonObject raw(const QByteArray &bytes)
    {
        const qsizetype before = m_sent.size();
        send(bytes);
        if (!QTest::qWaitFor([&] { return m_sent.size() > before; }, 5000))
            return {};
        return m_sent.at(before);
    }
    // A ping right after proves the server has handled what came before it.
    QList<QJsonObject> sentAfterSettling(qsizetype before)
    {
        const QJsonObject pong = call(request(QStringLiteral("settle"), "ping"));
        QList<QJsonObject> messages = m_sent.mid(before);
        messages.removeAll(pong);
        return messages;
    }
    void initialize(McpPeer *peer = nullptr, const QString &name = QStringLiteral("protocol-test"))
    {
        send(json(request(0, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", QJsonObject{}},
                                            {"clientInfo", QJsonObject{{"name", name}, {"version", "1"}}}})), peer);
        send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", peer);
    }
    bool waitRunning(const QString &code)
    {
        return QTest::qWaitFor([&] {
            const JobPtr current = m_lisp->session.current();
            return current && current->request.code == code;
        }, 10000);
    }

private Q_SLOTS:
    void init()
    {
        m_lisp = std::make_unique<EngineHarness>();
        m_jobs = std::make_unique<JobHandles>(&m_lisp->session);
        m_tools = std::make_unique<ToolRegistry>();
        m_tools->add(evaluateLispTool(&m_lisp->session, m_jobs.get()));
        m_server = std::make_unique<McpServer>(&m_lisp->session, m_tools.get());
        m_sent.clear();
        m_peer = newPeer(&m_sent);
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
    }
    void cleanup()
    {
        m_server.reset();
        m_tools.reset();
        m_jobs.reset();
        m_lisp.reset();
        m_peer = nullptr;
    }

    void initializeNegotiatesTheProtocolVersion_data()
    {
        QTest::addColumn<QJsonValue>("requested");
        QTest::addColumn<QString>("answered");
        for (const QString &version : McpServer::supportedProtocolVersions())
            QTest::newRow(qPrintable(version)) << QJsonValue(version) << version;
        QTest::newRow("a newer, unknown revision") << QJsonValue("2026-07-28") << "2025-11-25";
        QTest::newRow("an old, unknown revision") << QJsonValue("2024-10-07") << "2025-11-25";
        QTest::newRow("not a string") << QJsonValue(20251125) << "2025-11-25";
        QTest::newRow("missing") << QJsonValue(QJsonValue::Undefined) << "2025-11-25";
    }
    void initializeNegotiatesTheProtocolVersion()
    {
        QFETCH(QJsonValue, requested);
        QFETCH(QString, answered);
        QJsonObject params{{"capabilities", QJsonObject{}}, {"clientInfo", QJsonObject{{"name", "t"}, {"version", "1"}}}};
        if (!requested.isUndefined())
            params.insert("protocolVersion", requested);
        const QJsonObject response = call(request(1, "initialize", params));
        const QJsonObject result = response.value("result").toObject();
        QCOMPARE(result.value("protocolVersion").toString(), answered);
        QCOMPARE(result.value("serverInfo").toObject().value("name").toString(), QStringLiteral("lisp-duet"));
        QVERIFY(!result.value("serverInfo").toObject().value("version").toString().isEmpty());
        QVERIFY(result.value("capabilities").toObject().value("tools").isObject());
        QVERIFY(!result.value("instructions").toString().isEmpty());
        QCOMPARE(m_peer->protocolVersion(), answered);
        QCOMPARE(m_peer->clientName(), QStringLiteral("t"));
    }

    void pingIsAnsweredWithAnEmptyObjectAtAnyTime()
    {
        QCOMPARE(call(request(1, "ping")).value("result"), QJsonValue(QJsonObject{})); // before initialize
        initialize();
        const QJsonObject response = call(request(2, "ping", {{"_meta", QJsonObject{{"x", 1}}}}));
        QCOMPARE(response, (QJsonObject{{"jsonrpc", "2.0"}, {"id", 2}, {"result", QJsonObject{}}}));
        // ...also while an evaluation runs: nothing waits on the engine.
        send(json(request(3, "tools/call", callParams({{"code", "(sleep 1) :done"}}))));
        QVERIFY(waitRunning("(sleep 1) :done"));
        QCOMPARE(call(request(4, "ping"), 200).value("result"), QJsonValue(QJsonObject{}));
        QVERIFY(responsesTo(3, m_sent).isEmpty()); // the evaluation is still running
        QVERIFY(QTest::qWaitFor([&] { return !responsesTo(3, m_sent).isEmpty(); }, 10000));
        QCOMPARE(textOf(responsesTo(3, m_sent).first()), QStringLiteral("=> :DONE"));
    }

    void toolsListDescribesEvaluateLisp()
    {
        initialize();
        const QJsonArray tools = call(request(1, "tools/list")).value("result").toObject().value("tools").toArray();
        QJsonObject tool;
        for (const QJsonValue &value : tools) {
            QVERIFY(QRegularExpression(QStringLiteral("^[A-Za-z0-9_.-]{1,128}$")).match(value.toObject().value("name").toString()).hasMatch());
            if (value.toObject().value("name") == QJsonValue("evaluate-lisp"))
                tool = value.toObject();
        }
        QVERIFY(!tool.isEmpty());
        QVERIFY(!tool.value("title").toString().isEmpty());
        QVERIFY(tool.value("description").toString().startsWith(QStringLiteral("Evaluate Common Lisp in the persistent ECL session shared live with a person")));
        const QJsonObject annotations = tool.value("annotations").toObject();
        QCOMPARE(annotations.value("readOnlyHint"), QJsonValue(false));
        QCOMPARE(annotations.value("destructiveHint"), QJsonValue(true));
        QVERIFY(annotations.value("openWorldHint").isBool());
        const QJsonObject input = tool.value("inputSchema").toObject();
        QCOMPARE(input.value("type").toString(), QStringLiteral("object"));
        QCOMPARE(input.value("required").toArray(), QJsonArray{"code"});
        QCOMPARE(input.value("properties").toObject().value("code").toObject().value("type").toString(), QStringLiteral("string"));
        QCOMPARE(input.value("properties").toObject().value("package").toObject().value("type").toString(), QStringLiteral("string"));
        const QJsonObject output = tool.value("outputSchema").toObject();
        QCOMPARE(output.value("type").toString(), QStringLiteral("object"));
        QVERIFY(output.value("properties").toObject().contains("values"));
    }

    void aToolCallAnswersWithTheSeedTextAndStructuredContent()
    {
        initialize();
        const QJsonObject response = call(request(3, "tools/call", callParams({{"code", "(+ 1 2 3)"}})));
        const QJsonObject result = response.value("result").toObject();
        QCOMPARE(response.value("id"), QJsonValue(3));
        QCOMPARE(result.value("isError"), QJsonValue(false));
        QCOMPARE(result.value("content").toArray(), (QJsonArray{QJsonObject{{"type", "text"}, {"text", "=> 6"}}}));
        const QJsonObject structured = result.value("structuredContent").toObject();
        QCOMPARE(structured.value("status").toString(), QStringLiteral("ok"));
        QCOMPARE(structured.value("values").toArray(), QJsonArray{"6"});
        QCOMPARE(structured.value("package").toString(), QStringLiteral("COMMON-LISP-USER"));
    }

    void aLispErrorIsAToolResultWithIsError()
    {
        initialize();
        const QJsonObject result = call(request(6, "tools/call", callParams({{"code", "(/ 1 0)"}}))).value("result").toObject();
        QCOMPARE(result.value("isError"), QJsonValue(true));
        QCOMPARE(textOf({{"result", result}}), QStringLiteral("[ERROR] DIVISION-BY-ZERO\narithmetic error DIVISION-BY-ZERO signalled\n"
                                                            "Operation was (/ 1 0).\n\n[Backtrace]\n0: (/ 1 0)"));
        QCOMPARE(result.value("structuredContent").toObject().value("error").toObject().value("type").toString(), QStringLiteral("DIVISION-BY-ZERO"));
    }

    void garbageIsAParseError_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("not JSON") << QByteArray("{not json");
        QTest::newRow("truncated") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"ping")");
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe", 3);
    }
    void garbageIsAParseError()
    {
        QFETCH(QByteArray, bytes);
        const QJsonObject response = raw(bytes);
        QCOMPARE(response.value("error").toObject().value("code").toInt(), -32700);
        QCOMPARE(response.value("id"), QJsonValue(QJsonValue::Null));
        QCOMPARE(response.value("jsonrpc").toString(), QStringLiteral("2.0"));
        QCOMPARE(call(request(1, "ping")).value("result"), QJsonValue(QJsonObject{}));
    }

    void malformedRequestsAreInvalidRequests_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QJsonValue>("id");
        QTest::newRow("a JSON string") << QByteArray(R"("ping")") << QJsonValue(QJsonValue::Null);
        QTest::newRow("a number") << QByteArray("42") << QJsonValue(QJsonValue::Null);
        QTest::newRow("an empty batch") << QByteArray("[]") << QJsonValue(QJsonValue::Null);
        QTest::newRow("missing jsonrpc") << QByteArray(R"({"id":1,"method":"ping"})") << QJsonValue(1);
        QTest::newRow("jsonrpc 1.0") << QByteArray(R"({"jsonrpc":"1.0","id":2,"method":"ping"})") << QJsonValue(2);
        QTest::newRow("id null") << QByteArray(R"({"jsonrpc":"2.0","id":null,"method":"ping"})") << QJsonValue(QJsonValue::Null);
        QTest::newRow("id a fraction") << QByteArray(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})") << QJsonValue(QJsonValue::Null);
        QTest::newRow("id too large for an integer (found by fuzz_jsonrpc)") << QByteArray(R"({"jsonrpc":"2.0","id":7.7e60,"method":"ping"})") << QJsonValue(QJsonValue::Null);
        QTest::newRow("id an object") << QByteArray(R"({"jsonrpc":"2.0","id":{"n":1},"method":"ping"})") << QJsonValue(QJsonValue::Null);
        QTest::newRow("id a boolean") << QByteArray(R"({"jsonrpc":"2.0","id":true,"method":"ping"})") << QJsonValue(QJsonValue::Null);
        QTest::newRow("method not a string") << QByteArray(R"({"jsonrpc":"2.0","id":3,"method":42})") << QJsonValue(3);
        QTest::newRow("no method, no result") << QByteArray(R"({"jsonrpc":"2.0","id":4})") << QJsonValue(4);
    }
    void malformedRequestsAreInvalidRequests()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QJsonValue, id);
        const QJsonObject response = raw(bytes);
        QCOMPARE(response.value("error").toObject().value("code").toInt(), -32600);
        QVERIFY(!response.value("error").toObject().value("message").toString().isEmpty());
        QCOMPARE(response.value("id"), id);
        QCOMPARE(call(request(1, "ping")).value("result"), QJsonValue(QJsonObject{}));
    }

    void unknownMethodsAreMethodNotFound_data()
    {
        QTest::addColumn<QString>("method");
        QTest::newRow("made up") << "tools/frobnicate";
        QTest::newRow("server/discover (2026-07-28)") << "server/discover";
        QTest::newRow("a notification's name as a request") << "notifications/initialized";
        QTest::newRow("empty") << "";
    }
    void unknownMethodsAreMethodNotFound()
    {
        QFETCH(QString, method);
        initialize();
        const QJsonObject response = call(request(9, method));
        QCOMPARE(response.value("error").toObject().value("code").toInt(), -32601);
        QVERIFY(response.value("error").toObject().value("message").toString().contains(method));
        QCOMPARE(response.value("id"), QJsonValue(9));
    }

    void badToolCallsAreInvalidParams_data()
    {
        QTest::addColumn<QJsonObject>("message");
        QTest::addColumn<QString>("says");
        QTest::newRow("001 unknown tool") << request(7, "tools/call", {{"name", "invalid-tool-name"}, {"arguments", QJsonObject{}}})
                                          << "Unknown tool: invalid-tool-name";
        QTest::newRow("arguments a string") << request(7, "tools/call", {{"name", "evaluate-lisp"}, {"arguments", "(+ 1 2)"}}) << "arguments";
        QTest::newRow("arguments an array") << request(7, "tools/call", {{"name", "evaluate-lisp"}, {"arguments", QJsonArray{1}}}) << "arguments";
        QTest::newRow("no tool name") << request(7, "tools/call", {{"arguments", QJsonObject{}}}) << "name";
        QJsonObject paramsArray = request(7, "tools/call");
        paramsArray.insert("params", QJsonArray{"evaluate-lisp"});
        QTest::newRow("params an array") << paramsArray << "params";
    }
    void badToolCallsAreInvalidParams()
    {
        QFETCH(QJsonObject, message);
        QFETCH(QString, says);
        initialize();
        const QJsonObject response = call(message);
        QCOMPARE(response.value("error").toObject().value("code").toInt(), -32602);
        QVERIFY2(response.value("error").toObject().value("message").toString().contains(says),
                 qPrintable(response.value("error").toObject().value("message").toString()));
        QCOMPARE(response.value("id"), QJsonValue(7));
    }

    void badArgumentValuesAreToolErrorsNamingTheArgument_data()
    {
        QTest::addColumn<QJsonObject>("arguments");
        QTest::addColumn<QString>("named");
        QTest::newRow("no code") << QJsonObject{} << "'code' is required";
        QTest::newRow("code a number") << QJsonObject{{"code", 42}} << "'code' must be a string";
        QTest::newRow("package a number") << QJsonObject{{"code", "1"}, {"package", 7}} << "'package' must be a string";
        QTest::newRow("timeout a word") << QJsonObject{{"code", "1"}, {"timeout_seconds", "fast"}} << "'timeout_seconds' must be a number";
        QTest::newRow("timeout negative") << QJsonObject{{"code", "1"}, {"timeout_seconds", -1}} << "'timeout_seconds' must be a number";
        QTest::newRow("print_length a fraction") << QJsonObject{{"code", "1"}, {"print_length", 1.5}} << "'print_length' must be a whole number";
        QTest::newRow("a misspelt argument") << QJsonObject{{"cod", "1"}} << "unknown argument 'cod'";
    }
    void badArgumentValuesAreToolErrorsNamingTheArgument()
    {
        // The 2025-11-25 revision counts input validation errors as tool errors the model can
        // correct (SEP-1303), not protocol errors.
        QFETCH(QJsonObject, arguments);
        QFETCH(QString, named);
        initialize();
        const QJsonObject response = call(request(8, "tools/call", callParams(arguments)));
        QVERIFY2(!response.contains("error"), qPrintable(QString::fromUtf8(json(response))));
        QCOMPARE(response.value("result").toObject().value("isError"), QJsonValue(true));
        QVERIFY2(textOf(response).contains(named), qPrintable(textOf(response)));
        QCOMPARE(m_lisp->session.transcript().size(), 0); // nothing ran
    }

    // The one entry every transport uses tells what a message was and whether it was refused
    // as a whole; HTTP takes its status code from this.
    void theEntrySaysWhatEachMessageWasAndWhatItRefused_data()
    {
        using Kind = JsonRpc::Message::Kind;
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QJsonValue>("id");
        QTest::addColumn<int>("httpStatus");
        QTest::addColumn<int>("refusedWith"); // 0: not refused
        QTest::newRow("a request") << QByteArray(R"({"jsonrpc":"2.0","id":"r1","method":"ping"})") << int(Kind::Request) << QJsonValue("r1") << 200 << 0;
        QTest::newRow("an unknown method is answered, not refused")
            << QByteArray(R"({"jsonrpc":"2.0","id":2,"method":"nope"})") << int(Kind::Request) << QJsonValue(2) << 200 << 0;
        QTest::newRow("a notification") << QByteArray(R"({"jsonrpc":"2.0","method":"notifications/initialized"})")
                                        << int(Kind::Notification) << QJsonValue(QJsonValue::Undefined) << 202 << 0;
        QTest::newRow("a response") << QByteArray(R"({"jsonrpc":"2.0","id":99,"result":{}})") << int(Kind::Response) << QJsonValue(99) << 202 << 0;
        QTest::newRow("a batch") << QByteArray(R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])")
                                 << int(Kind::Batch) << QJsonValue(QJsonValue::Undefined) << 202 << 0;
        QTest::newRow("not JSON") << QByteArray("{not json") << int(Kind::Invalid) << QJsonValue(QJsonValue::Null) << 400 << -32700;
        QTest::newRow("jsonrpc 1.0") << QByteArray(R"({"jsonrpc":"1.0","id":3,"method":"ping"})") << int(Kind::Invalid) << QJsonValue(3) << 400 << -32600;
        QTest::newRow("id a boolean") << QByteArray(R"({"jsonrpc":"2.0","id":true,"method":"ping"})") << int(Kind::Invalid) << QJsonValue(QJsonValue::Null) << 400 << -32600;
    }
    void theEntrySaysWhatEachMessageWasAndWhatItRefused()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, kind);
        QFETCH(QJsonValue, id);
        QFETCH(int, httpStatus);
        QFETCH(int, refusedWith);
        initialize();
        const qsizetype before = m_sent.size();
        const McpServer::Received received = m_server->receive(m_peer, bytes);
        QCOMPARE(int(received.kind), kind);
        QCOMPARE(received.id, id);
        QCOMPARE(received.httpStatus, httpStatus);
        QCOMPARE(received.isRefused() ? received.refusal.value("error").toObject().value("code").toInt() : 0, refusedWith);
        if (received.isRefused()) // a stream transport writes the refusal like any answer
            QCOMPARE(m_sent.mid(before), QList<QJsonObject>{received.refusal});
        // Parsing alone (HTTP's first step) sees the same.
        const JsonRpc::Message parsed = McpServer::parse(bytes);
        QCOMPARE(int(parsed.kind()), kind);
    }

    // What HTTP learns of a message before it has a peer for it, so that it never reads the
    // message itself: whether it opens a session, needs an event stream, what it is about.
    void admissionSaysWhatARequestNeedsBeforeAnyPeerExists_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("declaredVersion"); // HTTP's MCP-Protocol-Version
        QTest::addColumn<bool>("opensSession");
        QTest::addColumn<bool>("stateless");
        QTest::addColumn<bool>("needsStream");
        QTest::addColumn<QString>("name"); // "-": none
        QTest::addColumn<int>("httpStatus");
        const QByteArray modern = R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{})";
        QTest::newRow("initialize") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})") << QString()
                                    << true << false << false << "-" << 200;
        QTest::newRow("a call with a progress token")
            << QByteArray(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"evaluate-lisp","_meta":{"progressToken":7}}})")
            << QString() << false << false << true << "evaluate-lisp" << 200;
        QTest::newRow("a call without") << QByteArray(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"apropos"}})")
                                        << QString() << false << false << false << "apropos" << 200;
        QTest::newRow("a modern call") << QByteArray(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"apropos",)" + modern + "}}}")
                                       << QStringLiteral("2026-07-28") << false << true << false << "apropos" << 200;
        QTest::newRow("a modern listen") << QByteArray(R"({"jsonrpc":"2.0","id":4,"method":"subscriptions/listen","params":{)" + modern + "}}}")
                                         << QStringLiteral("2026-07-28") << false << true << true << "-" << 200;
        QTest::newRow("modern initialize is not found") << QByteArray(R"({"jsonrpc":"2.0","id":5,"method":"initialize","params":{)" + modern + "}}}")
                                                        << QStringLiteral("2026-07-28") << false << true << false << "-" << 404;
        QTest::newRow("a version nobody speaks") << QByteArray(R"({"jsonrpc":"2.0","id":6,"method":"ping"})") << QStringLiteral("1999-01-01")
                                                 << false << false << false << "-" << 400;
        QTest::newRow("a notification") << QByteArray(R"({"jsonrpc":"2.0","method":"notifications/initialized"})") << QString()
                                        << false << false << false << "-" << 202;
    }
    void admissionSaysWhatARequestNeedsBeforeAnyPeerExists()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, declaredVersion);
        QFETCH(bool, opensSession);
        QFETCH(bool, stateless);
        QFETCH(bool, needsStream);
        QFETCH(QString, name);
        QFETCH(int, httpStatus);
        const JsonRpc::Message message = McpServer::parse(bytes);
        const McpServer::Received admission = m_server->admit(message, RequestEnvelope::of(message, declaredVersion));
        QCOMPARE(admission.httpStatus, httpStatus);
        QCOMPARE(admission.isRefused(), httpStatus >= 400);
        if (admission.isRefused())
            return;
        QCOMPARE(admission.opensSession, opensSession);
        QCOMPARE(admission.stateless, stateless);
        QCOMPARE(admission.needsStream, needsStream);
        QCOMPARE(admission.name.value_or(QStringLiteral("-")), name);
    }

    void notificationsGetNoResponse()
    {
        initialize();
        const qsizetype before = m_sent.size();
        send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
        send(R"({"jsonrpc":"2.0","method":"notifications/made-up","params":{"x":1}})");
        send(R"({"jsonrpc":"2.0","method":"ping"})");
        send(R"json({"jsonrpc":"2.0","method":"tools/call","params":{"name":"evaluate-lisp","arguments":{"code":"(+ 1 2)"}}})json");
        send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}})");
        send(R"({"jsonrpc":"2.0","method":"notifications/progress","params":"not an object"})");
        send(R"({"jsonrpc":"2.0","id":99,"result":{}})"); // a response to a request we never sent
        QCOMPARE(sentAfterSettling(before), QList<QJsonObject>());
        QCOMPARE(m_lisp->session.transcript().size(), 0); // the tools/call notification did not run
    }

    void idsAreEchoedExactly_data()
    {
        QTest::addColumn<QJsonValue>("id");
        QTest::newRow("string \"7\"") << QJsonValue("7");
        QTest::newRow("integer 7") << QJsonValue(7);
        QTest::newRow("zero") << QJsonValue(0);
        QTest::newRow("negative") << QJsonValue(-3);
        QTest::newRow("2^53-1") << QJsonValue(9007199254740991.0);
        QTest::newRow("empty string") << QJsonValue("");
        QTest::newRow("unicode string") << QJsonValue(QStringLiteral("réq-✓"));
    }
    void idsAreEchoedExactly()
    {
        QFETCH(QJsonValue, id);
        initialize();
        const qsizetype before = m_sent.size();
        send(json(request(id, "ping")));
        QVERIFY(QTest::qWaitFor([&] { return m_sent.size() > before; }, 5000));
        const QJsonObject response = m_sent.at(before);
        QCOMPARE(response.value("id").type(), id.type());
        QCOMPARE(response.value("id"), id);
        const QByteArray bytes = json(response);
        QVERIFY2(bytes.contains(json(QJsonObject{{"id", id}}).mid(1).chopped(1)), bytes.constData());
        // "7" and 7 are different requests: both in flight at once is fine.
        if (id == QJsonValue("7")) {
            send(json(request("7", "tools/call", callParams({{"code", "(sleep 0.3) :string"}}))));
            send(json(request(7, "tools/call", callParams({{"code", ":integer"}}))));
            QVERIFY(QTest::qWaitFor([&] { return responsesTo(7, m_sent).size() == 1 && responsesTo("7", m_sent).size() == 2; }, 10000));
            QCOMPARE(textOf(responsesTo("7", m_sent).last()), QStringLiteral("=> :STRING"));
            QCOMPARE(textOf(responsesTo(7, m_sent).first()), QStringLiteral("=> :INTEGER"));
        }
    }

    void aSecondCallWithTheIdOfOneInFlightIsRefused()
    {
        initialize();
        send(json(request(5, "tools/call", callParams({{"code", "(sleep 0.5) :first"}}))));
        const McpServer::Received second = m_server->receive(m_peer, json(request(5, "ping")));
        QVERIFY(second.isRefused()); // for every method: its answer would go where the first one's goes
        QCOMPARE(second.refusal.value("id"), QJsonValue(5));
        const QJsonObject refused = call(request(5, "tools/call", callParams({{"code", ":second"}})));
        QCOMPARE(refused.value("error").toObject().value("code").toInt(), -32600);
        QVERIFY(QTest::qWaitFor([&] { return responsesTo(5, m_sent).size() == 3; }, 10000)); // two refusals, then the answer
        QCOMPARE(textOf(responsesTo(5, m_sent).last()), QStringLiteral("=> :FIRST"));
    }

    void cancellationStopsARunningLoopAndSendsNoResponse()
    {
        initialize();
        QVERIFY(call(request(1, "tools/call", callParams({{"code", "(defvar *kept* :yes)"}}))).contains("result"));
        send(json(request(11, "tools/call", callParams({{"code", "(loop)"}}))));
        QVERIFY(waitRunning("(loop)"));
        const quint64 id = m_lisp->session.current()->id;
        send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":11,"reason":"changed my mind"}})");
        const JobPtr stopped = m_lisp->waitFor(id, 10000);
        QVERIFY(stopped);
        QCOMPARE(stopped->result.status, JobResult::Status::Interrupted);
        QTest::qWait(300);
        QCOMPARE(responsesTo(11, m_sent).size(), 0);
        QCOMPARE(textOf(call(request(12, "tools/call", callParams({{"code", "*kept*"}})))), QStringLiteral("=> :YES"));
        QCOMPARE(responsesTo(11, m_sent).size(), 0);
    }

    void cancellingAQueuedCallDropsItWithoutResponse()
    {
        initialize();
        send(json(request(20, "tools/call", callParams({{"code", "(sleep 0.5) :ran"}}))));
        send(json(request(21, "tools/call", callParams({{"code", "(defvar *should-not-exist* t)"}}))));
        send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":21}})");
        QVERIFY(QTest::qWaitFor([&] { return !responsesTo(20, m_sent).isEmpty(); }, 10000));
        QCOMPARE(textOf(responsesTo(20, m_sent).first()), QStringLiteral("=> :RAN"));
        QCOMPARE(textOf(call(request(22, "tools/call", callParams({{"code", "(boundp '*should-not-exist*)"}})))), QStringLiteral("=> NIL"));
        QCOMPARE(responsesTo(21, m_sent).size(), 0);
    }

    void aProgressTokenBringsIncreasingProgressWhileTheCodeRuns()
    {
        initialize();
        QList<QPair<qint64, QJsonObject>> timeline; // when each message for this call came
        QList<bool> ends;                            // and whether the peer was told it ends the request
        QElapsedTimer clock;
        clock.start();
        connect(m_peer, &McpPeer::message, this, [&](const QJsonObject &message, const QJsonValue &related, bool endsRequest) {
            timeline.append({clock.elapsed(), message});
            ends.append(endsRequest);
            QCOMPARE(related, QJsonValue(30));
        });
        send(json(request(30, "tools/call",
                          callParams({{"code", "(dotimes (i 6) (format t \"step ~D~%\" i) (finish-output) (sleep 0.5)) :done"}}, "tok-1"))));
        QVERIFY(QTest::qWaitFor([&] { return !responsesTo(30, m_sent).isEmpty(); }, 20000));
        const qsizetype answeredAt = timeline.size();
        QTest::qWait(1500); // none may follow the response

        QList<double> progress;
        for (qsizetype i = 0; i < timeline.size(); ++i) {
            const QJsonObject &message = timeline[i].second;
            if (message.value("method") != QJsonValue("notifications/progress"))
                continue;
            QVERIFY2(i < answeredAt, "progress after the response");
            const QJsonObject params = message.value("params").toObject();
            QCOMPARE(params.value("progressToken"), QJsonValue("tok-1"));
            progress << params.value("progress").toDouble();
            QVERIFY(params.value("message").isString());
        }
        QVERIFY2(progress.size() >= 2, qPrintable(QString::number(progress.size())));
        QCOMPARE(ends.count(true), 1); // the response, and only it, ends the request
        QVERIFY(ends.at(answeredAt - 1));
        for (qsizetype i = 1; i < progress.size(); ++i)
            QVERIFY(progress[i] > progress[i - 1]);
        QCOMPARE(textOf(responsesTo(30, m_sent).first()), QStringLiteral("[stdout]\nstep 0\nstep 1\nstep 2\nstep 3\nstep 4\nstep 5\n\n=> :DONE"));
    }

    void withoutAProgressTokenNoProgressIsSent()
    {
        initialize();
        const qsizetype before = m_sent.size();
        QVERIFY(call(request(31, "tools/call", callParams({{"code", "(sleep 1.3) 1"}}))).contains("result"));
        for (const QJsonObject &message : m_sent.mid(before))
            QVERIFY(message.value("method") != QJsonValue("notifications/progress"));
    }

    void finishedCallsAreReleased()
    {
        // A call kept alive by its own connections would also leave its Session::finished
        // handler connected, and every later evaluation would run all of them.
        initialize();
        // The call holds its trace: a trace that is gone is a call that is gone.
        QList<QWeakPointer<RequestTrace>> calls;
        connect(m_server.get(), &McpServer::requestTraced, this, [&calls](const RequestTracePtr &trace) {
            if (!trace->tool().isEmpty())
                calls << trace.toWeakRef();
        });
        QVERIFY(call(request(40, "tools/call", callParams({{"code", "(+ 1 2)"}}))).contains("result"));
        QVERIFY(call(request(41, "tools/call", callParams({{"code", "(/ 1 0)"}}))).contains("result"));
        QVERIFY(call(request(42, "tools/call", callParams({{"code", 42}}))).contains("result"));
        QVERIFY(call(request(43, "tools/call", callParams({{"code", "(sleep 1.2)"}}, "tok"))).contains("result"));
        send(json(request(44, "tools/call", callParams({{"code", "(loop)"}}))));
        QVERIFY(waitRunning("(loop)"));
        send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":44}})");
        QCOMPARE(calls.size(), 5);
        const bool released = QTest::qWaitFor([&calls] {
            return std::all_of(calls.begin(), calls.end(), [](const QWeakPointer<RequestTrace> &call) { return call.isNull(); });
        }, 10000);
        QStringList alive;
        for (qsizetype i = 0; i < calls.size(); ++i) {
            if (!calls[i].isNull())
                alive << QString::number(40 + i);
        }
        QVERIFY2(released, qPrintable(QStringLiteral("still alive: calls ") + alive.join(QStringLiteral(", "))));
    }

    void aClientIsToldWhatThePersonAndOtherClientsDid()
    {
        initialize();
        QList<QJsonObject> otherSent;
        McpPeer *other = newPeer(&otherSent);
        initialize(other, QStringLiteral("other-agent"));
        QVERIFY(m_lisp->eval(QStringLiteral("(defun persons-helper () 1)")));
        send(json(request(1, "tools/call", callParams({{"code", "(defvar *from-other* 2)"}}))), other);
        QVERIFY(QTest::qWaitFor([&] { return !responsesTo(1, otherSent).isEmpty(); }, 10000));

        // content[0] is exactly the seed's text; the digest is a block of its own (issue 12).
        const QJsonObject mine = call(request(2, "tools/call", callParams({{"code", "(+ 1 1)"}})));
        const QJsonArray content = mine.value("result").toObject().value("content").toArray();
        QCOMPARE(content.size(), 2);
        QCOMPARE(content.at(0).toObject().value("text").toString(), QStringLiteral("=> 2"));
        QCOMPARE(content.at(1).toObject().value("type").toString(), QStringLiteral("text"));
        const QString digest = content.at(1).toObject().value("text").toString();
        QVERIFY2(digest.startsWith(QStringLiteral("[Session activity since your last call]\n")), qPrintable(digest));
        QVERIFY2(digest.contains(QStringLiteral("- the person at ")) && digest.contains(QStringLiteral("(defun persons-helper () 1) => PERSONS-HELPER")), qPrintable(digest));
        QVERIFY2(digest.contains(QStringLiteral("- other-agent at ")) && digest.contains(QStringLiteral("(defvar *from-other* 2) => *FROM-OTHER*")), qPrintable(digest));
        QCOMPARE(mine.value("result").toObject().value("structuredContent").toObject().value("session_activity").toArray().size(), 2);
        // Told once only; and never about its own calls.
        const QJsonObject again = call(request(3, "tools/call", callParams({{"code", "(+ 2 2)"}})));
        QCOMPARE(again.value("result").toObject().value("content").toArray(), (QJsonArray{QJsonObject{{"type", "text"}, {"text", "=> 4"}}}));
    }
};

QTEST_GUILESS_MAIN(TestMcpProtocol)
#include "tst_mcpprotocol.moc"

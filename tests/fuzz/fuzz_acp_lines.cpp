// libFuzzer target: the lines an ACP agent writes to Lisp Duet, through AcpConnection as
// AgentProcess hands them over, with the client's handlers behind it: session/update into a
// Conversation (every reader of mcp/acp/AcpWire), session/request_permission into an
// AgentSession (PermissionRequest, answered or cancelled by the input's own bytes), and answers
// to the requests a client has in flight (initialize, session/new, session/prompt) read as
// AcpClient reads them. Checks: every line we write is one JSON-RPC object without a newline,
// and there are never more answers than
// the agent sent lines. Input: lines separated by newlines.
//
// FUZZ_CORPUS: acp
// FUZZ_DICT: acp.dict

#include "acp/AcpConnection.h"
#include "acp/AcpWire.h"
#include "acp/AgentSession.h"

#include <QCoreApplication>
#include <QJsonDocument>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    qputenv("QT_LOGGING_RULES", "*.debug=false;*.info=false;*.warning=false");
    static QCoreApplication app(*argc, *argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const QList<QByteArray> lines = input.split('\n');
    qsizetype answers = 0;
    AcpConnection connection([&](const QByteArray &line) {
        if (line.contains('\n'))
            abort(); // a message must stay on its line
        const QJsonObject message = QJsonDocument::fromJson(line).object();
        if (message.value(QStringLiteral("jsonrpc")).toString() != QLatin1String("2.0"))
            abort();
        if (!message.contains(QStringLiteral("method")) && ++answers > lines.size())
            abort(); // more answers than the agent's lines: something was answered twice
    });
    AgentSession session(nullptr, QStringLiteral("s"));
    const bool selectFirst = size % 2 == 0;
    QObject::connect(&session, &AgentSession::permissionRequested, &session, [selectFirst](PermissionRequest *request) {
        if (selectFirst)
            request->select(request->options().constFirst().id);
        else
            request->cancel();
    });
    connection.onNotification(QString::fromLatin1(AcpWire::Method::SessionUpdate), [&](const QJsonObject &params) {
        (void)AcpWire::unknownUpdateFields(params);
        session.receiveUpdate(params);
    });
    connection.onRequest(QString::fromLatin1(AcpWire::Method::RequestPermission), [&](const QJsonObject &params, const AcpResponder &responder) {
        session.receivePermissionRequest(params, responder);
    });
    connection.request(QString::fromLatin1(AcpWire::Method::Initialize), {}, nullptr, [](const AcpConnection::Reply &reply) {
        (void)AcpWire::readInitialize(reply.result);
    });
    connection.request(QString::fromLatin1(AcpWire::Method::SessionNew), {}, nullptr, [](const AcpConnection::Reply &reply) {
        (void)AcpWire::readSessionState(reply.result);
        (void)AcpWire::readSessionList(reply.result);
    });
    connection.request(QString::fromLatin1(AcpWire::Method::SessionPrompt), {}, nullptr, [](const AcpConnection::Reply &reply) {
        Acp::Usage usage;
        AcpWire::readPromptUsage(reply.result, usage);
        (void)AcpWire::readStopReason(reply.result);
        (void)reply.error.describe();
    });
    for (const QByteArray &line : lines)
        connection.receiveLine(line);
    const Conversation *conversation = session.conversation();
    for (int i = 0; i < conversation->count(); ++i) {
        const Conversation::Entry &entry = conversation->entry(i);
        if (entry.kind == Conversation::Entry::Kind::ToolCall && !conversation->toolCall(entry.toolCallId))
            abort(); // every tool call row has its call
        (void)entry.text();
    }
    session.cancel();
    connection.close(QStringLiteral("end of input"));
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return 0;
}

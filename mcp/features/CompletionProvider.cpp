#include "CompletionProvider.h"

#include "client/EngineProtocol.h"
#include "jsonrpc/JsonRpc.h"
#include "PromptProvider.h"
#include "ResourceProvider.h"
#include "server/McpServer.h"
#include "session/Session.h"

#include <QJsonArray>

namespace {
QString keyOf(const QString &refType, const QString &refName, const QString &argument)
{
    return refType + QLatin1Char(' ') + refName + QLatin1Char(' ') + argument;
}

const QString PromptRef = QStringLiteral("ref/prompt");
const QString ResourceRef = QStringLiteral("ref/resource");
} // namespace

CompletionProvider::CompletionProvider(McpServer *server, Session *session, QObject *parent)
    : QObject(parent), m_server(server), m_session(session)
{
    const QString prompt = QString::fromLatin1(PromptProvider::ExplainSymbolPrompt);
    const QString symbolTemplate = QString::fromLatin1(ResourceProvider::SymbolTemplate);
    m_kinds = {{keyOf(PromptRef, prompt, QStringLiteral("symbol")), Kind::Symbol},
               {keyOf(PromptRef, prompt, QStringLiteral("package")), Kind::Package},
               {keyOf(ResourceRef, symbolTemplate, QStringLiteral("name")), Kind::Symbol},
               {keyOf(ResourceRef, symbolTemplate, QStringLiteral("package")), Kind::Package}};
    server->capabilities().insert(QStringLiteral("completions"), QJsonObject{});
    server->addMethod(QStringLiteral("completion/complete"), [this](const McpResponder &responder, const QJsonObject &params) {
        complete(responder, params);
    });
}

CompletionProvider::Kind CompletionProvider::kindOf(const McpResponder &responder, const QJsonObject &params) const
{
    const QJsonObject ref = params.value(QStringLiteral("ref")).toObject();
    const QString type = ref.value(QStringLiteral("type")).toString();
    const QString argument = params.value(QStringLiteral("argument")).toObject().value(QStringLiteral("name")).toString();
    if (type == PromptRef) {
        const QString name = ref.value(QStringLiteral("name")).toString();
        if (!PromptProvider::names().contains(name)) {
            responder.error(JsonRpc::InvalidParams, QStringLiteral("Unknown prompt '%1'; prompts: %2")
                                                        .arg(name, PromptProvider::names().join(QStringLiteral(", "))));
            return Kind::Refused;
        }
        return m_kinds.value(keyOf(type, name, argument), Kind::None);
    }
    if (type == ResourceRef) {
        // A template, or one of the fixed resources, which have no arguments to complete.
        const QString uri = ref.value(QStringLiteral("uri")).toString();
        return m_kinds.value(keyOf(type, uri, argument), Kind::None);
    }
    responder.error(JsonRpc::InvalidParams,
                    QStringLiteral("completion/complete needs \"ref\" with \"type\" \"ref/prompt\" (and \"name\") or \"ref/resource\" (and \"uri\")"));
    return Kind::Refused;
}

void CompletionProvider::complete(const McpResponder &responder, const QJsonObject &params)
{
    const QJsonValue argument = params.value(QStringLiteral("argument"));
    if (!argument.toObject().value(QStringLiteral("name")).isString() || !argument.toObject().value(QStringLiteral("value")).isString()) {
        responder.error(JsonRpc::InvalidParams, QStringLiteral("completion/complete needs \"argument\": {\"name\": ..., \"value\": ...} with strings"));
        return;
    }
    const Kind kind = kindOf(responder, params);
    if (kind == Kind::Refused)
        return;
    const auto answer = [responder](const QStringList &values, int total) {
        responder.result({{QStringLiteral("completion"), QJsonObject{{QStringLiteral("values"), QJsonArray::fromStringList(values)},
                                                                     {QStringLiteral("total"), total},
                                                                     {QStringLiteral("hasMore"), total > values.size()}}}});
    };
    if (kind == Kind::None) {
        answer({}, 0); // an argument we offer nothing for
        return;
    }
    const QString value = argument.toObject().value(QStringLiteral("value")).toString().trimmed();
    if (kind == Kind::Package) {
        m_session->query(EngineProtocol::packageCompletion(value, MaxValues), [answer](const QJsonObject &json) {
            const EngineProtocol::CompletionReply reply(json);
            QStringList values;
            for (const QJsonValue &name : reply.completions())
                values << name.toString();
            answer(values, reply.ok() ? reply.total() : 0);
        });
        return;
    }
    // Symbols: in the package the client chose for the other argument (its own symbols), else
    // as the session's package sees them. A value the client qualified itself wins.
    const QString package = params.value(QStringLiteral("context")).toObject().value(QStringLiteral("arguments")).toObject()
                                .value(QStringLiteral("package")).toString().trimmed();
    const QString qualifier = package.isEmpty() || value.contains(QLatin1Char(':')) ? QString() : package + QStringLiteral("::");
    m_session->query(EngineProtocol::completion(qualifier + value, MaxValues), [answer, qualifier](const QJsonObject &json) {
        const EngineProtocol::CompletionReply reply(json);
        QStringList values;
        for (const QJsonValue &name : reply.completions())
            values << name.toString().mid(qualifier.size()); // the engine repeats the qualifier we sent
        answer(values, reply.ok() ? reply.total() : 0);
    });
}

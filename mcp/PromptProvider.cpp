#include "PromptProvider.h"

#include "JsonRpc.h"
#include "McpServer.h"

#include <QJsonArray>

namespace {
struct Prompt
{
    const char *name;
    const char *title;
    const char *description;
    const char *text;
};

const Prompt Prompts[] = {
    {"catch-up", "Catch up with the session",
     "Read what has been defined and evaluated in the shared Lisp session, then summarise it.",
     "Read the resources lisp-duet://session/definitions and lisp-duet://session/transcript of the Lisp Duet server, "
     "then tell me in a few lines what is defined in the shared Common Lisp session, what was evaluated last, and "
     "anything that failed. Do not evaluate anything yet."},
    {"test-definitions", "Test the latest definitions",
     "Write and run small checks of the functions defined most recently in the shared session.",
     "Look at the most recent definitions in the shared Lisp session (resource lisp-duet://session/definitions), "
     "then use evaluate-lisp to run a few small checks of them with typical and edge-case inputs. Report what "
     "passed and what did not, without redefining anything."},
};

QJsonObject descriptor(const Prompt &prompt)
{
    return {{QStringLiteral("name"), QString::fromLatin1(prompt.name)},
            {QStringLiteral("title"), QString::fromLatin1(prompt.title)},
            {QStringLiteral("description"), QString::fromLatin1(prompt.description)},
            {QStringLiteral("arguments"), QJsonArray{}}};
}
} // namespace

PromptProvider::PromptProvider(McpServer *server, QObject *parent) : QObject(parent)
{
    server->capabilities().insert(QStringLiteral("prompts"), QJsonObject{{QStringLiteral("listChanged"), false}});
    server->addMethod(QStringLiteral("prompts/list"), [](McpPeer *peer, const QJsonValue &id, const QJsonObject &) {
        QJsonArray list;
        for (const Prompt &prompt : Prompts)
            list.append(descriptor(prompt));
        peer->send(JsonRpc::response(id, QJsonObject{{QStringLiteral("prompts"), list}}), id);
    });
    server->addMethod(QStringLiteral("prompts/get"), [](McpPeer *peer, const QJsonValue &id, const QJsonObject &params) {
        const QString name = params.value(QStringLiteral("name")).toString();
        for (const Prompt &prompt : Prompts) {
            if (name != QLatin1String(prompt.name))
                continue;
            const QJsonObject message{{QStringLiteral("role"), QStringLiteral("user")},
                                      {QStringLiteral("content"), QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                                              {QStringLiteral("text"), QString::fromLatin1(prompt.text)}}}};
            peer->send(JsonRpc::response(id, QJsonObject{{QStringLiteral("description"), QString::fromLatin1(prompt.description)},
                                                         {QStringLiteral("messages"), QJsonArray{message}}}),
                       id);
            return;
        }
        QStringList names;
        for (const Prompt &prompt : Prompts)
            names << QString::fromLatin1(prompt.name);
        peer->send(JsonRpc::error(id, JsonRpc::InvalidParams, QStringLiteral("Unknown prompt '%1'; prompts: %2").arg(name, names.join(QStringLiteral(", ")))), id);
    });
}

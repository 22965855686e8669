#include "PromptProvider.h"

#include "jsonrpc/JsonRpc.h"
#include "server/McpServer.h"

#include <QJsonArray>

namespace {
struct PromptArgument
{
    const char *name;
    const char *description;
    bool required;
    const char *given = "%1";  // how the prompt's text says a value the client gave
    const char *absent = "";   // what it says when an optional one was not given
};

struct Prompt
{
    const char *name;
    const char *title;
    const char *description;
    QList<PromptArgument> arguments;
    const char *text; // %1, %2... are the arguments, in order
};

const Prompt Prompts[] = {
    {"catch-up", "Catch up with the session",
     "Read what has been defined and evaluated in the shared Lisp session, then summarise it.", {},
     "Read the resources lisp-duet://session/definitions and lisp-duet://session/transcript of the Lisp Duet server, "
     "then tell me in a few lines what is defined in the shared Common Lisp session, what was evaluated last, and "
     "anything that failed. Do not evaluate anything yet."},
    {"test-definitions", "Test the latest definitions",
     "Write and run small checks of the functions defined most recently in the shared session.", {},
     "Look at the most recent definitions in the shared Lisp session (resource lisp-duet://session/definitions), "
     "then use evaluate-lisp to run a few small checks of them with typical and edge-case inputs. Report what "
     "passed and what did not, without redefining anything."},
    {PromptProvider::ExplainSymbolPrompt, "Explain a symbol",
     "Explain what a symbol of the live image is and how the session uses it.",
     {{"symbol", "The symbol, e.g. mapcar or my-function (completes from the live image)", true},
      {"package", "The package to read it in (completes from the live image; default: the session's current package)", false,
       "in package %1", "in the session's current package"}},
     "Use describe-symbol on %1 (%2) in the shared Lisp session and explain in a few lines what it is: what it "
     "names, its lambda list and documentation, and where it was defined. Then look at session-transcript for how "
     "the session used it, and, if it is a function, show one small example call with evaluate-lisp. Define nothing."},
};

QJsonObject descriptor(const Prompt &prompt)
{
    QJsonArray arguments;
    for (const PromptArgument &argument : prompt.arguments) {
        arguments.append(QJsonObject{{QStringLiteral("name"), QString::fromLatin1(argument.name)},
                                     {QStringLiteral("description"), QString::fromLatin1(argument.description)},
                                     {QStringLiteral("required"), argument.required}});
    }
    return {{QStringLiteral("name"), QString::fromLatin1(prompt.name)},
            {QStringLiteral("title"), QString::fromLatin1(prompt.title)},
            {QStringLiteral("description"), QString::fromLatin1(prompt.description)},
            {QStringLiteral("arguments"), arguments}};
}

// The prompt's text with the client's arguments, or an empty string and the problem.
QString filledIn(const Prompt &prompt, const QJsonObject &given, QString *problem)
{
    QString text = QString::fromLatin1(prompt.text);
    for (const PromptArgument &argument : prompt.arguments) {
        const QString name = QString::fromLatin1(argument.name);
        const QJsonValue value = given.value(name);
        if (!value.isUndefined() && !value.isString()) {
            *problem = QStringLiteral("PromptArgument '%1' of prompt '%2' must be a string").arg(name, QString::fromLatin1(prompt.name));
            return {};
        }
        const QString trimmed = value.toString().trimmed();
        if (trimmed.isEmpty() && argument.required) {
            *problem = QStringLiteral("Prompt '%1' needs the argument '%2': %3")
                           .arg(QString::fromLatin1(prompt.name), name, QString::fromLatin1(argument.description));
            return {};
        }
        text = text.arg(trimmed.isEmpty() ? QString::fromLatin1(argument.absent) : QString::fromLatin1(argument.given).arg(trimmed));
    }
    return text;
}
} // namespace

PromptProvider::PromptProvider(McpServer *server, QObject *parent) : QObject(parent)
{
    server->capabilities().insert(QStringLiteral("prompts"), QJsonObject{{QStringLiteral("listChanged"), false}});
    server->addMethod(QStringLiteral("prompts/list"), [](const McpResponder &responder, const QJsonObject &) {
        QJsonArray list;
        for (const Prompt &prompt : Prompts)
            list.append(descriptor(prompt));
        responder.result({{QStringLiteral("prompts"), list}});
    });
    server->addMethod(QStringLiteral("prompts/get"), [](const McpResponder &responder, const QJsonObject &params) {
        const QString name = params.value(QStringLiteral("name")).toString();
        for (const Prompt &prompt : Prompts) {
            if (name != QLatin1String(prompt.name))
                continue;
            QString problem;
            const QString text = filledIn(prompt, params.value(QStringLiteral("arguments")).toObject(), &problem);
            if (!problem.isEmpty()) {
                responder.error(JsonRpc::InvalidParams, problem);
                return;
            }
            const QJsonObject message{{QStringLiteral("role"), QStringLiteral("user")},
                                      {QStringLiteral("content"), QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                                              {QStringLiteral("text"), text}}}};
            responder.result({{QStringLiteral("description"), QString::fromLatin1(prompt.description)},
                              {QStringLiteral("messages"), QJsonArray{message}}});
            return;
        }
        responder.error(JsonRpc::InvalidParams, QStringLiteral("Unknown prompt '%1'; prompts: %2").arg(name, names().join(QStringLiteral(", "))));
    });
}

QStringList PromptProvider::names()
{
    QStringList list;
    for (const Prompt &prompt : Prompts)
        list << QString::fromLatin1(prompt.name);
    return list;
}

QStringList PromptProvider::argumentNames(const QString &prompt)
{
    QStringList list;
    for (const Prompt &p : Prompts) {
        if (prompt != QLatin1String(p.name))
            continue;
        for (const PromptArgument &argument : p.arguments)
            list << QString::fromLatin1(argument.name);
    }
    return list;
}

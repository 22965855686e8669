#pragma once

#include <QHash>
#include <QObject>

class McpResponder;
class McpServer;
class Session;

// completion/complete for the arguments of prompts and resource templates that name Lisp
// things, answered from the live image (the engine's "complete" operation, which runs no user
// code and answers while an evaluation runs): package names, and symbol names in the package
// the client already chose (context.arguments.package) or visible from the session's package.
// Declares the `completions` capability.
class CompletionProvider : public QObject
{
    Q_OBJECT
public:
    static constexpr int MaxValues = 100; // the spec's limit per response

    CompletionProvider(McpServer *server, Session *session, QObject *parent = nullptr);

private:
    enum class Kind { Refused, None, Package, Symbol };
    // What the argument of a prompt or a template completes to (None: nothing we offer);
    // Refused after answering the error when the reference itself is unknown.
    Kind kindOf(const McpResponder &responder, const QJsonObject &params) const;
    void complete(const McpResponder &responder, const QJsonObject &params);

    McpServer *m_server;
    Session *m_session;
    QHash<QString, Kind> m_kinds; // "ref/prompt explain-symbol symbol" -> Symbol
};

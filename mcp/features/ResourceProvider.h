#pragma once

#include "session/Job.h"

#include <QObject>

class McpPeer;
class McpResponder;
class McpServer;
class Session;

// The session as MCP resources: lisp-duet://session/transcript (every finished evaluation,
// newest last) and lisp-duet://session/definitions (the definitions made so far, their latest
// source, with what the image holds now from the engine's "definitions" op), and the template
// lisp-duet://symbol/{package}/{name} (what describe-symbol says of that symbol). Serves
// resources/list, templates/list, read, subscribe and unsubscribe, and tells subscribers when
// a resource changed (after every finished evaluation).
class ResourceProvider : public QObject
{
    Q_OBJECT
public:
    static constexpr auto TranscriptUri = "lisp-duet://session/transcript";
    static constexpr auto DefinitionsUri = "lisp-duet://session/definitions";
    static constexpr auto SymbolTemplate = "lisp-duet://symbol/{package}/{name}";
    static constexpr int TranscriptEntries = 200; // the newest ones: a resource an agent can read
    // The URI of a symbol's resource (each part percent-encoded), and the parts of one.
    static QString symbolUri(const QString &package, const QString &name);
    static bool parseSymbolUri(const QString &uri, QString *package, QString *name);

    ResourceProvider(McpServer *server, Session *session, QObject *parent = nullptr);

    QString transcriptText() const;
    // The source of the session's successful defining forms (from the transcript).
    QString definitionsText() const;
    // The engine's "definitions" reply (what the image holds now) as comment lines.
    static QString imageDefinitionsText(const QJsonObject &answer);

    struct Definition
    {
        QString kind;  // "defun", "defvar"...
        QString name;
        QString code;  // the whole top-level form
        JobPtr job;
    };
    // Top-level defining forms of successful evaluations, the latest per (kind, name).
    QList<Definition> definitions() const;
    static QList<QPair<QString, QString>> definingForms(const QString &code); // (kind+name key, form)

private:
    void notifyUpdated(const QString &uri);
    QJsonObject resourceDescriptor(const QString &uri) const;
    // Reads a symbol's resource through the describe-symbol tool, so both say the same.
    void readSymbol(const McpResponder &responder, const QString &uri);

    McpServer *m_server;
    Session *m_session;
};

#include "ResourceProvider.h"

#include "client/EngineProtocol.h"
#include "lispsource/LispFile.h"
#include "server/McpErrors.h"
#include "server/McpServer.h"
#include "session/JobOutcome.h"
#include "session/JobSummary.h"
#include "session/Session.h"
#include "toolapi/ToolRegistry.h"

#include <QJsonArray>
#include <QUrl>

namespace {
constexpr auto SymbolUriPrefix = "lisp-duet://symbol/";

QString firstLines(const QString &text, int lines)
{
    QStringList list = text.split(QLatin1Char('\n'));
    if (list.size() > lines) {
        list = list.mid(0, lines);
        list << QStringLiteral("...");
    }
    return list.join(QLatin1Char('\n'));
}

void notFound(const McpResponder &responder, const QString &uri, const QString &why = {})
{
    // McpServer says -32602 instead to 2026-07-28 requests.
    const QString message = why.isEmpty() ? QStringLiteral("Resource not found: %1").arg(uri)
                                          : QStringLiteral("Resource not found: %1 (%2)").arg(uri, why);
    responder.error(McpErrors::ResourceNotFound, message, QJsonObject{{QStringLiteral("uri"), uri}});
}

} // namespace

ResourceProvider::ResourceProvider(McpServer *server, Session *session, QObject *parent)
    : QObject(parent), m_server(server), m_session(session)
{
    m_server->capabilities().insert(QStringLiteral("resources"),
                                    QJsonObject{{QStringLiteral("subscribe"), true}, {QStringLiteral("listChanged"), true}});

    m_server->addMethod(QStringLiteral("resources/list"), [this](const McpResponder &responder, const QJsonObject &) {
        responder.result({{QStringLiteral("resources"), QJsonArray{resourceDescriptor(QString::fromLatin1(TranscriptUri)),
                                                                  resourceDescriptor(QString::fromLatin1(DefinitionsUri))}}});
    });
    m_server->addMethod(QStringLiteral("resources/templates/list"), [](const McpResponder &responder, const QJsonObject &) {
        const QJsonObject symbol{
            {QStringLiteral("uriTemplate"), QString::fromLatin1(SymbolTemplate)},
            {QStringLiteral("name"), QStringLiteral("symbol")},
            {QStringLiteral("title"), QStringLiteral("Lisp symbol")},
            {QStringLiteral("description"), QStringLiteral("What a symbol of the live image names: kinds, lambda list, documentation, value, "
                                                           "and where it was defined (as describe-symbol says). package and name complete "
                                                           "from the image, e.g. lisp-duet://symbol/COMMON-LISP/MAPCAR.")},
            {QStringLiteral("mimeType"), QStringLiteral("text/plain")}};
        responder.result({{QStringLiteral("resourceTemplates"), QJsonArray{symbol}}});
    });
    m_server->addMethod(QStringLiteral("resources/read"), [this](const McpResponder &responder, const QJsonObject &params) {
        const QString uri = params.value(QStringLiteral("uri")).toString();
        const auto reply = [responder, uri](const QString &text) {
            const QJsonObject contents{{QStringLiteral("uri"), uri}, {QStringLiteral("mimeType"), QStringLiteral("text/plain")}, {QStringLiteral("text"), text}};
            responder.result({{QStringLiteral("contents"), QJsonArray{contents}}});
        };
        if (uri == QLatin1String(TranscriptUri)) {
            reply(transcriptText());
        } else if (uri.startsWith(QLatin1String(SymbolUriPrefix))) {
            readSymbol(responder, uri);
        } else if (uri == QLatin1String(DefinitionsUri)) {
            // What the image holds now (the engine's service thread answers even while an
            // evaluation runs), then the source of what the session defined.
            m_session->query(EngineProtocol::definitions(), [this, reply](const QJsonObject &answer) {
                reply(imageDefinitionsText(answer) + definitionsText());
            });
        } else {
            notFound(responder, uri);
        }
    });
    const auto subscription = [](bool subscribe) {
        return [subscribe](const McpResponder &responder, const QJsonObject &params) {
            const QString uri = params.value(QStringLiteral("uri")).toString();
            if (uri != QLatin1String(TranscriptUri) && uri != QLatin1String(DefinitionsUri)) {
                notFound(responder, uri);
                return;
            }
            if (subscribe)
                responder.peer()->subscriptions().insert(uri);
            else
                responder.peer()->subscriptions().remove(uri);
            responder.result({});
        };
    };
    // 2026-07-28 clients use subscriptions/listen instead.
    m_server->addMethod(QStringLiteral("resources/subscribe"), subscription(true), McpServer::Eras::Legacy);
    m_server->addMethod(QStringLiteral("resources/unsubscribe"), subscription(false), McpServer::Eras::Legacy);

    connect(m_session, &Session::finished, this, [this] {
        notifyUpdated(QString::fromLatin1(TranscriptUri));
        notifyUpdated(QString::fromLatin1(DefinitionsUri));
    });
    connect(m_session, &Session::sessionReset, this, [this] {
        m_server->broadcast(QStringLiteral("notifications/resources/list_changed"));
        notifyUpdated(QString::fromLatin1(DefinitionsUri));
    });
}

QJsonObject ResourceProvider::resourceDescriptor(const QString &uri) const
{
    const bool transcript = uri == QLatin1String(TranscriptUri);
    return {{QStringLiteral("uri"), uri},
            {QStringLiteral("name"), transcript ? QStringLiteral("transcript") : QStringLiteral("definitions")},
            {QStringLiteral("title"), transcript ? QStringLiteral("Session transcript") : QStringLiteral("Session definitions")},
            {QStringLiteral("description"),
             transcript ? QStringLiteral("The newest %1 evaluations of the shared session, by the person and every agent, with their results.").arg(TranscriptEntries)
                        : QStringLiteral("The definitions (defun, defvar, defmacro, defclass...) made in the shared session so far, with their latest source.")},
            {QStringLiteral("mimeType"), QStringLiteral("text/plain")}};
}

void ResourceProvider::notifyUpdated(const QString &uri)
{
    m_server->notifyResourceUpdated(uri);
}

QString ResourceProvider::symbolUri(const QString &package, const QString &name)
{
    return QLatin1String(SymbolUriPrefix) + QString::fromLatin1(QUrl::toPercentEncoding(package)) + QLatin1Char('/')
        + QString::fromLatin1(QUrl::toPercentEncoding(name));
}

bool ResourceProvider::parseSymbolUri(const QString &uri, QString *package, QString *name)
{
    if (!uri.startsWith(QLatin1String(SymbolUriPrefix)))
        return false;
    const QStringList parts = uri.mid(qsizetype(qstrlen(SymbolUriPrefix))).split(QLatin1Char('/'));
    if (parts.size() != 2)
        return false;
    *package = QUrl::fromPercentEncoding(parts.at(0).toUtf8());
    *name = QUrl::fromPercentEncoding(parts.at(1).toUtf8());
    return !package->trimmed().isEmpty() && !name->trimmed().isEmpty();
}

void ResourceProvider::readSymbol(const McpResponder &responder, const QString &uri)
{
    QString package, name;
    Tool *describe = m_server->tools()->find(QStringLiteral("describe-symbol"));
    if (!parseSymbolUri(uri, &package, &name) || !describe) {
        notFound(responder, uri);
        return;
    }
    McpPeer *peer = responder.peer();
    const auto call = ToolCallPtr::create(describe->name(), QJsonObject{{QStringLiteral("symbol"), name}, {QStringLiteral("package"), package}},
                                          peer ? peer->origin() : Origin::system(QStringLiteral("resources")), false);
    // The tool holds the call until it finishes; this connection does not need to.
    connect(call.data(), &ToolCall::finished, this, [responder, uri](const ToolResult &result) {
        if (result.isError || !result.structured.value(QStringLiteral("found")).toBool()) {
            notFound(responder, uri, result.text);
            return;
        }
        const QJsonObject contents{{QStringLiteral("uri"), uri}, {QStringLiteral("mimeType"), QStringLiteral("text/plain")},
                                   {QStringLiteral("text"), result.text}};
        responder.result({{QStringLiteral("contents"), QJsonArray{contents}}});
    });
    describe->call(call);
}

QString ResourceProvider::transcriptText() const
{
    const QList<JobPtr> &all = m_session->transcript();
    QStringList parts;
    for (qsizetype i = qMax<qsizetype>(0, all.size() - TranscriptEntries); i < all.size(); ++i) {
        const Job &e = *all.at(i);
        QString entry = QStringLiteral(";; #%1 %2 (%3) at %4 in %5\n%6\n%7")
                            .arg(e.sequence)
                            .arg(e.request.origin.name, e.request.origin.kindName(), e.finishedAt.toString(Qt::ISODate), e.result.package.isEmpty() ? e.request.package : e.result.package,
                                 JobSummary::subject(e.request).trimmed(), firstLines(JobOutcome::text(e.result), 20));
        if (!e.result.stdoutText.isEmpty())
            entry += QStringLiteral("\n;; output:\n") + firstLines(e.result.stdoutText.trimmed(), 20);
        parts << entry;
    }
    if (parts.isEmpty())
        return QStringLiteral(";; Nothing has been evaluated in this session yet.\n");
    return parts.join(QStringLiteral("\n\n")) + QLatin1Char('\n');
}

QList<QPair<QString, QString>> ResourceProvider::definingForms(const QString &code)
{
    // The same reader as the file tools and the definitions panel (engine/lispsource).
    QList<QPair<QString, QString>> forms;
    const LispFile file(code);
    for (const TopLevelForm &form : file.forms()) {
        const DefinedName &defined = form.definition;
        if (!defined.isValid() || defined.kind == QStringLiteral("package"))
            continue;
        forms.append({defined.operatorName + QLatin1Char(' ') + defined.name, code.mid(form.start, form.end - form.start)});
    }
    return forms;
}

QList<ResourceProvider::Definition> ResourceProvider::definitions() const
{
    QList<Definition> list;
    QHash<QString, qsizetype> index;
    for (const JobPtr &e : m_session->transcript()) {
        if (!e->result.ok() || e->request.kind != EngineJob::Kind::Evaluate)
            continue;
        for (const auto &[key, form] : definingForms(e->request.code)) {
            const qsizetype space = key.indexOf(QLatin1Char(' '));
            Definition d{key.left(space), key.mid(space + 1), form, e};
            const auto it = index.constFind(key);
            if (it != index.constEnd()) {
                list[*it] = d;
            } else {
                index.insert(key, list.size());
                list.append(d);
            }
        }
    }
    return list;
}

QString ResourceProvider::imageDefinitionsText(const QJsonObject &answer)
{
    const EngineProtocol::DefinitionsReply reply(answer);
    if (reply.failed() || !reply.hasDefinitions())
        return QStringLiteral(";; The engine could not list the image's definitions right now (%1).\n\n").arg(reply.errorMessage());
    QStringList lines{QStringLiteral(";; Defined in the image now (name, lambda list or value):")};
    for (const QJsonValue &value : reply.definitions()) {
        const EngineProtocol::DefinitionsReply::Entry entry(value);
        QString line = QStringLiteral(";;   %1 %2").arg(entry.kind(), entry.name());
        if (entry.lambdaList().isString())
            line += QLatin1Char(' ') + entry.lambdaList().toString();
        else if (entry.value().isString())
            line += QStringLiteral(" = ") + entry.value().toString().left(200);
        lines << line;
    }
    if (lines.size() == 1)
        lines << QStringLiteral(";;   (nothing yet)");
    return lines.join(QLatin1Char('\n')) + QStringLiteral("\n\n;; Source of the definitions the session evaluated, latest first-seen order:\n\n");
}

QString ResourceProvider::definitionsText() const
{
    const QList<Definition> list = definitions();
    if (list.isEmpty())
        return QStringLiteral(";; No definitions have been made in this session yet.\n");
    QStringList parts;
    for (const Definition &d : list) {
        parts << QStringLiteral(";; %1 %2 (by %3, #%4)\n%5")
                     .arg(d.kind, d.name, d.job->request.origin.name)
                     .arg(d.job->sequence)
                     .arg(d.code.trimmed());
    }
    return parts.join(QStringLiteral("\n\n")) + QLatin1Char('\n');
}

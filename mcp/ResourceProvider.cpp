#include "ResourceProvider.h"

#include "JsonRpc.h"
#include "McpServer.h"
#include "Session.h"

#include <QJsonArray>
#include <QPointer>
#include <QRegularExpression>

namespace {
constexpr int ResourceNotFound = -32002; // the MCP spec's code for an unknown resource URI

QString firstLines(const QString &text, int lines)
{
    QStringList list = text.split(QLatin1Char('\n'));
    if (list.size() > lines) {
        list = list.mid(0, lines);
        list << QStringLiteral("...");
    }
    return list.join(QLatin1Char('\n'));
}

QString outcome(const Job &job)
{
    const JobResult &result = job.result;
    if (result.ok())
        return result.values.isEmpty() ? QStringLiteral("; No values") : QStringLiteral("=> ") + result.values.join(QStringLiteral("\n=> "));
    if (result.status == JobResult::Status::Error)
        return QStringLiteral("[ERROR] %1: %2").arg(result.error.type, result.error.message);
    return QStringLiteral("[%1] %2").arg(JobResult::statusName(result.status).toUpper(), result.error.message);
}
} // namespace

ResourceProvider::ResourceProvider(McpServer *server, Session *session, QObject *parent)
    : QObject(parent), m_server(server), m_session(session)
{
    m_server->capabilities().insert(QStringLiteral("resources"),
                                    QJsonObject{{QStringLiteral("subscribe"), true}, {QStringLiteral("listChanged"), true}});

    m_server->addMethod(QStringLiteral("resources/list"), [this](McpPeer *peer, const QJsonValue &id, const QJsonObject &) {
        peer->send(JsonRpc::response(id, QJsonObject{{QStringLiteral("resources"),
                                                      QJsonArray{resourceDescriptor(QString::fromLatin1(TranscriptUri)),
                                                                 resourceDescriptor(QString::fromLatin1(DefinitionsUri))}}}),
                   id);
    });
    m_server->addMethod(QStringLiteral("resources/templates/list"), [](McpPeer *peer, const QJsonValue &id, const QJsonObject &) {
        peer->send(JsonRpc::response(id, QJsonObject{{QStringLiteral("resourceTemplates"), QJsonArray{}}}), id);
    });
    m_server->addMethod(QStringLiteral("resources/read"), [this](McpPeer *peer, const QJsonValue &id, const QJsonObject &params) {
        const QString uri = params.value(QStringLiteral("uri")).toString();
        const auto reply = [peer = QPointer<McpPeer>(peer), id, uri](const QString &text) {
            if (!peer)
                return;
            const QJsonObject contents{{QStringLiteral("uri"), uri}, {QStringLiteral("mimeType"), QStringLiteral("text/plain")}, {QStringLiteral("text"), text}};
            peer->send(JsonRpc::response(id, QJsonObject{{QStringLiteral("contents"), QJsonArray{contents}}}), id);
        };
        if (uri == QLatin1String(TranscriptUri)) {
            reply(transcriptText());
        } else if (uri == QLatin1String(DefinitionsUri)) {
            // What the image holds now (the engine's service thread answers even while an
            // evaluation runs), then the source of what the session defined.
            m_session->query(QStringLiteral("definitions"), {}, [this, reply](const QJsonObject &answer) {
                reply(imageDefinitionsText(answer) + definitionsText());
            });
        } else {
            peer->send(JsonRpc::error(id, ResourceNotFound, QStringLiteral("Resource not found: %1").arg(uri),
                                      QJsonObject{{QStringLiteral("uri"), uri}}),
                       id);
        }
    });
    const auto subscription = [](bool subscribe) {
        return [subscribe](McpPeer *peer, const QJsonValue &id, const QJsonObject &params) {
            const QString uri = params.value(QStringLiteral("uri")).toString();
            if (uri != QLatin1String(TranscriptUri) && uri != QLatin1String(DefinitionsUri)) {
                peer->send(JsonRpc::error(id, ResourceNotFound, QStringLiteral("Resource not found: %1").arg(uri),
                                          QJsonObject{{QStringLiteral("uri"), uri}}),
                           id);
                return;
            }
            if (subscribe)
                peer->subscriptions().insert(uri);
            else
                peer->subscriptions().remove(uri);
            peer->send(JsonRpc::response(id, QJsonObject{}), id);
        };
    };
    m_server->addMethod(QStringLiteral("resources/subscribe"), subscription(true));
    m_server->addMethod(QStringLiteral("resources/unsubscribe"), subscription(false));

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
    for (McpPeer *peer : m_server->peers()) {
        if (peer->isInitialized() && peer->subscriptions().contains(uri))
            peer->send(JsonRpc::notification(QStringLiteral("notifications/resources/updated"), {{QStringLiteral("uri"), uri}}));
    }
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
                                 e.request.code.trimmed(), firstLines(outcome(e), 20));
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
    // Top-level forms only: walk the code once, tracking depth, strings and comments.
    QList<QPair<QString, QString>> forms;
    static const QRegularExpression head(QStringLiteral(R"(^\(\s*((?:[a-z0-9-]+:)?def[a-z0-9-]*)\s+(\(setf\s+[^\s()]+\)|[^\s()]+))"),
                                         QRegularExpression::CaseInsensitiveOption);
    int depth = 0;
    qsizetype start = -1;
    bool inString = false, inComment = false;
    for (qsizetype i = 0; i < code.size(); ++i) {
        const QChar c = code.at(i);
        if (inComment) {
            inComment = c != QLatin1Char('\n');
            continue;
        }
        if (inString) {
            if (c == QLatin1Char('\\'))
                ++i;
            else if (c == QLatin1Char('"'))
                inString = false;
            continue;
        }
        if (c == QLatin1Char(';')) {
            inComment = true;
        } else if (c == QLatin1Char('"')) {
            inString = true;
        } else if (c == QLatin1Char('\\')) {
            ++i;
        } else if (c == QLatin1Char('(')) {
            if (depth++ == 0)
                start = i;
        } else if (c == QLatin1Char(')') && depth > 0) {
            if (--depth == 0 && start >= 0) {
                const QString form = code.mid(start, i - start + 1);
                const QRegularExpressionMatch match = head.match(form);
                if (match.hasMatch()) {
                    QString kind = match.captured(1).toLower();
                    kind = kind.mid(kind.indexOf(QLatin1Char(':')) + 1);
                    if (kind != QStringLiteral("default"))
                        forms.append({kind + QLatin1Char(' ') + match.captured(2).toUpper(), form});
                }
            }
        }
    }
    return forms;
}

QList<ResourceProvider::Definition> ResourceProvider::definitions() const
{
    QList<Definition> list;
    QHash<QString, qsizetype> index;
    for (const JobPtr &e : m_session->transcript()) {
        if (!e->result.ok() || e->request.op != QStringLiteral("eval"))
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
    if (answer.value(QStringLiteral("status")).toString() == QStringLiteral("failed") || !answer.contains(QStringLiteral("definitions")))
        return QStringLiteral(";; The engine could not list the image's definitions right now (%1).\n\n")
            .arg(answer.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString());
    QStringList lines{QStringLiteral(";; Defined in the image now (name, lambda list or value):")};
    for (const QJsonValue &value : answer.value(QStringLiteral("definitions")).toArray()) {
        const QJsonObject entry = value.toObject();
        QString line = QStringLiteral(";;   %1 %2").arg(entry.value(QStringLiteral("kind")).toString(), entry.value(QStringLiteral("name")).toString());
        if (entry.value(QStringLiteral("lambda_list")).isString())
            line += QLatin1Char(' ') + entry.value(QStringLiteral("lambda_list")).toString();
        else if (entry.value(QStringLiteral("value")).isString())
            line += QStringLiteral(" = ") + entry.value(QStringLiteral("value")).toString().left(200);
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

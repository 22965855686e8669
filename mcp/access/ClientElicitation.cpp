#include "ClientElicitation.h"

#include "server/McpPeer.h"
#include "server/McpResponder.h"
#include "server/McpServer.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

namespace {
QByteArray base64url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

PersonsAnswer answerOf(const QString &action)
{
    // "decline" and "cancel" both leave things as they are; so does anything else.
    return {action == QStringLiteral("accept") ? PersonsAnswer::Kind::Accepted : PersonsAnswer::Kind::Declined, {}};
}
} // namespace

ClientElicitation::ClientElicitation(McpServer *server) : m_server(server)
{
    m_key.resize(32);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(m_key.data()), reinterpret_cast<quint32 *>(m_key.data() + m_key.size()));
}

bool ClientElicitation::canAskInForms(const QJsonObject &clientCapabilities)
{
    const QJsonValue elicitation = clientCapabilities.value(QStringLiteral("elicitation"));
    if (!elicitation.isObject())
        return false;
    // {} is the 2025-06-18 declaration (forms were all there was); newer clients name their modes.
    const QJsonObject modes = elicitation.toObject();
    return modes.isEmpty() || modes.contains(QStringLiteral("form"));
}

QJsonObject ClientElicitation::question(const QString &message)
{
    // Nothing to fill in: accepting the form is the answer.
    return {{QStringLiteral("mode"), QStringLiteral("form")},
            {QStringLiteral("message"), message},
            {QStringLiteral("requestedSchema"), QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                                                           {QStringLiteral("properties"), QJsonObject{}}}}};
}

ToolCall::Asker ClientElicitation::askerFor(const McpResponder &responder, bool modern, const QJsonObject &capabilities,
                                            const QJsonObject &params)
{
    const QString clientKey = responder.peer() ? responder.peer()->activityKey() : QString();
    return [this, responder, modern, capabilities, params, clientKey](ToolCall *call, const QString &subject, const QString &message,
                                                                       ToolCall::Answered answered) {
        McpPeer *peer = responder.peer();
        if (!peer) {
            answered({PersonsAnswer::Kind::NoAnswer, QStringLiteral("the client went away")});
            return;
        }
        if (!canAskInForms(modern ? capabilities : peer->clientCapabilities())) {
            answered({PersonsAnswer::Kind::CannotAsk, {}});
            return;
        }
        if (modern)
            askModern(call, clientKey, params, subject, message, answered);
        else
            askLegacy(responder, message, answered);
    };
}

void ClientElicitation::askLegacy(const McpResponder &responder, const QString &message, const ToolCall::Answered &answered)
{
    m_server->sendRequest(responder.peer(), QStringLiteral("elicitation/create"), question(message),
                          [answered](const McpServer::Answer &answer) {
                              if (!answer.ok())
                                  answered({PersonsAnswer::Kind::NoAnswer, answer.problem()});
                              else
                                  answered(answerOf(answer.result.value(QStringLiteral("action")).toString()));
                          },
                          AnswerTimeoutMs);
}

void ClientElicitation::askModern(ToolCall *call, const QString &clientKey, const QJsonObject &params, const QString &subject,
                                  const QString &message, const ToolCall::Answered &answered) const
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const QJsonObject response = params.value(QStringLiteral("inputResponses")).toObject().value(QLatin1String(InputKey)).toObject();
    if (!response.isEmpty() && opens(params.value(QStringLiteral("requestState")).toString(), subject, clientKey, now)) {
        answered(answerOf(response.value(QStringLiteral("action")).toString()));
        return;
    }
    // Not asked yet, or the answer is about something else (the file changed since): ask.
    const QJsonObject inputRequests{{QLatin1String(InputKey), QJsonObject{{QStringLiteral("method"), QStringLiteral("elicitation/create")},
                                                                         {QStringLiteral("params"), question(message)}}}};
    call->finish(ToolResult::askFirst({{QStringLiteral("inputRequests"), inputRequests},
                                       {QStringLiteral("requestState"), seal(subject, clientKey, now)}}));
    answered({PersonsAnswer::Kind::AskedOnRetry, {}});
}

QString ClientElicitation::seal(const QString &subject, const QString &clientKey, qint64 nowMs) const
{
    const QJsonObject payload{{QStringLiteral("subject"), QString::fromLatin1(QCryptographicHash::hash(subject.toUtf8(), QCryptographicHash::Sha256).toHex())},
                              {QStringLiteral("client"), clientKey},
                              {QStringLiteral("expires"), double(nowMs + StateLifetimeMs)}};
    const QByteArray body = base64url(QJsonDocument(payload).toJson(QJsonDocument::Compact));
    return QString::fromLatin1(body + '.' + base64url(QMessageAuthenticationCode::hash(body, m_key, QCryptographicHash::Sha256)));
}

bool ClientElicitation::opens(const QString &state, const QString &subject, const QString &clientKey, qint64 nowMs) const
{
    const QByteArray text = state.toLatin1();
    const qsizetype dot = text.indexOf('.');
    if (dot <= 0 || state.size() > 4096)
        return false;
    const QByteArray body = text.left(dot);
    const QByteArray expected = base64url(QMessageAuthenticationCode::hash(body, m_key, QCryptographicHash::Sha256));
    // Both are the same length when genuine; compare every byte, whatever the first difference.
    const QByteArray given = text.mid(dot + 1);
    if (given.size() != expected.size())
        return false;
    int difference = 0;
    for (qsizetype i = 0; i < given.size(); ++i)
        difference |= given[i] ^ expected[i];
    if (difference != 0)
        return false;
    const QJsonObject payload = QJsonDocument::fromJson(QByteArray::fromBase64(body, QByteArray::Base64UrlEncoding)).object();
    return payload.value(QStringLiteral("subject")).toString()
            == QString::fromLatin1(QCryptographicHash::hash(subject.toUtf8(), QCryptographicHash::Sha256).toHex())
        && payload.value(QStringLiteral("client")).toString() == clientKey
        && payload.value(QStringLiteral("expires")).toDouble() > double(nowMs);
}

#pragma once

#include "toolapi/Tool.h"

#include <QByteArray>
#include <QJsonObject>

class McpResponder;
class McpServer;

// Asks the person at an agent's client whether one of its calls may go on: MCP elicitation in
// form mode, a yes-or-no question (the message says what the call would do; accepting is yes).
// - Handshake revisions: an `elicitation/create` request to the client (McpServer::sendRequest),
//   answered when the client answers.
// - 2026-07-28 (no requests from the server): the call ends with an input_required result that
//   carries the question and a sealed requestState; the client asks, then retries the call with
//   the answer, and the retry's question, if it is the same one, takes that answer.
// A client that does not declare elicitation in form mode cannot be asked.
class ClientElicitation
{
public:
    static constexpr int AnswerTimeoutMs = 10 * 60 * 1000; // the person may be away a while
    static constexpr qint64 StateLifetimeMs = 15 * 60 * 1000;
    static constexpr auto InputKey = "approval"; // the inputRequests key of our one question

    explicit ClientElicitation(McpServer *server);

    // The asker of a tools/call made through `responder`'s request, whose params are `params`.
    // `modern`: a 2026-07-28 request, whose own `_meta` declared `capabilities`.
    ToolCall::Asker askerFor(const McpResponder &responder, bool modern, const QJsonObject &capabilities, const QJsonObject &params);

    static bool canAskInForms(const QJsonObject &clientCapabilities);
    // The elicitation/create params of a yes-or-no question.
    static QJsonObject question(const QString &message);

    // requestState for `subject`, asked of the client `clientKey`: readable, and sealed with a
    // key of this process (HMAC-SHA256) so that a client cannot forge an answer to a question
    // that was never asked, reuse one for another subject or client, or keep it past its time.
    QString seal(const QString &subject, const QString &clientKey, qint64 nowMs) const;
    bool opens(const QString &state, const QString &subject, const QString &clientKey, qint64 nowMs) const;

private:
    void askLegacy(const McpResponder &responder, const QString &message, const ToolCall::Answered &answered);
    void askModern(ToolCall *call, const QString &clientKey, const QJsonObject &params, const QString &subject,
                   const QString &message, const ToolCall::Answered &answered) const;

    McpServer *m_server;
    QByteArray m_key;
};

#pragma once

#include "AcpConnection.h"
#include "AcpTypes.h"

#include <QObject>

// The agent asks before a tool call (session/request_permission): the tool call it is about, as
// the conversation knows it once the request's own fields are applied (for a file change, its
// diff), and the options it offers. Answered exactly once, by select() or cancel(); or withdrawn
// by the agent ($/cancel_request) or its end. AgentSession owns it and deletes it once finished:
// keep a QPointer.
class PermissionRequest : public QObject
{
    Q_OBJECT
public:
    enum class Outcome { Pending, Selected, Cancelled, Withdrawn };

    PermissionRequest(const QString &sessionId, const Acp::ToolCall &toolCall, const QList<Acp::PermissionOption> &options,
                      const AcpResponder &responder, QObject *parent = nullptr);
    ~PermissionRequest() override; // still pending (its session closed): answered `cancelled`

    const QString &sessionId() const { return m_sessionId; }
    const Acp::ToolCall &toolCall() const { return m_toolCall; }
    const QList<Acp::PermissionOption> &options() const { return m_options; }
    QList<Acp::ToolCallContent> diffs() const { return m_toolCall.diffs(); }
    // The first option of that kind (allow_once, allow_always, reject_once, reject_always).
    const Acp::PermissionOption *optionOfKind(const QString &kind) const;

    bool isPending() const { return m_outcome == Outcome::Pending; }
    Outcome outcome() const { return m_outcome; }
    const QString &selectedOptionId() const { return m_selected; }

    // Answers with this option; false (and nothing sent) when it is not one of the options or
    // the request is no longer pending.
    bool select(const QString &optionId);
    // Answers `cancelled` (the turn is being cancelled).
    void cancel();

Q_SIGNALS:
    void finished(PermissionRequest::Outcome outcome);

private:
    void end(Outcome outcome);

    QString m_sessionId;
    Acp::ToolCall m_toolCall;
    QList<Acp::PermissionOption> m_options;
    AcpResponder m_responder;
    Outcome m_outcome = Outcome::Pending;
    QString m_selected;
};

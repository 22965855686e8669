#include "PermissionRequest.h"

#include "AcpWire.h"

PermissionRequest::PermissionRequest(const QString &sessionId, const Acp::ToolCall &toolCall,
                                     const QList<Acp::PermissionOption> &options, const AcpResponder &responder,
                                     QObject *parent)
    : QObject(parent)
    , m_sessionId(sessionId)
    , m_toolCall(toolCall)
    , m_options(options)
    , m_responder(responder)
{
    m_responder.onWithdrawn([this] { end(Outcome::Withdrawn); });
}

PermissionRequest::~PermissionRequest()
{
    if (isPending())
        m_responder.respond(AcpWire::permissionCancelled());
}

const Acp::PermissionOption *PermissionRequest::optionOfKind(const QString &kind) const
{
    for (const Acp::PermissionOption &option : m_options) {
        if (option.kind == kind)
            return &option;
    }
    return nullptr;
}

bool PermissionRequest::select(const QString &optionId)
{
    if (!isPending())
        return false;
    const bool offered = std::any_of(m_options.cbegin(), m_options.cend(),
                                     [&](const Acp::PermissionOption &option) { return option.id == optionId; });
    if (!offered)
        return false;
    m_selected = optionId;
    m_responder.respond(AcpWire::permissionSelected(optionId));
    end(Outcome::Selected);
    return true;
}

void PermissionRequest::cancel()
{
    if (!isPending())
        return;
    m_responder.respond(AcpWire::permissionCancelled());
    end(Outcome::Cancelled);
}

void PermissionRequest::end(Outcome outcome)
{
    if (!isPending())
        return;
    m_outcome = outcome;
    Q_EMIT finished(outcome);
}

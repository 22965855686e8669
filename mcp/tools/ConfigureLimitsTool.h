#pragma once

#include "SessionTool.h"

class SessionLimits;

// configure-limits: reads and sets the session's limits (time, output, printing, heap).
class ConfigureLimitsTool : public SessionTool
{
public:
    ConfigureLimitsTool(Session *session, SessionLimits *limits) : SessionTool(session), m_limits(limits) {}

    QString name() const override { return QStringLiteral("configure-limits"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return false; }
    void call(const ToolCallPtr &call) override;

private:
    SessionLimits *m_limits;
};

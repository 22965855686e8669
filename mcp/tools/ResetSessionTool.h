#pragma once

#include "SessionTool.h"

// reset-session: a fresh engine process, so every definition is gone; answers once the new
// engine is ready, so the agent's next call runs in it.
class ResetSessionTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("reset-session"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return false; }
    void call(const ToolCallPtr &call) override;

    static constexpr int ReadyTimeoutMs = 30000;
};

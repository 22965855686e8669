#pragma once

#include "SessionTool.h"

// session-transcript: the newest entries of the shared transcript, so an agent can catch up with what the person and other agents did.
class SessionTranscriptTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("session-transcript"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return true; }
    void call(const ToolCallPtr &call) override;
};

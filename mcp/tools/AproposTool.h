#pragma once

#include "SessionTool.h"

// apropos: symbols whose names contain a string, with what they name.
class AproposTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("apropos"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return true; }
    void call(const ToolCallPtr &call) override;
};

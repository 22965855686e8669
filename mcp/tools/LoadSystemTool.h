#pragma once

#include "SessionTool.h"

// load-system: an ASDF system, with ASDF loaded on first use; compiler output kept out unless asked for.
class LoadSystemTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("load-system"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return false; }
    void call(const ToolCallPtr &call) override;
};

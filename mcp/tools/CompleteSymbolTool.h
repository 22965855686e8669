#pragma once

#include "SessionTool.h"

// complete-symbol: symbol names that start with a prefix, the same completion the console uses.
class CompleteSymbolTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("complete-symbol"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return true; }
    void call(const ToolCallPtr &call) override;
};

#pragma once

#include "SessionTool.h"

// describe-symbol: what a symbol names (function, macro, variable, class...), with lambda list, documentation, value and where it was defined.
class DescribeSymbolTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("describe-symbol"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return true; }
    void call(const ToolCallPtr &call) override;
};

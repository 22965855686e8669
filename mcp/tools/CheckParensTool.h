#pragma once

#include "SessionTool.h"

// check-parens: the first unbalanced delimiter in code, by LispSource (no engine needed).
class CheckParensTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("check-parens"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return true; }
    void call(const ToolCallPtr &call) override;
};

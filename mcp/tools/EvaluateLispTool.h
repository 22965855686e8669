#pragma once

#include "SessionTool.h"

// evaluate-lisp, as seed 000 specifies it, plus the options of issue 5: a time limit, an
// output cap, print settings and a description the person sees.
class EvaluateLispTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("evaluate-lisp"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return false; }
    void call(const ToolCallPtr &call) override;
};

#pragma once

#include "SessionTool.h"

// time-execution: evaluate-lisp's result plus real, run and GC time, GC count and bytes allocated.
class TimeExecutionTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("time-execution"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return false; }
    void call(const ToolCallPtr &call) override;
};

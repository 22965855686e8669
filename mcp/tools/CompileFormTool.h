#pragma once

#include "SessionTool.h"

// compile-form: ECL's compiler and our own checks over code that is not run.
class CompileFormTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("compile-form"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return true; }
    void call(const ToolCallPtr &call) override;
};

#pragma once

#include "SessionTool.h"

// list-definitions: the session's own functions, variables, macros, generic functions and classes, in seed 001's text format.
class ListDefinitionsTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("list-definitions"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return true; }
    void call(const ToolCallPtr &call) override;
};

#pragma once

#include "SessionTool.h"

// inspect-object: looks inside a value by its result_id, one page at a time, giving nested values ids of their own.
class InspectObjectTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("inspect-object"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return true; }
    void call(const ToolCallPtr &call) override;
};

#pragma once

#include "SessionTool.h"

// macroexpand: one step or the full expansion of a macro form, pretty-printed. It runs the macro's code, so it goes through the session queue, but changes nothing.
class MacroexpandTool : public SessionTool
{
public:
    using SessionTool::SessionTool;

    QString name() const override { return QStringLiteral("macroexpand"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return true; }
    void call(const ToolCallPtr &call) override;
};

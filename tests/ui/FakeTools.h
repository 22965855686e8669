#pragma once

// Tools that answer at once, for tests of the MCP-side classes of the window without an engine.

#include "Tool.h"

#include <QJsonObject>

class EchoTool : public Tool
{
public:
    EchoTool(const QString &name, bool readOnly, bool fail = false) : m_name(name), m_readOnly(readOnly), m_fail(fail) {}
    QString name() const override { return m_name; }
    QJsonObject descriptor() const override
    {
        return {{"name", m_name}, {"description", "test tool"}, {"inputSchema", QJsonObject{{"type", "object"}}}};
    }
    bool isReadOnly() const override { return m_readOnly; }
    void call(const ToolCallPtr &call) override
    {
        ++calls;
        if (m_hold) {
            held = call;
            return;
        }
        const QString text = QStringLiteral("echo: ") + call->arguments().value("code").toString();
        call->finish(m_fail ? ToolResult::error(text) : ToolResult{text, {}, false});
    }
    void holdCalls() { m_hold = true; }
    int calls = 0;
    ToolCallPtr held;

private:
    QString m_name;
    bool m_readOnly;
    bool m_fail;
    bool m_hold = false;
};

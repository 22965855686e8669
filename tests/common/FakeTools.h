#pragma once

// Tools that answer at once, for tests of the MCP-side classes of the window without an engine.

#include "toolapi/Tool.h"
#include "toolapi/ToolRegistry.h"

#include <QJsonObject>
#include <memory>

// What a test sees of an echo tool: how often it was called, and (after holdCalls()) the call
// it keeps unanswered. The registry's tool owns it.
struct EchoTool
{
    int calls = 0;
    ToolCallPtr held;
    void holdCalls() { m_hold = true; }
    bool m_hold = false;
};

// Registers a tool that answers "echo: CODE" (as an isError result with `fail`); it takes the
// arguments `code` and `description`.
inline EchoTool *addEchoTool(ToolRegistry &tools, const QString &name, bool readOnly, bool fail = false)
{
    static const auto Code = Arg::string(QStringLiteral("code"), QStringLiteral("What to echo"));
    static const auto Description = Arg::string(QStringLiteral("description"), QStringLiteral("Why"));
    auto state = std::make_shared<EchoTool>();
    ToolSpec spec{.name = name,
                  .title = name,
                  .description = QStringLiteral("test tool"),
                  .arguments = {Code, Description},
                  .outputProperties = {},
                  .outputRequired = {},
                  .hints = {.readOnly = readOnly, .destructive = !readOnly, .idempotent = readOnly}};
    tools.add(Tool(spec, [state, fail](const ToolCallPtr &call, const ToolArguments &arguments) {
        ++state->calls;
        if (state->m_hold) {
            state->held = call;
            return;
        }
        const QString text = QStringLiteral("echo: ") + arguments.text(Code);
        call->finish(fail ? ToolResult::error(text) : ToolResult{text, {}, false});
    }));
    return state.get();
}

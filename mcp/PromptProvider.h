#pragma once

#include <QObject>

class McpServer;

// MCP prompts (prompts/list, prompts/get): short, ready-made requests a person can pick in
// their client to point an agent at the shared session.
class PromptProvider : public QObject
{
    Q_OBJECT
public:
    explicit PromptProvider(McpServer *server, QObject *parent = nullptr);
};

#pragma once

#include <QObject>
#include <QStringList>

class McpServer;

// MCP prompts (prompts/list, prompts/get): short, ready-made requests a person can pick in
// their client to point an agent at the shared session. explain-symbol takes arguments, which
// CompletionProvider completes from the live image.
class PromptProvider : public QObject
{
    Q_OBJECT
public:
    static constexpr auto ExplainSymbolPrompt = "explain-symbol"; // arguments: symbol, package

    explicit PromptProvider(McpServer *server, QObject *parent = nullptr);

    static QStringList names();
    static QStringList argumentNames(const QString &prompt);
};

#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// The values of an ACP conversation, as the client keeps them: plain data, no Qt objects, made
// from the wire by AcpWire (the one place that knows its field names) and held by Conversation.
// Every string the agent chose (kinds, statuses, priorities) is kept as it came: a newer agent's
// value is shown as text rather than dropped. `meta` is the `_meta` the agent attached.
namespace Acp {

// What an agent's error answer or our own failure to get one said. `code` is JSON-RPC's, or one
// of ours below for what never reached the agent or never came back.
struct Error
{
    enum : int {
        AuthRequired = -32000,
        ResourceNotFound = -32002,
        RequestCancelled = -32800,
        // Ours, outside JSON-RPC's reserved range: never sent on the wire.
        TimedOut = -1,
        ConnectionClosed = -2,
        BadAnswer = -3, // an answer that is not what the method promises
    };
    int code = 0;
    QString message;
    QJsonValue data;

    bool isAuthRequired() const { return code == AuthRequired; }
    QString describe() const; // one sentence for the person: the message, and the code's meaning
};

// A content block (prompt, message chunk, tool output): text, image, audio, resource_link or an
// embedded resource; an unknown type keeps its JSON in `raw`.
struct ContentBlock
{
    QString type;      // "text", "image", "audio", "resource_link", "resource", or the agent's
    QString text;      // text; an embedded text resource's text
    QString uri;       // resource_link, resource
    QString name;      // resource_link
    QString mimeType;  // image, audio, resource
    QString data;      // image, audio: base64
    QJsonObject raw;   // the block as received

    static ContentBlock fromText(const QString &text);
    // An embedded resource (ACP's context for a prompt): a REPL entry, a definition, a region.
    static ContentBlock fromResource(const QString &uri, const QString &text, const QString &mimeType = {});
};

// One item of a tool call's content: a content block, a diff, or a terminal.
struct ToolCallContent
{
    enum class Type { Content, Diff, Terminal, Unknown };
    Type type = Type::Unknown;
    ContentBlock content;              // Content
    QString path;                      // Diff: absolute path of the file
    std::optional<QString> oldText;    // Diff: absent for a new file
    QString newText;                   // Diff
    QString terminalId;                // Terminal
    QJsonObject raw;
};

struct ToolCallLocation
{
    QString path;
    int line = -1; // -1: none given
};

// A tool call, by its id: what the agent said last about each field. Title and kind as the
// agent chose them (Claude Code: title "mcp__lisp-duet__evaluate-lisp", kind "other", the code
// only in rawInput; `meta.claudeCode.toolName`).
struct ToolCall
{
    QString id;
    QString title;
    QString name;              // the programmatic name, when the agent gives one
    QString kind = QStringLiteral("other");     // read, edit, delete, move, search, execute, think, fetch, switch_mode, other
    QString status = QStringLiteral("pending"); // pending, in_progress, completed, failed
    QList<ToolCallContent> content;
    QList<ToolCallLocation> locations;
    QJsonValue rawInput;
    QJsonValue rawOutput;
    QJsonObject meta;

    QList<ToolCallContent> diffs() const;
    bool isFinished() const { return status == QLatin1String("completed") || status == QLatin1String("failed"); }
};

struct PlanEntry
{
    QString content;
    QString priority; // high, medium, low
    QString status;   // pending, in_progress, completed
};

struct AvailableCommand
{
    QString name;
    QString description;
    QString inputHint; // empty: the command takes no input
};

struct SessionMode
{
    QString id;
    QString name;
    QString description;
};

// A session configuration option (v1 has both modes and these; v2 keeps only these, with
// category "mode" for the modes). Select options flattened (groups dropped); a boolean option
// has no `options` and a bool `currentValue`.
struct ConfigOption
{
    struct Choice
    {
        QString value;
        QString name;
        QString description;
    };
    QString id;
    QString name;
    QString description;
    QString category; // mode, model, thought_level, or the agent's own
    QString type;     // select, boolean
    QJsonValue currentValue;
    QList<Choice> options;
};

// The context window and the session's cost (usage_update), and the tokens of the last turn
// (session/prompt's `usage`, which some agents add).
struct Usage
{
    qint64 used = -1;  // tokens in context; -1: not reported yet
    qint64 size = -1;  // the context window
    std::optional<double> costAmount;
    QString costCurrency;
    qint64 turnInputTokens = -1;
    qint64 turnOutputTokens = -1;
};

struct SessionInfo
{
    QString sessionId;
    QString cwd;
    QString title;
    QString updatedAt;
};

struct PermissionOption
{
    QString id;
    QString name;
    QString kind; // allow_once, allow_always, reject_once, reject_always
    bool allows() const { return kind.startsWith(QLatin1String("allow")); }
};

// How to log in. A terminal method is run as the agent's own command with `args` added and
// `env` set, in a terminal the person sees (AgentCommand::forLogin).
struct AuthMethod
{
    QString id;
    QString name;
    QString description;
    QString type; // "terminal", or empty: the agent does it itself when asked to authenticate
    QStringList args;
    QList<QPair<QString, QString>> env;
    bool isTerminal() const { return type == QLatin1String("terminal"); }
};

struct AgentInfo
{
    QString name;
    QString title;
    QString version;
};

// What initialize told: the agent, its capabilities, how to log in.
struct AgentCapabilities
{
    int protocolVersion = 0;
    AgentInfo info;
    bool loadSession = false;
    bool listSessions = false;
    bool resumeSession = false;
    bool closeSession = false;
    bool promptImage = false;
    bool promptAudio = false;
    bool promptEmbeddedContext = false;
    bool mcpHttp = false;
    bool mcpSse = false;
    QList<AuthMethod> authMethods;
    QJsonObject raw; // the whole answer, for what is not read here
};

// An MCP server handed to the agent in session/new: stdio (every agent takes it) or HTTP (only
// when the agent declared mcpCapabilities.http).
struct McpServer
{
    enum class Transport { Stdio, Http };
    Transport transport = Transport::Stdio;
    QString name;
    QString command;   // stdio: an absolute path
    QStringList args;  // stdio
    QList<QPair<QString, QString>> env;     // stdio
    QString url;                            // http
    QList<QPair<QString, QString>> headers; // http
};

} // namespace Acp

#include "AcpWire.h"

#include <QHash>

#include <climits>

using namespace Acp;

namespace AcpWire {

namespace {

QString text(const QJsonObject &object, const char *key)
{
    const QJsonValue value = object.value(QLatin1String(key));
    return value.isString() ? value.toString() : QString();
}

bool flag(const QJsonObject &object, const char *key)
{
    return object.value(QLatin1String(key)).toBool(false);
}

QJsonObject object(const QJsonObject &object, const char *key)
{
    return object.value(QLatin1String(key)).toObject();
}

// A JSON number as a count; -1 for anything else (absent, negative, not a number).
qint64 count(const QJsonValue &value)
{
    if (!value.isDouble() || value.toDouble() < 0 || value.toDouble() > 9.0e15)
        return -1;
    return qint64(value.toDouble());
}

QJsonArray pairs(const QList<QPair<QString, QString>> &list)
{
    QJsonArray array;
    for (const auto &[name, value] : list)
        array.append(QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("value"), value}});
    return array;
}

QJsonObject withSession(const QString &sessionId, QJsonObject params = {})
{
    params.insert(QStringLiteral("sessionId"), sessionId);
    return params;
}

} // namespace

QJsonObject initializeParams(const ClientInfo &client)
{
    QJsonObject info{{QStringLiteral("name"), client.name}, {QStringLiteral("title"), client.title}};
    if (!client.version.isEmpty())
        info.insert(QStringLiteral("version"), client.version);
    const QJsonObject capabilities{
        {QStringLiteral("fs"), QJsonObject{{QStringLiteral("readTextFile"), false}, {QStringLiteral("writeTextFile"), false}}},
        {QStringLiteral("terminal"), false},
        {QStringLiteral("auth"), QJsonObject{{QStringLiteral("terminal"), client.terminalAuth}}},
    };
    return {{QStringLiteral("protocolVersion"), ProtocolVersion},
            {QStringLiteral("clientCapabilities"), capabilities},
            {QStringLiteral("clientInfo"), info}};
}

QJsonObject authenticateParams(const QString &methodId)
{
    return {{QStringLiteral("methodId"), methodId}};
}

QJsonArray writeMcpServers(const QList<McpServer> &servers)
{
    QJsonArray array;
    for (const McpServer &server : servers) {
        if (server.transport == McpServer::Transport::Http) {
            array.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("http")},
                                     {QStringLiteral("name"), server.name},
                                     {QStringLiteral("url"), server.url},
                                     {QStringLiteral("headers"), pairs(server.headers)}});
        } else {
            array.append(QJsonObject{{QStringLiteral("name"), server.name},
                                     {QStringLiteral("command"), server.command},
                                     {QStringLiteral("args"), QJsonArray::fromStringList(server.args)},
                                     {QStringLiteral("env"), pairs(server.env)}});
        }
    }
    return array;
}

QJsonObject newSessionParams(const QString &cwd, const QList<McpServer> &servers)
{
    return {{QStringLiteral("cwd"), cwd}, {QStringLiteral("mcpServers"), writeMcpServers(servers)}};
}

QJsonObject reopenSessionParams(const QString &sessionId, const QString &cwd, const QList<McpServer> &servers)
{
    return withSession(sessionId, newSessionParams(cwd, servers));
}

QJsonObject listSessionsParams(const QString &cwd, const QString &cursor)
{
    QJsonObject params;
    if (!cwd.isEmpty())
        params.insert(QStringLiteral("cwd"), cwd);
    if (!cursor.isEmpty())
        params.insert(QStringLiteral("cursor"), cursor);
    return params;
}

QJsonObject writeContentBlock(const ContentBlock &block)
{
    if (block.type == QLatin1String("text"))
        return {{QStringLiteral("type"), block.type}, {QStringLiteral("text"), block.text}};
    if (block.type == QLatin1String("resource")) {
        QJsonObject resource{{QStringLiteral("uri"), block.uri}, {QStringLiteral("text"), block.text}};
        if (!block.mimeType.isEmpty())
            resource.insert(QStringLiteral("mimeType"), block.mimeType);
        return {{QStringLiteral("type"), block.type}, {QStringLiteral("resource"), resource}};
    }
    if (block.type == QLatin1String("resource_link"))
        return {{QStringLiteral("type"), block.type}, {QStringLiteral("uri"), block.uri},
                {QStringLiteral("name"), block.name.isEmpty() ? block.uri : block.name}};
    return block.raw; // images and the rest go as they came
}

QJsonObject promptParams(const QString &sessionId, const QList<ContentBlock> &prompt)
{
    QJsonArray blocks;
    for (const ContentBlock &block : prompt)
        blocks.append(writeContentBlock(block));
    return withSession(sessionId, {{QStringLiteral("prompt"), blocks}});
}

QJsonObject sessionParams(const QString &sessionId)
{
    return withSession(sessionId);
}

QJsonObject setModeParams(const QString &sessionId, const QString &modeId)
{
    return withSession(sessionId, {{QStringLiteral("modeId"), modeId}});
}

QJsonObject setConfigOptionParams(const QString &sessionId, const QString &optionId, const QJsonValue &value)
{
    QJsonObject params{{QStringLiteral("configId"), optionId}, {QStringLiteral("value"), value}};
    if (value.isBool()) // a boolean option says so; a select option's value is the choice's id
        params.insert(QStringLiteral("type"), QStringLiteral("boolean"));
    return withSession(sessionId, params);
}

QJsonObject permissionSelected(const QString &optionId)
{
    return {{QStringLiteral("outcome"), QJsonObject{{QStringLiteral("outcome"), QStringLiteral("selected")},
                                                    {QStringLiteral("optionId"), optionId}}}};
}

QJsonObject permissionCancelled()
{
    return {{QStringLiteral("outcome"), QJsonObject{{QStringLiteral("outcome"), QStringLiteral("cancelled")}}}};
}

AgentCapabilities readInitialize(const QJsonObject &result)
{
    AgentCapabilities caps;
    caps.raw = result;
    caps.protocolVersion = int(count(result.value(QStringLiteral("protocolVersion"))));
    const QJsonObject info = object(result, "agentInfo");
    caps.info = {text(info, "name"), text(info, "title"), text(info, "version")};
    const QJsonObject agent = object(result, "agentCapabilities");
    caps.loadSession = flag(agent, "loadSession");
    const QJsonObject sessions = object(agent, "sessionCapabilities");
    caps.listSessions = sessions.value(QStringLiteral("list")).isObject();
    caps.resumeSession = sessions.value(QStringLiteral("resume")).isObject();
    caps.closeSession = sessions.value(QStringLiteral("close")).isObject();
    const QJsonObject prompt = object(agent, "promptCapabilities");
    caps.promptImage = flag(prompt, "image");
    caps.promptAudio = flag(prompt, "audio");
    caps.promptEmbeddedContext = flag(prompt, "embeddedContext");
    const QJsonObject mcp = object(agent, "mcpCapabilities");
    caps.mcpHttp = flag(mcp, "http");
    caps.mcpSse = flag(mcp, "sse");
    for (const QJsonValue &value : result.value(QStringLiteral("authMethods")).toArray()) {
        const QJsonObject method = value.toObject();
        AuthMethod auth{text(method, "id"), text(method, "name"), text(method, "description"), text(method, "type"), {}, {}};
        if (auth.id.isEmpty())
            continue;
        for (const QJsonValue &arg : method.value(QStringLiteral("args")).toArray())
            auth.args.append(arg.toString());
        const QJsonObject env = object(method, "env");
        for (auto it = env.begin(); it != env.end(); ++it)
            auth.env.append({it.key(), it.value().toString()});
        caps.authMethods.append(auth);
    }
    return caps;
}

QList<SessionMode> readModes(const QJsonValue &availableModes)
{
    QList<SessionMode> modes;
    for (const QJsonValue &value : availableModes.toArray()) {
        const QJsonObject mode = value.toObject();
        if (!text(mode, "id").isEmpty())
            modes.append({text(mode, "id"), text(mode, "name"), text(mode, "description")});
    }
    return modes;
}

QList<ConfigOption> readConfigOptions(const QJsonValue &options)
{
    QList<ConfigOption> list;
    for (const QJsonValue &value : options.toArray()) {
        const QJsonObject option = value.toObject();
        ConfigOption config{text(option, "id"), text(option, "name"), text(option, "description"),
                            text(option, "category"), text(option, "type"), option.value(QStringLiteral("currentValue")), {}};
        if (config.id.isEmpty())
            continue;
        for (const QJsonValue &choice : option.value(QStringLiteral("options")).toArray()) {
            const QJsonObject item = choice.toObject();
            const QJsonArray grouped = item.value(QStringLiteral("options")).toArray();
            for (const QJsonValue &inner : grouped.isEmpty() ? QJsonArray{item} : grouped) {
                const QJsonObject one = inner.toObject();
                if (one.value(QStringLiteral("value")).isString())
                    config.options.append({text(one, "value"), text(one, "name"), text(one, "description")});
            }
        }
        list.append(config);
    }
    return list;
}

NewSession readSessionState(const QJsonObject &result)
{
    NewSession state;
    state.sessionId = text(result, "sessionId");
    const QJsonObject modes = object(result, "modes");
    state.hasModes = !modes.isEmpty();
    state.currentModeId = text(modes, "currentModeId");
    state.modes = readModes(modes.value(QStringLiteral("availableModes")));
    state.hasConfigOptions = result.value(QStringLiteral("configOptions")).isArray();
    state.configOptions = readConfigOptions(result.value(QStringLiteral("configOptions")));
    return state;
}

QList<SessionInfo> readSessionList(const QJsonObject &result, QString *nextCursor)
{
    QList<SessionInfo> list;
    for (const QJsonValue &value : result.value(QStringLiteral("sessions")).toArray()) {
        const QJsonObject session = value.toObject();
        if (!text(session, "sessionId").isEmpty())
            list.append({text(session, "sessionId"), text(session, "cwd"), text(session, "title"), text(session, "updatedAt")});
    }
    if (nextCursor)
        *nextCursor = text(result, "nextCursor");
    return list;
}

QString readStopReason(const QJsonObject &result)
{
    return text(result, "stopReason");
}

void readPromptUsage(const QJsonObject &result, Usage &usage)
{
    const QJsonObject turn = object(result, "usage");
    if (turn.isEmpty())
        return;
    usage.turnInputTokens = count(turn.value(QStringLiteral("inputTokens")));
    usage.turnOutputTokens = count(turn.value(QStringLiteral("outputTokens")));
}

Error readError(const QJsonObject &error)
{
    const QJsonValue code = error.value(QStringLiteral("code"));
    return {code.isDouble() ? code.toInt() : int(Error::BadAnswer),
            error.value(QStringLiteral("message")).toString(QStringLiteral("(no message)")),
            error.value(QStringLiteral("data"))};
}

ContentBlock readContentBlock(const QJsonValue &value)
{
    const QJsonObject block = value.toObject();
    ContentBlock content;
    content.raw = block;
    content.type = text(block, "type");
    content.text = text(block, "text");
    content.uri = text(block, "uri");
    content.name = text(block, "name");
    content.mimeType = text(block, "mimeType");
    content.data = text(block, "data");
    if (content.type == QLatin1String("resource")) {
        const QJsonObject resource = object(block, "resource");
        content.uri = text(resource, "uri");
        content.text = text(resource, "text");
        content.mimeType = text(resource, "mimeType");
    }
    return content;
}

ToolCallContent readToolCallContent(const QJsonValue &value)
{
    const QJsonObject item = value.toObject();
    ToolCallContent content;
    content.raw = item;
    const QString type = text(item, "type");
    if (type == QLatin1String("content")) {
        content.type = ToolCallContent::Type::Content;
        content.content = readContentBlock(item.value(QStringLiteral("content")));
    } else if (type == QLatin1String("diff")) {
        content.type = ToolCallContent::Type::Diff;
        content.path = text(item, "path");
        if (item.value(QStringLiteral("oldText")).isString())
            content.oldText = text(item, "oldText");
        content.newText = text(item, "newText");
    } else if (type == QLatin1String("terminal")) {
        content.type = ToolCallContent::Type::Terminal;
        content.terminalId = text(item, "terminalId");
    }
    return content;
}

QString toolCallId(const QJsonObject &fields)
{
    return text(fields, "toolCallId");
}

void applyToolCall(ToolCall &call, const QJsonObject &fields)
{
    if (call.id.isEmpty())
        call.id = toolCallId(fields);
    if (fields.value(QStringLiteral("title")).isString())
        call.title = text(fields, "title");
    if (fields.value(QStringLiteral("name")).isString())
        call.name = text(fields, "name");
    if (fields.value(QStringLiteral("kind")).isString())
        call.kind = text(fields, "kind");
    if (fields.value(QStringLiteral("status")).isString())
        call.status = text(fields, "status");
    if (fields.value(QStringLiteral("content")).isArray()) {
        call.content.clear();
        for (const QJsonValue &item : fields.value(QStringLiteral("content")).toArray())
            call.content.append(readToolCallContent(item));
    }
    if (fields.value(QStringLiteral("locations")).isArray()) {
        call.locations.clear();
        for (const QJsonValue &item : fields.value(QStringLiteral("locations")).toArray()) {
            const QJsonObject location = item.toObject();
            const qint64 line = count(location.value(QStringLiteral("line")));
            call.locations.append({text(location, "path"), line > INT_MAX ? -1 : int(line)});
        }
    }
    if (fields.contains(QStringLiteral("rawInput")))
        call.rawInput = fields.value(QStringLiteral("rawInput"));
    if (fields.contains(QStringLiteral("rawOutput")))
        call.rawOutput = fields.value(QStringLiteral("rawOutput"));
    const QJsonObject meta = object(fields, "_meta");
    for (auto it = meta.begin(); it != meta.end(); ++it)
        call.meta.insert(it.key(), it.value());
}

PermissionRequestParams readPermissionRequest(const QJsonObject &params)
{
    PermissionRequestParams request{text(params, "sessionId"), object(params, "toolCall"), {}};
    for (const QJsonValue &value : params.value(QStringLiteral("options")).toArray()) {
        const QJsonObject option = value.toObject();
        if (!text(option, "optionId").isEmpty())
            request.options.append({text(option, "optionId"), text(option, "name"), text(option, "kind")});
    }
    return request;
}

QString updateSessionId(const QJsonObject &params)
{
    return text(params, "sessionId");
}

SessionUpdate readSessionUpdate(const QJsonObject &params)
{
    const QJsonObject update = object(params, "update");
    const QString kind = text(update, "sessionUpdate");
    const auto chunk = [&](Update::Role role) -> SessionUpdate {
        return Update::Chunk{role, readContentBlock(update.value(QStringLiteral("content"))), text(update, "messageId")};
    };
    if (kind == QLatin1String("agent_message_chunk"))
        return chunk(Update::Role::Agent);
    if (kind == QLatin1String("user_message_chunk"))
        return chunk(Update::Role::User);
    if (kind == QLatin1String("agent_thought_chunk"))
        return chunk(Update::Role::Thought);
    if (kind == QLatin1String("tool_call") || kind == QLatin1String("tool_call_update"))
        return Update::ToolCall{kind == QLatin1String("tool_call"), update};
    if (kind == QLatin1String("plan")) {
        Update::Plan plan;
        for (const QJsonValue &value : update.value(QStringLiteral("entries")).toArray()) {
            const QJsonObject entry = value.toObject();
            plan.entries.append({text(entry, "content"), text(entry, "priority"), text(entry, "status")});
        }
        return plan;
    }
    if (kind == QLatin1String("available_commands_update")) {
        Update::Commands commands;
        for (const QJsonValue &value : update.value(QStringLiteral("availableCommands")).toArray()) {
            const QJsonObject command = value.toObject();
            if (!text(command, "name").isEmpty())
                commands.commands.append({text(command, "name"), text(command, "description"),
                                          text(object(command, "input"), "hint")});
        }
        return commands;
    }
    if (kind == QLatin1String("current_mode_update"))
        return Update::Mode{text(update, "currentModeId")};
    if (kind == QLatin1String("config_option_update"))
        return Update::Config{readConfigOptions(update.value(QStringLiteral("configOptions")))};
    if (kind == QLatin1String("session_info_update")) {
        Update::Info info;
        if (update.contains(QStringLiteral("title")))
            info.title = text(update, "title");
        if (update.contains(QStringLiteral("updatedAt")))
            info.updatedAt = text(update, "updatedAt");
        return info;
    }
    if (kind == QLatin1String("usage_update")) {
        Update::Usage usage{count(update.value(QStringLiteral("used"))), count(update.value(QStringLiteral("size"))), {}, {}};
        const QJsonObject cost = object(update, "cost");
        if (cost.value(QStringLiteral("amount")).isDouble()) {
            usage.costAmount = cost.value(QStringLiteral("amount")).toDouble();
            usage.costCurrency = text(cost, "currency");
        }
        return usage;
    }
    if (kind == QLatin1String("notice"))
        return Update::Notice{text(update, "severity"), text(update, "title"), text(update, "description")};
    return Update::Unknown{kind};
}

QStringList unknownUpdateFields(const QJsonObject &params)
{
    static const QHash<QString, QStringList> known{
        {QStringLiteral("user_message_chunk"), {"content", "messageId"}},
        {QStringLiteral("agent_message_chunk"), {"content", "messageId"}},
        {QStringLiteral("agent_thought_chunk"), {"content", "messageId"}},
        {QStringLiteral("tool_call"), {"toolCallId", "title", "name", "kind", "status", "content", "locations", "rawInput", "rawOutput"}},
        {QStringLiteral("tool_call_update"), {"toolCallId", "title", "name", "kind", "status", "content", "locations", "rawInput", "rawOutput"}},
        {QStringLiteral("plan"), {"entries"}},
        {QStringLiteral("available_commands_update"), {"availableCommands"}},
        {QStringLiteral("current_mode_update"), {"currentModeId"}},
        {QStringLiteral("config_option_update"), {"configOptions"}},
        {QStringLiteral("session_info_update"), {"title", "updatedAt"}},
        {QStringLiteral("usage_update"), {"used", "size", "cost"}},
        {QStringLiteral("notice"), {"severity", "title", "description"}},
    };
    QStringList unknown;
    for (const QString &key : params.keys()) {
        if (key != QLatin1String("sessionId") && key != QLatin1String("update") && key != QLatin1String("_meta"))
            unknown.append(key);
    }
    const QJsonObject update = object(params, "update");
    const QString kind = text(update, "sessionUpdate");
    const auto fields = known.constFind(kind);
    if (fields == known.constEnd())
        return unknown;
    for (const QString &key : update.keys()) {
        if (key != QLatin1String("sessionUpdate") && key != QLatin1String("_meta") && !fields->contains(key))
            unknown.append(kind + QLatin1Char('.') + key);
    }
    return unknown;
}

} // namespace AcpWire

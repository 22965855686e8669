#pragma once

#include "AcpTypes.h"

#include <QJsonArray>
#include <QJsonObject>

#include <variant>

// ACP v1 on the wire: every method name and field name the client speaks, in one place, so that
// v2 (config options instead of modes; no fs/*, terminal/*, session/load, session/set_mode) can
// be added beside it behind the negotiated protocolVersion. Builders make the params we send;
// readers make AcpTypes values of what the agent sent, tolerant of missing and unknown fields
// (an absent field keeps its default, a field of the wrong type reads as absent).
namespace AcpWire {

constexpr int ProtocolVersion = 1;

namespace Method {
// Ours to the agent.
inline constexpr char Initialize[] = "initialize";
inline constexpr char Authenticate[] = "authenticate";
inline constexpr char SessionNew[] = "session/new";
inline constexpr char SessionLoad[] = "session/load";
inline constexpr char SessionResume[] = "session/resume";
inline constexpr char SessionList[] = "session/list";
inline constexpr char SessionClose[] = "session/close";
inline constexpr char SessionSetMode[] = "session/set_mode";
inline constexpr char SessionSetConfigOption[] = "session/set_config_option";
inline constexpr char SessionPrompt[] = "session/prompt";
inline constexpr char SessionCancel[] = "session/cancel"; // a notification
// The agent's to us.
inline constexpr char SessionUpdate[] = "session/update"; // a notification
inline constexpr char RequestPermission[] = "session/request_permission";
// Either side: the peer gives up a request it sent.
inline constexpr char CancelRequest[] = "$/cancel_request";
} // namespace Method

// What we tell the agent about ourselves. We offer neither fs/* nor terminal/*: the agent reads
// and writes files itself, and Lisp Duet sees its changes as diffs in permission requests.
struct ClientInfo
{
    QString name = QStringLiteral("lisp-duet");
    QString title = QStringLiteral("Lisp Duet");
    QString version;
    bool terminalAuth = true; // we can run a terminal login (AuthMethod type "terminal")
};

QJsonObject initializeParams(const ClientInfo &client);
QJsonObject authenticateParams(const QString &methodId);
QJsonObject newSessionParams(const QString &cwd, const QList<Acp::McpServer> &servers);
// session/load and session/resume take the same fields.
QJsonObject reopenSessionParams(const QString &sessionId, const QString &cwd, const QList<Acp::McpServer> &servers);
QJsonObject listSessionsParams(const QString &cwd, const QString &cursor = {});
QJsonObject promptParams(const QString &sessionId, const QList<Acp::ContentBlock> &prompt);
QJsonObject sessionParams(const QString &sessionId); // cancel, close
QJsonObject setModeParams(const QString &sessionId, const QString &modeId);
QJsonObject setConfigOptionParams(const QString &sessionId, const QString &optionId, const QJsonValue &value);
QJsonObject permissionSelected(const QString &optionId);
QJsonObject permissionCancelled();

QJsonObject writeContentBlock(const Acp::ContentBlock &block);
QJsonArray writeMcpServers(const QList<Acp::McpServer> &servers);

// Readers. A null result (an Error with code BadAnswer) for answers that lack what the method
// promises (session/new without a sessionId).
Acp::AgentCapabilities readInitialize(const QJsonObject &result);
struct NewSession
{
    QString sessionId;
    QString currentModeId;
    QList<Acp::SessionMode> modes;
    QList<Acp::ConfigOption> configOptions;
    bool hasModes = false;
    bool hasConfigOptions = false;
};
NewSession readSessionState(const QJsonObject &result); // session/new, load, resume
QList<Acp::SessionInfo> readSessionList(const QJsonObject &result, QString *nextCursor = nullptr);
QString readStopReason(const QJsonObject &result);
void readPromptUsage(const QJsonObject &result, Acp::Usage &usage);
Acp::Error readError(const QJsonObject &error);

Acp::ContentBlock readContentBlock(const QJsonValue &value);
Acp::ToolCallContent readToolCallContent(const QJsonValue &value);
// Applies the fields an update carries to a tool call (tool_call, tool_call_update, a permission
// request's toolCall): content and locations are replaced, _meta is merged, absent fields stay.
void applyToolCall(Acp::ToolCall &call, const QJsonObject &fields);
QString toolCallId(const QJsonObject &fields);

struct PermissionRequestParams
{
    QString sessionId;
    QJsonObject toolCall; // a ToolCallUpdate: applied to the conversation's tool call of that id
    QList<Acp::PermissionOption> options;
};
PermissionRequestParams readPermissionRequest(const QJsonObject &params);

// One session/update, typed. `sessionUpdate` kinds the schema does not know read as Unknown.
namespace Update {
enum class Role { User, Agent, Thought };
struct Chunk { Role role; Acp::ContentBlock content; QString messageId; };
struct ToolCall { bool announced; QJsonObject fields; }; // announced: tool_call, else tool_call_update
struct Plan { QList<Acp::PlanEntry> entries; };
struct Commands { QList<Acp::AvailableCommand> commands; };
struct Mode { QString currentModeId; };
struct Config { QList<Acp::ConfigOption> options; };
struct Info { std::optional<QString> title; std::optional<QString> updatedAt; };
struct Usage { qint64 used; qint64 size; std::optional<double> costAmount; QString costCurrency; };
struct Notice { QString severity; QString title; QString description; };
struct Unknown { QString kind; };
} // namespace Update
using SessionUpdate = std::variant<Update::Chunk, Update::ToolCall, Update::Plan, Update::Commands, Update::Mode,
                                   Update::Config, Update::Info, Update::Usage, Update::Notice, Update::Unknown>;
// The params of session/update: its session id and the update.
QString updateSessionId(const QJsonObject &params);
SessionUpdate readSessionUpdate(const QJsonObject &params);

// The fields of a session/update that v1 does not define for its kind ("agent_message_chunk.colour"),
// for the log: they are ignored, as the protocol asks. An unknown kind has none (it is logged whole).
QStringList unknownUpdateFields(const QJsonObject &params);

QList<Acp::SessionMode> readModes(const QJsonValue &availableModes);
QList<Acp::ConfigOption> readConfigOptions(const QJsonValue &options);

} // namespace AcpWire

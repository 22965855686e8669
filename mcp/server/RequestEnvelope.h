#pragma once

#include "jsonrpc/JsonRpc.h"

#include <QJsonObject>
#include <QStringList>

// Which protocol era a request belongs to, and what its 2026-07-28 per-request `_meta` says.
// Decided once per request, at the entry (McpServer::dispatch; HTTP also before it picks a
// peer), never in a handler:
// - modern (2026-07-28, stateless): the request's `_meta` carries
//   `io.modelcontextprotocol/protocolVersion` (the claim the SDKs look for), or the transport
//   declared a modern version (HTTP's MCP-Protocol-Version header);
// - legacy (2025-11-25 and older): everything else; the peer's initialize handshake applies.
// A modern request is checked in the spec's order: required fields (-32602), the version
// (-32022, listing the modern versions we serve), the log level (-32602). A legacy message whose
// transport declared a version we do not speak (HTTP's MCP-Protocol-Version) is refused too.
class RequestEnvelope
{
public:
    enum class Era { Legacy, Modern };
    enum class Problem { None, Malformed, UnsupportedVersion, BadLogLevel, UnsupportedDeclaredVersion };

    static constexpr auto ProtocolVersionKey = "io.modelcontextprotocol/protocolVersion";
    static constexpr auto ClientInfoKey = "io.modelcontextprotocol/clientInfo";
    static constexpr auto ClientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities";
    static constexpr auto LogLevelKey = "io.modelcontextprotocol/logLevel";
    static constexpr auto ServerInfoKey = "io.modelcontextprotocol/serverInfo";
    static constexpr auto SubscriptionIdKey = "io.modelcontextprotocol/subscriptionId";

    // The revisions that start with initialize, newest first (initialize answers the first one
    // when it does not know the client's), and the stateless ones.
    static QStringList legacyVersions();
    static QStringList modernVersions();
    static bool isModernVersion(const QString &version) { return modernVersions().contains(version); }
    // notifications/message levels, least severe first.
    static const QStringList &logLevels();
    // params._meta.progressToken when it is a string or a number (the client wants
    // notifications/progress about the request), else undefined.
    static QJsonValue progressToken(const QJsonValue &params);

    // `declaredVersion`: the version the transport carried beside the body (HTTP's
    // MCP-Protocol-Version header), empty when there is none.
    static RequestEnvelope of(const JsonRpc::Message &message, const QString &declaredVersion = {});

    Era era() const { return m_era; }
    bool isModern() const { return m_era == Era::Modern; }
    Problem problem() const { return m_problem; }
    // The error answer for a message whose envelope is not acceptable; empty otherwise.
    QJsonObject refusal(const QJsonValue &id) const;

    bool claimsVersion() const { return m_claimsVersion; } // the body's protocolVersion key is there
    QString protocolVersion() const { return m_protocolVersion; }
    QJsonObject clientInfo() const { return m_clientInfo; }
    QJsonObject clientCapabilities() const { return m_clientCapabilities; }
    QString logLevel() const { return m_logLevel; } // empty: the client wants no notifications/message

private:
    Era m_era = Era::Legacy;
    Problem m_problem = Problem::None;
    QString m_problemText;
    bool m_claimsVersion = false;
    QString m_protocolVersion;
    QJsonObject m_clientInfo;
    QJsonObject m_clientCapabilities;
    QString m_logLevel;
};

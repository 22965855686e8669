#pragma once

#include "McpMessage.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>

class JsonTextWriter;

// What a 2026-07-28 answer carries that the handshake revisions' do not, written here and
// nowhere else: `resultType` ("complete", or what the answer is instead: a tool call's
// "input_required"), the server's info in `_meta`, the method's caching hints (`ttlMs`,
// `cacheScope`: lists and reads), and -32602 where the older revisions say -32002. McpServer's
// answers, made as objects, and a tool call's, written as text (ToolAnswer), both end here.
class ModernAnswers
{
public:
    explicit ModernAnswers(const QJsonObject &serverInfo);

    void setCacheHint(const QString &method, int ttlMs, bool isPublic);

    // A JSON-RPC answer (a response or an error) to a 2026-07-28 request of `method`.
    McpMessage answer(const QString &method, const QJsonObject &response) const;
    // Ends a result object open in `json` whose own members are written: resultType, _meta
    // (`meta`, the result's own, with the server's info) and the method's caching hints.
    void finishResult(JsonTextWriter &json, const QString &method, QStringView resultType, const QJsonObject &meta = {}) const;

private:
    struct CacheHint
    {
        int ttlMs = 0;
        bool isPublic = false;
    };

    QByteArray m_serverInfo; // its JSON text, written into every answer
    QHash<QString, CacheHint> m_cacheHints;
};

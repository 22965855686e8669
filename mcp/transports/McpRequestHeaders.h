#pragma once

#include "HttpRequestParser.h"
#include "JsonRpc.h"
#include "RequestEnvelope.h"

#include <QString>
#include <optional>

// The 2026-07-28 standard request headers of a Streamable HTTP POST: MCP-Protocol-Version,
// Mcp-Method and Mcp-Name mirror the body so that intermediaries can route on them, and the
// server refuses a request whose headers are missing or disagree with its body (-32020,
// HeaderMismatch, with 400). Pure functions, so each rule is tested on its own.
namespace McpRequestHeaders {

// A header value as the client meant it: plain text (RFC 9110 OWS around it dropped), or the
// `=?base64?...?=` form decoded (strict base64, UTF-8). nullopt when it is neither: bad base64,
// control characters.
std::optional<QString> decoded(const QByteArray &raw);

// Where Mcp-Name comes from: params.name (tools/call, prompts/get) or params.uri
// (resources/read); nullopt for other methods, or when the body has no such string.
std::optional<QString> nameSource(const JsonRpc::Message &message);

// Why the headers do not fit the request (a sentence that names the header), or an empty
// string. `envelope` is the body's, already read.
QString mismatch(const HttpRequest &request, const JsonRpc::Message &message, const RequestEnvelope &envelope);

} // namespace McpRequestHeaders

#pragma once

#include "http/HttpRequestParser.h"
#include "server/RequestEnvelope.h"

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

// Why the headers do not fit the request (a sentence that names the header), or an empty
// string. `method` is the body's; `envelope` the body's, already read; `name` what the server
// says the request is about (McpServer::Received::name), which Mcp-Name must repeat.
QString mismatch(const HttpRequest &request, const QString &method, const RequestEnvelope &envelope, const std::optional<QString> &name);

} // namespace McpRequestHeaders

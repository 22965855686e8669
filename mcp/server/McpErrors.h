#pragma once

// MCP's own JSON-RPC error codes, beside JSON-RPC's (jsonrpc/JsonRpc.h's ErrorCode).
namespace McpErrors {

enum Code {
    // 2025-11-25 and older; 2026-07-28 says -32602 instead.
    ResourceNotFound = -32002,
    HeaderMismatch = -32020,                  // 2026-07-28: HTTP headers and body disagree
    MissingRequiredClientCapability = -32021, // 2026-07-28
    UnsupportedProtocolVersion = -32022,      // 2026-07-28: data {supported, requested}
};

} // namespace McpErrors

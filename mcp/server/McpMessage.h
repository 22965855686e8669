#pragma once

#include "json/JsonObjectText.h"

// One outgoing JSON-RPC message, as an object or as the JSON text a transport writes: an
// answer the server wrote as text (a tool call's result, McpServer::respondToToolCall) reaches
// the wire without a QJsonObject; an inspector or a test that reads it as an object gets one.
using McpMessage = JsonObjectText;

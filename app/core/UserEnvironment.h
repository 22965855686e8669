#pragma once

// What a process started with an empty environment (`env -i`, some MCP clients) still needs to
// find this user's files.
namespace UserEnvironment {
// Sets HOME from the password database when it is unset or empty.
void ensureHome();
// Sets XDG_RUNTIME_DIR to RuntimeDirectory's primary directory when it is unset.
void ensureRuntimeDirectory();
} // namespace UserEnvironment

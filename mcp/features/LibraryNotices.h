#pragma once

class LibraryCompilation;
class McpServer;

// Libraries at once (issue 39): every client hears, as a log message (notifications/message,
// logger "libraries"), when a library's background compile ends: native now, partly native, or
// bytecode and why (a warning). An agent that loaded a library without until_native learns it
// this way without asking project-info again.
namespace LibraryNotices {
void follow(const LibraryCompilation *libraries, McpServer *server);
} // namespace LibraryNotices

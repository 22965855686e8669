#pragma once

#include "project/FileChange.h"
#include "toolapi/Tool.h"

// The result of a tool that changed a file through ProjectFiles: the summary, the new line range
// and the unified diff, or the refusal (stale read, the person's no, a reader error) as isError.
namespace FileChangeResult {
ToolResult result(const FileChange &applied, const QString &error);
QJsonObject structured(const FileChange &applied);
QJsonObject outputProperties();
QStringList outputRequired();
} // namespace FileChangeResult

#pragma once

#include <QJsonObject>
#include <QStringList>

class EditorBridge;
class InitFile;

// The person's own setup (issue 31) as project-info tells it: where their editor reaches the
// session (Swank's address, the editors connected now) and how their init files went at the
// newest engine start (an error the agents should know of: the session runs without the rest
// of that file).
namespace PersonalSetupInfo {

// Either may be null (a server made without it): nothing is said of it.
QStringList lines(const EditorBridge *editors, const InitFile *initFile);
// structuredContent's "editor" {state, address, port, message, connect, editors[]} and
// "init_files" [{file, status, error}].
QJsonObject fields(const EditorBridge *editors, const InitFile *initFile);
QJsonObject outputProperties();

} // namespace PersonalSetupInfo

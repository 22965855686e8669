#pragma once

#include <QJsonObject>
#include <QStringList>

class Session;

// The person's own setup (issue 31) as project-info tells it: where their editor reaches the
// session (Swank's address, the editors connected now) and how their init files went at the
// newest engine start (an error the agents should know of: the session runs without the rest
// of that file).
namespace PersonalSetupInfo {

QStringList lines(const Session *session);
// structuredContent's "editor" {state, address, port, message, connect, editors[]} and
// "init_files" [{file, status, error}].
QJsonObject fields(const Session *session);
QJsonObject outputProperties();

} // namespace PersonalSetupInfo

#pragma once

#include "project/ProjectLisp.h"
#include "project/ProjectRoot.h"
#include "project/TextFile.h"
#include "toolapi/Tool.h"

#include <QStringList>

#include <optional>

#include <functional>

class ProjectFiles;
class Session;

// What the project tools share: the refusal when no root is set, path resolution that finishes
// the call with the confinement's sentence, and numbered lines. The walk over the project's
// files, globs and the .asd files are engine/project's (ProjectTree, ProjectSystems).
namespace ProjectToolKit {

// "No project root is set..." with the four ways to set one.
QString noRootMessage();

// The path resolved for `access`, or nullopt after finishing the call with the reason (no root,
// outside the root, not a regular file...).
std::optional<ProjectRoot::Resolved> resolve(ProjectFiles *files, const ToolCallPtr &call, const QString &path,
                                             ProjectRoot::Access access);

// The project's Lisp files read as the session reads them: its *features* decide the #+/#-
// options of defpackage forms, and the packages the files use but do not declare (a loaded
// library's, ECL's own) come from it. Without an answer (no engine), the text alone says.
// `then` runs once, from the session's answer.
void readProjectLisp(ProjectFiles *files, Session *session, std::function<void(const ProjectLisp &project)> then);

// Lines numbered like `cat -n`: the number right-aligned, then "│", then the text.
QString numbered(const QStringList &lines, int firstLine);
} // namespace ProjectToolKit

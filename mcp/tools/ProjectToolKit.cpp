#include "ProjectToolKit.h"

#include "client/EngineProtocol.h"
#include "project/ProjectFiles.h"
#include "session/Session.h"

#include <algorithm>
#include <memory>

namespace ProjectToolKit {

QString noRootMessage()
{
    return QStringLiteral("No project root is set. Set one with the set-project-root tool, File > Open project... in the "
                          "window, lisp-duet --project DIR, or by offering the folder as an MCP root from your client.");
}

std::optional<ProjectRoot::Resolved> resolve(ProjectFiles *files, const ToolCallPtr &call, const QString &path,
                                             ProjectRoot::Access access)
{
    if (!files->root().isSet()) {
        call->finish(ToolResult::error(noRootMessage()));
        return std::nullopt;
    }
    ProjectRoot::Resolved resolved = files->root().resolve(path, access);
    if (!resolved.ok()) {
        call->finish(ToolResult::error(resolved.error));
        return std::nullopt;
    }
    return resolved;
}

void readProjectLisp(ProjectFiles *files, Session *session, std::function<void(const ProjectLisp &project)> then)
{
    auto project = std::make_shared<ProjectLisp>(ProjectLisp::read(files->root()));
    session->query(EngineProtocol::packages(project->packages.unknownPackages()), [project, then](const QJsonObject &json) {
        const EngineProtocol::PackagesReply reply(json);
        if (reply.ok()) {
            project->packages.setFeatures(reply.features());
            for (const LispFile &file : project->files)
                project->packages.addFrom(file.tree()); // again, each #+/#- option as the session reads it
            for (const PackageDefinition &package : reply.packages()) {
                if (!project->packages.knows(package.name))
                    project->packages.add(package);
            }
        }
        then(*project);
    });
}

QString numbered(const QStringList &lines, int firstLine)
{
    const int width = int(QString::number(firstLine + int(lines.size()) - 1).size());
    QString out;
    for (qsizetype i = 0; i < lines.size(); ++i)
        out += QStringLiteral("%1│%2\n").arg(firstLine + int(i), std::max(width, 4)).arg(lines[i]);
    return out;
}

} // namespace ProjectToolKit

#include "ProjectLisp.h"

ProjectLisp ProjectLisp::read(const ProjectRoot &root, const QSet<QString> *features)
{
    ProjectLisp project;
    if (features)
        project.packages.setFeatures(*features);
    project.sources = ProjectTree::lispSources(root);
    project.files.reserve(size_t(project.sources.files.size()));
    for (const ProjectTree::SourceFile &source : std::as_const(project.sources.files)) {
        project.files.emplace_back(source.text, initialPackage(source.relative));
        project.packages.addFrom(project.files.back().tree());
    }
    return project;
}

QString ProjectLisp::initialPackage(const QString &path)
{
    return path.endsWith(QLatin1String(".asd"), Qt::CaseInsensitive) ? QStringLiteral("ASDF-USER") : QStringLiteral("COMMON-LISP-USER");
}

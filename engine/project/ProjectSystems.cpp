#include "ProjectSystems.h"

#include "lispsource/LispFile.h"
#include "ProjectTree.h"
#include "TextFile.h"

#include <QDir>

namespace ProjectSystems {

QStringList definedIn(const QString &asdText)
{
    QStringList names;
    const LispFile file(asdText, QStringLiteral("ASDF-USER"));
    for (const TopLevelForm &form : file.forms()) {
        if (form.operatorName != QLatin1String("defsystem") || form.body.childCount() < 2)
            continue;
        const SyntaxNode name = form.body.child(1);
        if (name.is(SyntaxKind::String))
            names << name.stringValue().toLower();
        else if (name.is(SyntaxKind::Symbol))
            names << name.symbol().name.toLower();
    }
    return names;
}

QList<AsdFile> scan(const ProjectRoot &root)
{
    QList<AsdFile> files;
    for (const QString &relative : ProjectTree::walk(root).files) {
        if (!relative.endsWith(QLatin1String(".asd")))
            continue;
        const TextFileContents contents = TextFile::read(QDir(root.path()).filePath(relative));
        files.append(contents.ok() ? AsdFile{relative, definedIn(contents.text), {}} : AsdFile{relative, {}, contents.error});
    }
    return files;
}

QStringList primarySystems(const QList<AsdFile> &files)
{
    QStringList systems;
    for (const AsdFile &file : files) {
        for (const QString &system : file.systems) {
            if (!system.contains(QLatin1Char('/')) && !systems.contains(system))
                systems << system;
        }
    }
    return systems;
}

} // namespace ProjectSystems

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

namespace {
// A system designator as ASDF reads it: "x", :x, #:x -> "x".
QString systemName(const SyntaxNode &node)
{
    if (node.is(SyntaxKind::String))
        return node.stringValue().toLower();
    if (node.is(SyntaxKind::Symbol))
        return node.symbol().name.toLower();
    return {};
}
} // namespace

QStringList testSystemsIn(const QString &asdText)
{
    QStringList names;
    const LispFile file(asdText, QStringLiteral("ASDF-USER"));
    for (const TopLevelForm &form : file.forms()) {
        if (form.operatorName != QLatin1String("defsystem"))
            continue;
        const QList<SyntaxNode> parts = form.body.children();
        for (qsizetype i = 2; i + 1 < parts.size(); ++i) {
            if (!parts[i].is(SyntaxKind::Symbol) || parts[i].symbol().name != QLatin1String("IN-ORDER-TO"))
                continue;
            // ((test-op (test-op "x/tests") (load-op :y)) (compile-op ...))
            for (const SyntaxNode &clause : parts[i + 1].children()) {
                if (clause.operatorName() != QLatin1String("test-op"))
                    continue;
                const QList<SyntaxNode> dependencies = clause.children();
                for (qsizetype d = 1; d < dependencies.size(); ++d) {
                    const QList<SyntaxNode> systemNames = dependencies[d].children();
                    for (qsizetype n = 1; n < systemNames.size(); ++n) {
                        if (const QString name = systemName(systemNames[n]); !name.isEmpty() && !names.contains(name))
                            names << name;
                    }
                }
            }
        }
    }
    return names;
}

bool isTestSystem(const AsdFile &file, const QString &system)
{
    if (file.testSystems.contains(system))
        return true;
    const QString part = system.section(QLatin1Char('/'), 1);
    return part.contains(QLatin1String("test")) || part == QLatin1String("t") || part.contains(QLatin1String("check"));
}

QList<AsdFile> scan(const ProjectRoot &root)
{
    QList<AsdFile> files;
    for (const QString &relative : ProjectTree::walk(root).files) {
        if (!relative.endsWith(QLatin1String(".asd")))
            continue;
        const TextFileContents contents = TextFile::read(QDir(root.path()).filePath(relative));
        files.append(contents.ok() ? AsdFile{relative, definedIn(contents.text), testSystemsIn(contents.text), {}}
                                   : AsdFile{relative, {}, {}, contents.error});
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

#pragma once

#include "ProjectRoot.h"

#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

// The project as a tree of files: the walk every tool that looks at many files takes (the
// usual build and VCS folders skipped, links out of the root left out), globs over relative
// paths, and every Lisp source read whole. No MCP, no Lisp image.
namespace ProjectTree {

// Folders never walked (.git, build/, _build/, node_modules/, .cache/) and files never listed
// (*.fasl, *.fas, *.o).
bool isSkippedFolder(const QString &name);
bool isSkippedFile(const QString &name);
bool isLispFile(const QString &path); // .lisp .lsp .cl .asd

struct Walk
{
    QStringList files;      // relative to the root, sorted
    bool truncated = false; // stopped after MaxWalkedFiles
};
constexpr int MaxWalkedFiles = 20000;
// Every regular file under the root (links that lead out of it are left out).
Walk walk(const ProjectRoot &root);

// A glob over paths relative to the root: `*` and `?` stay inside one folder, `**` crosses
// folders ("src/**/*.lisp"); a glob without '/' matches the file's name in any folder.
class Glob
{
public:
    explicit Glob(const QString &glob, bool caseSensitive = true);
    bool matches(const QString &relative) const { return m_expression.match(relative).hasMatch(); }
    const QRegularExpression &expression() const { return m_expression; }

private:
    QRegularExpression m_expression;
};

// A project Lisp file read whole, for the tools that read every one of them.
struct SourceFile
{
    QString absolute;
    QString relative;
    QString text;
};
struct Sources
{
    QList<SourceFile> files;
    QStringList skipped; // "big.lisp (too large)", "x.lisp (invalid UTF-8...)"
    bool truncated = false;
};
Sources lispSources(const ProjectRoot &root);
// A sentence about what lispSources() left out, or empty.
QString skippedNote(const Sources &sources);

} // namespace ProjectTree

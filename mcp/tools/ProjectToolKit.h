#pragma once

#include "ProjectRoot.h"
#include "TextFile.h"
#include "Tool.h"

#include <QRegularExpression>
#include <QStringList>

#include <optional>

class ProjectFiles;

// What the project tools share: the refusal when no root is set, path resolution that finishes
// the call with the confinement's sentence, the walk over the project's files (the usual build
// and VCS folders skipped), globs, and numbered lines.
namespace ProjectToolKit {

// "No project root is set..." with the four ways to set one.
QString noRootMessage();

// The path resolved for `access`, or nullopt after finishing the call with the reason (no root,
// outside the root, not a regular file...).
std::optional<ProjectRoot::Resolved> resolve(ProjectFiles *files, const ToolCallPtr &call, const QString &path,
                                             ProjectRoot::Access access);

// Folders never walked (.git, build/, _build/, node_modules/, .cache/) and files never listed
// (*.fasl, *.fas, *.o).
bool isSkippedFolder(const QString &name);
bool isSkippedFile(const QString &name);
bool isLispFile(const QString &path); // .lisp .lsp .cl .asd

struct Walk
{
    QStringList files; // relative to the root, sorted
    bool truncated = false; // stopped after MaxWalkedFiles
};
constexpr int MaxWalkedFiles = 20000;
// Every regular file under the root (links that lead out of it are left out).
Walk walk(const ProjectRoot &root);

// A glob over paths relative to the root: `*` and `?` stay inside one folder, `**` crosses
// folders ("src/**/*.lisp"); a glob without '/' matches the file's name in any folder.
QRegularExpression globExpression(const QString &glob);
bool matchesGlob(const QRegularExpression &expression, const QString &relative);

// Lines numbered like `cat -n`: the number right-aligned, then "│", then the text.
QString numbered(const QStringList &lines, int firstLine);
// The lines of a text without their line endings (CRLF, LF or CR).
QStringList splitLines(const QString &text);

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

} // namespace ProjectToolKit

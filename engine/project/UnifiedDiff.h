#pragma once

#include <QList>
#include <QString>

// The difference between two versions of a text file, as a unified diff (what `diff -u` and git
// print) and as lines a view can colour. Computed by libgit2's xdiff (Debian's libgit2), the
// same algorithm git uses, rather than a diff of our own.
struct DiffLine
{
    enum class Kind { Header, Hunk, Context, Added, Removed, NoNewline };
    Kind kind = Kind::Context;
    QString text;    // without the leading ' ', '+', '-' and without the line ending
    int oldLine = 0; // 1-based, 0 when not on that side
    int newLine = 0;
};

struct FileDiff
{
    QString text;          // the unified diff; empty when nothing changed
    QList<DiffLine> lines; // the same, line by line (headers and hunks included)
    int added = 0;
    int removed = 0;
    bool isEmpty() const { return added == 0 && removed == 0; }
};

namespace UnifiedDiff {
// `path` names both sides in the headers ("--- a/path", "+++ b/path"); an empty `before` is a
// new file, an empty `after` a deleted one.
FileDiff between(const QString &path, const QString &before, const QString &after, int contextLines = 3);
} // namespace UnifiedDiff

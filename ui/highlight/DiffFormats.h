#pragma once

// Colours for unified diffs, shared by the transcript's change blocks and the approval bar:
// added lines green, removed lines red, hunk headers dim, file headers bold. Each colour reads
// at 4.5:1 or better on its background (light: white; dark: around #1e1e1e).

#include "project/UnifiedDiff.h"

#include <QTextCharFormat>

class QTextCursor;

namespace DiffFormats {
QTextCharFormat format(DiffLine::Kind kind, bool dark);
// The line as the unified diff prints it: "+text", "-text", " text", headers as they are.
QString lineText(const DiffLine &line);
// Appends the diff to a document at cursor, one block per line, coloured.
void insert(QTextCursor &cursor, const QList<DiffLine> &lines, bool dark);
} // namespace DiffFormats

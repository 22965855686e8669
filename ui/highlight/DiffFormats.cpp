#include "DiffFormats.h"

#include <QColor>
#include <QTextCursor>

namespace DiffFormats {

QTextCharFormat format(DiffLine::Kind kind, bool dark)
{
    auto colour = [dark](const char *light, const char *darkColour) { return QColor(QLatin1String(dark ? darkColour : light)); };
    QTextCharFormat f;
    switch (kind) {
    case DiffLine::Kind::Header:
        f.setFontWeight(QFont::Bold);
        f.setForeground(colour("#3b3f45", "#c9d1d9"));
        break;
    case DiffLine::Kind::Hunk:
        f.setForeground(colour("#6a6f78", "#8b949e"));
        break;
    case DiffLine::Kind::Added:
        f.setForeground(colour("#116329", "#7ee787"));
        f.setBackground(colour("#e6ffec", "#12261e"));
        break;
    case DiffLine::Kind::Removed:
        f.setForeground(colour("#a40e26", "#ffa198"));
        f.setBackground(colour("#ffebe9", "#2d1517"));
        break;
    case DiffLine::Kind::NoNewline:
        f.setForeground(colour("#6a6f78", "#8b949e"));
        f.setFontItalic(true);
        break;
    case DiffLine::Kind::Context:
        break;
    }
    return f;
}

QString lineText(const DiffLine &line)
{
    switch (line.kind) {
    case DiffLine::Kind::Added: return QLatin1Char('+') + line.text;
    case DiffLine::Kind::Removed: return QLatin1Char('-') + line.text;
    case DiffLine::Kind::Context: return QLatin1Char(' ') + line.text;
    case DiffLine::Kind::Header:
    case DiffLine::Kind::Hunk:
    case DiffLine::Kind::NoNewline: break;
    }
    return line.text;
}

void insert(QTextCursor &cursor, const QList<DiffLine> &lines, bool dark)
{
    bool first = true;
    for (const DiffLine &line : lines) {
        if (!first)
            cursor.insertBlock();
        first = false;
        cursor.insertText(lineText(line), format(line.kind, dark));
    }
}

} // namespace DiffFormats

#pragma once

#include <QString>

// Short renderings of texts of any length, for summaries that people and agents read.
namespace TextLines {

// text cut to at most `limit` characters, ending with "…" when something was cut.
inline QString shortened(const QString &text, qsizetype limit)
{
    return text.size() <= limit ? text : text.left(limit - 1) + QChar(0x2026);
}

// text on one line (runs of whitespace made one space), then shortened.
inline QString oneLine(const QString &text, qsizetype limit)
{
    return shortened(text.simplified(), limit);
}

} // namespace TextLines

#pragma once

#include <QString>
#include <QStringList>

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

// The newest whole line of output that arrives in chunks cut anywhere (the engine sends what
// it has every 50 ms, often in the middle of a line): what a progress message or the window's
// running-job bar shows of a job. Until a line ends, the line begun so far.
class NewestLine
{
public:
    static constexpr qsizetype Kept = 1000; // of a line without end, its start is enough

    void add(const QString &chunk)
    {
        const QStringList pieces = chunk.split(QLatin1Char('\n'));
        for (qsizetype i = 0; i < pieces.size(); ++i) {
            m_partial += pieces.at(i).left(Kept - m_partial.size());
            if (i + 1 == pieces.size())
                break; // no newline after it (yet)
            if (!m_partial.trimmed().isEmpty())
                m_line = m_partial.trimmed();
            m_partial.clear();
        }
    }
    QString line() const { return m_line.isEmpty() ? m_partial.trimmed() : m_line; }
    void clear()
    {
        m_line.clear();
        m_partial.clear();
    }

private:
    QString m_line;
    QString m_partial;
};

} // namespace TextLines

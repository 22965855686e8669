#pragma once

#include <QElapsedTimer>
#include <QString>
#include <QStringList>

// Short renderings of texts of any length, for summaries that people and agents read.
namespace TextLines {

// text cut to at most `limit` characters, ending with "…" when something was cut.
inline QString shortened(const QString &text, qsizetype limit)
{
    return text.size() <= limit ? text : text.left(limit - 1) + QChar(0x2026);
}

// text cut to its first `limit` characters, saying how many more there were: what an answer
// that lists many jobs shows of one whose code is huge (one 16 MiB form made every
// session-transcript answer 16 MiB, which HTTP clients were cut off for).
inline QString excerpt(const QString &text, qsizetype limit)
{
    if (text.size() <= limit)
        return text;
    return text.left(limit) + QStringLiteral("\n… [%1 more characters]").arg(text.size() - limit);
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

// What a running job is doing, in one line: its newest progress message (Session::progress, a
// load's "compiling file 3 of 12: lists.lisp") while that is fresh, else its newest line of
// output. A message stays fresh until output comes after it and it is FreshMs old: a file that
// compiles for a minute without a word is still that file, and the compiler's warnings about
// it do not hide which file it is.
class ActivityLine
{
public:
    static constexpr qint64 FreshMs = 10000;

    void addOutput(const QString &chunk)
    {
        m_output.add(chunk);
        m_outputSerial = ++m_serial;
    }
    void setProgress(const QString &message)
    {
        m_progress = message;
        m_progressSerial = ++m_serial;
        m_progressAge.start();
    }
    bool progressIsFresh() const
    {
        return !m_progress.isEmpty() && (m_progressSerial > m_outputSerial || m_progressAge.elapsed() < FreshMs);
    }
    QString line() const { return progressIsFresh() ? m_progress : m_output.line(); }
    void clear()
    {
        m_output.clear();
        m_progress.clear();
        m_outputSerial = m_progressSerial = m_serial = 0;
    }

private:
    NewestLine m_output;
    QString m_progress;
    QElapsedTimer m_progressAge;
    quint64 m_serial = 0;
    quint64 m_outputSerial = 0;
    quint64 m_progressSerial = 0;
};

} // namespace TextLines

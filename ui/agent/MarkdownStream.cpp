#include "MarkdownStream.h"

#include <QSet>

namespace {
// Up to three spaces of indentation, as CommonMark allows before a block's marker.
qsizetype markerStart(const QString &line)
{
    qsizetype i = 0;
    while (i < line.size() && i < 3 && line.at(i) == u' ')
        ++i;
    return i;
}

bool isBlank(const QString &line)
{
    return line.trimmed().isEmpty();
}

// "```lisp", "~~~": the fence's character, its length and the info string's first word.
bool opensFence(const QString &line, QChar *fence, int *length, QString *language)
{
    const qsizetype start = markerStart(line);
    if (start >= line.size() || (line.at(start) != u'`' && line.at(start) != u'~'))
        return false;
    const QChar c = line.at(start);
    qsizetype end = start;
    while (end < line.size() && line.at(end) == c)
        ++end;
    if (end - start < 3)
        return false;
    const QString info = line.mid(end).trimmed();
    if (c == u'`' && info.contains(u'`'))
        return false; // an inline code span, not a fence
    *fence = c;
    *length = int(end - start);
    *language = info.section(u' ', 0, 0).toLower();
    return true;
}

bool closesFence(const QString &line, QChar fence, int length)
{
    const qsizetype start = markerStart(line);
    qsizetype end = start;
    while (end < line.size() && line.at(end) == fence)
        ++end;
    return end - start >= length && isBlank(line.mid(end));
}

bool isHeading(const QString &line)
{
    const qsizetype start = markerStart(line);
    qsizetype end = start;
    while (end < line.size() && line.at(end) == u'#')
        ++end;
    return end > start && end - start <= 6 && (end == line.size() || line.at(end) == u' ' || line.at(end) == u'\t');
}

bool isListItem(const QString &line)
{
    qsizetype i = 0;
    while (i < line.size() && line.at(i) == u' ')
        ++i;
    if (i >= line.size())
        return false;
    if (line.at(i) == u'-' || line.at(i) == u'*' || line.at(i) == u'+')
        return i + 1 < line.size() && line.at(i + 1) == u' ';
    qsizetype digits = i;
    while (digits < line.size() && line.at(digits).isDigit())
        ++digits;
    return digits > i && digits - i <= 9 && digits + 1 < line.size() && (line.at(digits) == u'.' || line.at(digits) == u')')
        && line.at(digits + 1) == u' ';
}

bool isIndented(const QString &line)
{
    return line.startsWith(QLatin1String("  ")) || line.startsWith(u'\t');
}
} // namespace

QList<MarkdownStream::Piece> MarkdownStream::append(QStringView chunk)
{
    QList<Piece> out;
    qsizetype from = 0;
    for (;;) {
        const qsizetype nl = chunk.indexOf(u'\n', from);
        if (nl < 0)
            break;
        m_partial += chunk.mid(from, nl - from);
        if (m_partial.endsWith(u'\r'))
            m_partial.chop(1);
        line(std::exchange(m_partial, QString()), out);
        from = nl + 1;
    }
    m_partial += chunk.mid(from);
    return out;
}

QString MarkdownStream::tail() const
{
    if (m_inCode)
        return m_partial;
    QString text = m_block.join(u'\n');
    if (!m_partial.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + m_partial;
    return text;
}

void MarkdownStream::line(const QString &text, QList<Piece> &out)
{
    if (m_inCode) {
        if (closesFence(text, m_fenceChar, m_fenceLength)) {
            m_inCode = false;
            out.append({Piece::Kind::CodeClose, {}});
        } else {
            out.append({Piece::Kind::CodeLine, text});
        }
        return;
    }
    QChar fence;
    int length = 0;
    QString language;
    if (opensFence(text, &fence, &length, &language)) {
        settleBlock(out);
        m_inCode = true;
        m_fenceChar = fence;
        m_fenceLength = length;
        m_language = language;
        out.append({Piece::Kind::CodeOpen, language});
        return;
    }
    if (isBlank(text)) {
        if (m_block.isEmpty())
            return;
        // A list may go on after a blank line (a loose list): its items stay one list, so that
        // an ordered list keeps its numbers. The next line decides.
        if (isListItem(m_block.constFirst())) {
            m_blankAfterList = true;
            m_block.append(QString());
            return;
        }
        settleBlock(out);
        return;
    }
    if (std::exchange(m_blankAfterList, false) && !isListItem(text) && !isIndented(text))
        settleBlock(out);
    if (isHeading(text)) {
        settleBlock(out);
        out.append({Piece::Kind::Markdown, text});
        return;
    }
    m_block.append(text);
    if (m_block.size() >= MaxTailLines)
        settleBlock(out);
}

void MarkdownStream::settleBlock(QList<Piece> &out)
{
    while (!m_block.isEmpty() && isBlank(m_block.constLast()))
        m_block.removeLast();
    if (!m_block.isEmpty())
        out.append({Piece::Kind::Markdown, m_block.join(u'\n')});
    m_block.clear();
    m_blankAfterList = false;
}

bool MarkdownStream::isLisp(const QString &language, const QString &firstLine)
{
    static const QSet<QString> lisps{QStringLiteral("lisp"),   QStringLiteral("common-lisp"), QStringLiteral("commonlisp"),
                                     QStringLiteral("cl"),     QStringLiteral("elisp"),       QStringLiteral("emacs-lisp"),
                                     QStringLiteral("scheme"), QStringLiteral("racket"),      QStringLiteral("clojure"),
                                     QStringLiteral("asd"),    QStringLiteral("lsp"),         QStringLiteral("sexp")};
    if (!language.isEmpty())
        return lisps.contains(language);
    const QString start = firstLine.trimmed();
    return start.startsWith(u'(') || start.startsWith(u';');
}

#pragma once

#include <QList>
#include <QString>
#include <QStringView>

// A Markdown text that arrives in chunks (an agent's streamed answer), cut into pieces that no
// later chunk can change, so a view renders each piece once and re-renders only the rest (the
// tail) as chunks come: a paragraph or list until the blank line after it, a heading at its
// line's end, a fenced code block line by line. Widget-free; the chat renders the pieces
// (ChatMarkdown) and Qt's own Markdown reader (md4c) reads each Markdown piece.
class MarkdownStream
{
public:
    struct Piece
    {
        enum class Kind {
            Markdown,  // whole blocks (paragraphs, a list, a heading, a table...), text without the last newline
            CodeOpen,  // a fence opened: text is its language ("lisp", "python", or empty)
            CodeLine,  // one line of a fenced block, without its newline
            CodeClose, // the fence closed
        };
        Kind kind = Kind::Markdown;
        QString text;
        bool operator==(const Piece &other) const = default;
    };

    // A block of prose is settled at the latest after this many lines, at a line's end, even
    // with no blank line yet: the tail, re-rendered with every chunk, stays small.
    static constexpr int MaxTailLines = 40;

    // Adds a chunk; returns the pieces it settled, in order.
    QList<Piece> append(QStringView chunk);

    // What is not settled yet: prose lines and the line being written; inside a fenced block,
    // only the code line being written (tailIsCode()).
    QString tail() const;
    bool tailIsCode() const { return m_inCode; }
    const QString &codeLanguage() const { return m_language; }

    // Whether a fenced block is Lisp: by its language, or, with none, by its first line
    // (an opening parenthesis or a ; comment).
    static bool isLisp(const QString &language, const QString &firstLine);

private:
    void line(const QString &text, QList<Piece> &out);
    void settleBlock(QList<Piece> &out);

    QString m_partial;      // the line being written (no newline yet)
    QStringList m_block;    // complete prose lines not settled yet
    bool m_blankAfterList = false; // a list met a blank line: the next line says whether it goes on
    bool m_inCode = false;
    QChar m_fenceChar;
    int m_fenceLength = 0;
    QString m_language;
};

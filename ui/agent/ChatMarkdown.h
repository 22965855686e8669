#pragma once

#include "ChatTheme.h"
#include "MarkdownStream.h"

#include <QTextCursor>

#include <functional>

class QTextFrame;

// How the chat draws text into its document: Markdown blocks (read by Qt's own Markdown reader,
// md4c, and copied block by block so that each lands whole where the cursor is), plain text,
// and fenced code in a shaded frame, Lisp coloured with the window's highlighter.
namespace ChatMarkdown {

// Goes to a block of its own (the current one when it is empty) with these formats.
void startBlock(QTextCursor &cursor, const QTextBlockFormat &format = {}, const QTextCharFormat &charFormat = {});
void insertMarkdown(QTextCursor &cursor, const QString &markdown, const ChatTheme &theme);
// Text as it is: one block per line, in `format`.
void insertPlain(QTextCursor &cursor, const QString &text, const QTextCharFormat &format);
// A frame (a code block) after what stands, without a blank line before it; the cursor goes in.
QTextFrame *insertFrame(QTextCursor &cursor, const QTextFrameFormat &format);
// Lines of Lisp in a shaded frame, coloured; the cursor ends after the frame.
void insertCode(QTextCursor &cursor, const QString &code, const ChatTheme &theme, bool lisp = true);
QTextCharFormat codeFormat(const ChatTheme &theme);
QTextCharFormat coloured(const QColor &colour, bool bold = false, bool italic = false);
QTextCharFormat link(const ChatTheme &theme, const QString &href);
QTextFrameFormat codeFrameFormat(const ChatTheme &theme);

} // namespace ChatMarkdown

// One agent message as it streams, in its frame: what MarkdownStream settles is drawn once, the
// tail is drawn again with each chunk. Positions are kept relative to the frame, so the entries
// before it may change (a tool call's row) without disturbing it.
class MessageRenderer
{
public:
    // Makes the link drawn under a finished Lisp code block ("Copy to the REPL input"): its
    // href for that code; none when it returns an empty string.
    using CodeLink = std::function<QString(const QString &code)>;

    MessageRenderer(QTextFrame *frame, const ChatTheme &theme, CodeLink codeLink = {});

    void append(QStringView chunk);
    QTextFrame *frame() const { return m_frame; }

private:
    QTextCursor removeTail();
    void drawPiece(QTextCursor &cursor, const MarkdownStream::Piece &piece);
    void drawTail(QTextCursor &cursor);
    void codeLine(QTextCursor &cursor, const QString &line, LexState &state, bool first);

    QTextFrame *m_frame;
    const ChatTheme &m_theme;
    CodeLink m_codeLink;
    MarkdownStream m_stream;
    int m_tailOffset = -1;          // from the frame's first position; -1: no tail drawn
    QTextFrame *m_codeFrame = nullptr; // the fenced block being written
    bool m_codeLisp = false;
    bool m_codeStarted = false;     // its first line is drawn
    LexState m_codeState;
    QString m_code;
};

#include "ChatMarkdown.h"

#include <QHash>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>
#include <QTextTable>

namespace {
QTextCharFormat adjusted(QTextCharFormat format, const ChatTheme &theme)
{
    if (format.isAnchor()) {
        format.setForeground(theme.link);
        format.setFontUnderline(true);
    }
    if (format.fontFixedPitch()) {
        format.setFontFamilies({theme.codeFont.family()});
        format.setBackground(theme.codeBackground);
    }
    return format;
}

void copyBlock(const QTextBlock &source, QTextCursor &cursor, const ChatTheme &theme, QHash<QTextList *, QTextList *> &lists)
{
    QTextBlockFormat format = source.blockFormat();
    if (format.nonBreakableLines()) { // an indented code block: shaded as fenced ones are
        format.setBackground(theme.codeBackground);
    }
    ChatMarkdown::startBlock(cursor, format, adjusted(source.charFormat(), theme));
    if (QTextList *list = source.textList()) {
        if (QTextList *made = lists.value(list))
            made->add(cursor.block());
        else
            lists.insert(list, cursor.createList(list->format()));
    }
    for (auto it = source.begin(); !it.atEnd(); ++it) {
        const QTextFragment fragment = it.fragment();
        QString text = fragment.text();
        text.replace(QChar::ObjectReplacementCharacter, QStringLiteral("[image]"));
        cursor.insertText(text, adjusted(fragment.charFormat(), theme));
    }
}

void copyFrame(QTextFrame *source, QTextCursor &cursor, const ChatTheme &theme, QHash<QTextList *, QTextList *> &lists);

void copyTable(QTextTable *source, QTextCursor &cursor, const ChatTheme &theme)
{
    ChatMarkdown::startBlock(cursor);
    QTextTableFormat format = source->format();
    format.setBorder(1);
    format.setBorderBrush(theme.toolBorder);
    format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    format.setBorderCollapse(true);
    format.setCellPadding(4);
    format.setCellSpacing(0);
    format.setMargin(4);
    QTextTable *table = cursor.insertTable(source->rows(), source->columns(), format);
    for (int row = 0; row < source->rows(); ++row) {
        for (int column = 0; column < source->columns(); ++column) {
            const QTextTableCell from = source->cellAt(row, column);
            QTextCursor cell = table->cellAt(row, column).firstCursorPosition();
            QHash<QTextList *, QTextList *> cellLists;
            for (auto it = from.begin(); !it.atEnd(); ++it) {
                if (it.currentBlock().isValid())
                    copyBlock(it.currentBlock(), cell, theme, cellLists);
            }
        }
    }
    cursor.setPosition(table->lastPosition() + 1);
}

void copyFrame(QTextFrame *source, QTextCursor &cursor, const ChatTheme &theme, QHash<QTextList *, QTextList *> &lists)
{
    for (auto it = source->begin(); !it.atEnd(); ++it) {
        if (QTextFrame *child = it.currentFrame()) {
            if (auto *table = qobject_cast<QTextTable *>(child))
                copyTable(table, cursor, theme);
            else
                copyFrame(child, cursor, theme, lists);
        } else if (it.currentBlock().isValid()) {
            copyBlock(it.currentBlock(), cursor, theme, lists);
        }
    }
}
} // namespace

namespace ChatMarkdown {

void startBlock(QTextCursor &cursor, const QTextBlockFormat &format, const QTextCharFormat &charFormat)
{
    if (!cursor.block().text().isEmpty() || cursor.block().textList() || cursor.currentTable()) {
        cursor.insertBlock(format, charFormat);
        if (QTextList *list = cursor.block().textList())
            list->remove(cursor.block()); // insertBlock continues a list: this block starts afresh
        cursor.setBlockFormat(format);
        return;
    }
    cursor.setBlockFormat(format);
    cursor.setBlockCharFormat(charFormat);
    cursor.setCharFormat(charFormat);
}

void insertMarkdown(QTextCursor &cursor, const QString &markdown, const ChatTheme &theme)
{
    QTextDocument scratch;
    scratch.setMarkdown(markdown, QTextDocument::MarkdownDialectGitHub);
    QHash<QTextList *, QTextList *> lists;
    copyFrame(scratch.rootFrame(), cursor, theme, lists);
}

void insertPlain(QTextCursor &cursor, const QString &text, const QTextCharFormat &format)
{
    const QStringList lines = text.split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i > 0)
            cursor.insertBlock(cursor.blockFormat(), format);
        if (!lines.at(i).isEmpty())
            cursor.insertText(lines.at(i), format);
    }
}

QTextCharFormat codeFormat(const ChatTheme &theme)
{
    QTextCharFormat format;
    format.setFontFamilies({theme.codeFont.family()});
    format.setFontFixedPitch(true);
    return format;
}

QTextCharFormat coloured(const QColor &colour, bool bold, bool italic)
{
    QTextCharFormat format;
    format.setForeground(colour);
    if (bold)
        format.setFontWeight(QFont::Bold);
    if (italic)
        format.setFontItalic(true);
    return format;
}

QTextCharFormat link(const ChatTheme &theme, const QString &href)
{
    QTextCharFormat format = coloured(theme.link);
    format.setAnchor(true);
    format.setAnchorHref(href);
    format.setFontUnderline(true);
    return format;
}

QTextFrameFormat codeFrameFormat(const ChatTheme &theme)
{
    QTextFrameFormat format;
    format.setBackground(theme.codeBackground);
    format.setPadding(6);
    format.setTopMargin(4);
    format.setBottomMargin(4);
    format.setBorder(0);
    return format;
}

QTextFrame *insertFrame(QTextCursor &cursor, const QTextFrameFormat &format)
{
    // At the end of the block before it: an empty block there would stand as a blank line.
    const QTextBlock previous = cursor.block().previous();
    if (cursor.block().text().isEmpty() && previous.isValid() && QTextCursor(previous).currentFrame() == cursor.currentFrame()
        && !previous.textList() && !QTextCursor(previous).currentTable() && !cursor.block().textList())
        cursor.deletePreviousChar();
    return cursor.insertFrame(format);
}

void insertCode(QTextCursor &cursor, const QString &code, const ChatTheme &theme, bool lisp)
{
    QTextFrame *frame = insertFrame(cursor, codeFrameFormat(theme));
    const QTextCharFormat base = codeFormat(theme);
    LexState state;
    const QStringList lines = code.split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i > 0)
            cursor.insertBlock(QTextBlockFormat(), base);
        if (lisp)
            theme.code.insertLine(cursor, lines.at(i), state, base);
        else
            cursor.insertText(lines.at(i), base);
    }
    cursor.setPosition(frame->lastPosition() + 1);
}

} // namespace ChatMarkdown

// --- MessageRenderer ---------------------------------------------------------------------------

MessageRenderer::MessageRenderer(QTextFrame *frame, const ChatTheme &theme, CodeLink codeLink)
    : m_frame(frame), m_theme(theme), m_codeLink(std::move(codeLink))
{
}

void MessageRenderer::append(QStringView chunk)
{
    QTextCursor cursor = removeTail();
    cursor.beginEditBlock();
    for (const MarkdownStream::Piece &piece : m_stream.append(chunk))
        drawPiece(cursor, piece);
    drawTail(cursor);
    cursor.endEditBlock();
}

// Takes the tail away; the cursor is where it began (an empty block of its own), or at the
// frame's end when none was drawn.
QTextCursor MessageRenderer::removeTail()
{
    QTextCursor cursor(m_frame->document());
    if (m_tailOffset < 0) {
        cursor.setPosition(m_codeFrame ? m_codeFrame->lastPosition() : m_frame->lastPosition());
        return cursor;
    }
    cursor.setPosition(m_frame->firstPosition() + m_tailOffset);
    cursor.setPosition(m_codeFrame ? m_codeFrame->lastPosition() : m_frame->lastPosition(), QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    if (QTextList *list = cursor.block().textList())
        list->remove(cursor.block());
    cursor.setBlockFormat(QTextBlockFormat());
    cursor.setBlockCharFormat(m_codeFrame ? ChatMarkdown::codeFormat(m_theme) : QTextCharFormat());
    m_tailOffset = -1;
    return cursor;
}

void MessageRenderer::codeLine(QTextCursor &cursor, const QString &line, LexState &state, bool first)
{
    const QTextCharFormat base = ChatMarkdown::codeFormat(m_theme);
    if (!first && !(cursor.block().text().isEmpty() && cursor.atBlockStart()))
        cursor.insertBlock(QTextBlockFormat(), base);
    if (m_codeLisp)
        m_theme.code.insertLine(cursor, line, state, base);
    else
        cursor.insertText(line, base);
}

void MessageRenderer::drawPiece(QTextCursor &cursor, const MarkdownStream::Piece &piece)
{
    using Kind = MarkdownStream::Piece::Kind;
    switch (piece.kind) {
    case Kind::Markdown:
        ChatMarkdown::insertMarkdown(cursor, piece.text, m_theme);
        return;
    case Kind::CodeOpen:
        m_codeFrame = ChatMarkdown::insertFrame(cursor, ChatMarkdown::codeFrameFormat(m_theme));
        m_codeStarted = false;
        m_codeState = LexState();
        m_code.clear();
        return;
    case Kind::CodeLine:
        if (!m_codeStarted)
            m_codeLisp = MarkdownStream::isLisp(m_stream.codeLanguage(), piece.text);
        codeLine(cursor, piece.text, m_codeState, !m_codeStarted);
        m_codeStarted = true;
        m_code += (m_code.isEmpty() ? QString() : QStringLiteral("\n")) + piece.text;
        return;
    case Kind::CodeClose: {
        if (!m_codeFrame)
            return;
        cursor.setPosition(m_codeFrame->lastPosition() + 1);
        m_codeFrame = nullptr;
        const QString href = m_codeLisp && m_codeLink ? m_codeLink(m_code) : QString();
        if (!href.isEmpty()) {
            QTextCharFormat format = ChatMarkdown::link(m_theme, href);
            format.setFontUnderline(false);
            format.setFontPointSize(m_frame->document()->defaultFont().pointSizeF() * 0.85);
            ChatMarkdown::startBlock(cursor);
            cursor.insertText(QObject::tr("Copy to the REPL input"), format);
            cursor.insertText(QStringLiteral(" "), QTextCharFormat());
        }
        return;
    }
    }
}

void MessageRenderer::drawTail(QTextCursor &cursor)
{
    const QString tail = m_stream.tail();
    if (tail.isEmpty())
        return;
    if (m_codeFrame) {
        // A fresh block in the code frame (its first one when no line is drawn yet).
        if (m_codeStarted)
            cursor.insertBlock(QTextBlockFormat(), ChatMarkdown::codeFormat(m_theme));
        m_tailOffset = cursor.position() - m_frame->firstPosition();
        if (!m_codeStarted)
            m_codeLisp = MarkdownStream::isLisp(m_stream.codeLanguage(), tail);
        LexState state = m_codeState;
        codeLine(cursor, tail, state, true);
        return;
    }
    ChatMarkdown::startBlock(cursor);
    m_tailOffset = cursor.position() - m_frame->firstPosition();
    ChatMarkdown::insertMarkdown(cursor, tail, m_theme);
}

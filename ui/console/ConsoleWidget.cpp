#include "ConsoleWidget.h"

#include "highlight/LispHighlighter.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QScrollBar>
#include <QStringListModel>
#include <QTextBlock>

namespace {
QString commonPrefix(const QStringList &words)
{
    if (words.isEmpty())
        return {};
    QString prefix = words.first();
    for (const QString &word : words) {
        int n = 0;
        while (n < prefix.size() && n < word.size() && prefix.at(n).toLower() == word.at(n).toLower())
            ++n;
        prefix.truncate(n);
    }
    return prefix;
}
} // namespace

ConsoleWidget::ConsoleWidget(QWidget *parent)
    : HistoryEdit(parent), m_completer(new QCompleter(this)), m_completions(new QStringListModel(this))
{
    setTabChangesFocus(false);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setFrameShape(QFrame::NoFrame);
    m_completer->setModel(m_completions);
    m_completer->setWidget(this);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setMaxVisibleItems(12);
    connect(m_completer, qOverload<const QString &>(&QCompleter::activated), this, &ConsoleWidget::insertCompletion);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &ConsoleWidget::highlightMatchingParen);
}

ConsoleWidget::~ConsoleWidget() = default;

void ConsoleWidget::submit()
{
    const QString code = toPlainText();
    if (LispSource::isBlank(code)) {
        clear();
        return;
    }
    remember(code);
    clear();
    Q_EMIT submitted(code);
}

void ConsoleWidget::keyPressEvent(QKeyEvent *event)
{
    if (m_completer->popup()->isVisible()) {
        switch (event->key()) {
        case Qt::Key_Enter:
        case Qt::Key_Return:
        case Qt::Key_Escape:
        case Qt::Key_Tab:
        case Qt::Key_Backtab:
            event->ignore(); // the completer's popup takes these
            return;
        default:
            break;
        }
    }
    if (m_searching && handleSearchKey(event))
        return;
    if (walkHistory(event))
        return;

    const bool shift = event->modifiers() & Qt::ShiftModifier;
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    QTextCursor cursor = textCursor();
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (shift || ctrl) {
            insertNewLine();
        } else if (LispSource::isComplete(toPlainText())) {
            submit();
        } else {
            insertNewLine();
        }
        return;
    case Qt::Key_Tab:
        if (event->modifiers() == Qt::NoModifier) {
            const QString lineBefore = cursor.block().text().left(cursor.positionInBlock());
            if (lineBefore.trimmed().isEmpty())
                indentLine();
            else
                requestCompletion();
            return;
        }
        break;
    case Qt::Key_R:
        if (ctrl) {
            startSearch();
            return;
        }
        break;
    case Qt::Key_Escape:
        Q_EMIT escapePressed();
        return;
    default:
        break;
    }
    if (event->matches(QKeySequence::Copy) && !cursor.hasSelection() && (m_busy || toPlainText().isEmpty())) {
        Q_EMIT interruptRequested();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
    if (m_completer->popup()->isVisible()) {
        // Keep filtering the popup as the person types on.
        const SymbolPrefix prefix = LispSource::symbolPrefixAt(toPlainText(), textCursor().position());
        if (!prefix.isValid() || prefix.start != m_completionStart)
            m_completer->popup()->hide();
        else
            m_completer->setCompletionPrefix(prefix.prefix);
    }
}

void ConsoleWidget::focusOutEvent(QFocusEvent *event)
{
    if (m_searching)
        endSearch(true);
    QPlainTextEdit::focusOutEvent(event);
}

void ConsoleWidget::insertNewLine()
{
    QTextCursor cursor = textCursor();
    const QString before = toPlainText().left(cursor.position());
    const int indent = LispSource::indentationForNewLine(before);
    cursor.insertText(QStringLiteral("\n") + QString(indent, u' '));
    setTextCursor(cursor);
    ensureCursorVisible();
}

void ConsoleWidget::indentLine()
{
    QTextCursor cursor = textCursor();
    const QTextBlock block = cursor.block();
    if (block.blockNumber() == 0)
        return; // the first line starts at the prompt
    const QString before = toPlainText().left(block.position() - 1);
    const int indent = LispSource::indentationForNewLine(before);
    const QString text = block.text();
    int current = 0;
    while (current < text.size() && text.at(current) == u' ')
        ++current;
    QTextCursor edit(block);
    edit.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor, current);
    edit.insertText(QString(indent, u' '));
    if (cursor.positionInBlock() < indent) {
        cursor.setPosition(block.position() + indent);
        setTextCursor(cursor);
    }
}

void ConsoleWidget::requestCompletion()
{
    const SymbolPrefix prefix = LispSource::symbolPrefixAt(toPlainText(), textCursor().position());
    if (!prefix.isValid() || prefix.prefix.isEmpty())
        return;
    Q_EMIT completionRequested(prefix);
}

void ConsoleWidget::showCompletions(const SymbolPrefix &prefix, const QStringList &candidates)
{
    // The answer comes back asynchronously: ignore it if the person moved on meanwhile.
    const SymbolPrefix now = LispSource::symbolPrefixAt(toPlainText(), textCursor().position());
    if (!now.isValid() || now.start != prefix.start || now.prefix != prefix.prefix)
        return;
    if (candidates.isEmpty()) {
        Q_EMIT hint(tr("No completions for %1").arg(prefix.prefix));
        return;
    }
    m_completionStart = prefix.start;
    if (candidates.size() == 1) {
        insertCompletion(candidates.first());
        return;
    }
    const QString common = commonPrefix(candidates);
    if (common.size() > prefix.prefix.size())
        insertCompletion(common);
    m_completions->setStringList(candidates);
    m_completer->setCompletionPrefix(toPlainText().mid(prefix.start, textCursor().position() - prefix.start));
    QRect rect = cursorRect();
    rect.setWidth(m_completer->popup()->sizeHintForColumn(0) + m_completer->popup()->verticalScrollBar()->sizeHint().width() + 24);
    m_completer->complete(rect);
    Q_EMIT hint(tr("%1 completions").arg(candidates.size()));
}

void ConsoleWidget::insertCompletion(const QString &completion)
{
    if (m_completionStart < 0)
        return;
    QTextCursor cursor = textCursor();
    const int end = cursor.position();
    if (end < m_completionStart)
        return;
    cursor.setPosition(m_completionStart);
    cursor.setPosition(end, QTextCursor::KeepAnchor);
    cursor.insertText(completion);
    setTextCursor(cursor);
}

void ConsoleWidget::highlightMatchingParen()
{
    QList<QTextEdit::ExtraSelection> selections;
    const QString text = toPlainText();
    const int pos = textCursor().position();
    // The paren after the cursor, or the one just before it (after typing a ')').
    for (int at : {pos, pos - 1}) {
        if (at < 0 || at >= text.size())
            continue;
        const int match = LispSource::matchingParen(text, at);
        if (match < 0)
            continue;
        const bool dark = SyntaxHighlighting::themeFor(palette().color(QPalette::Base)) == SyntaxHighlighting::Theme::Dark;
        for (int p : {at, match}) {
            QTextEdit::ExtraSelection selection;
            selection.format.setBackground(dark ? QColor(0x2d, 0x4a, 0x6a) : QColor(0xcd, 0xe8, 0xff));
            selection.format.setForeground(dark ? QColor(0x9e, 0xcb, 0xff) : QColor(0x00, 0x33, 0xb3));
            selection.cursor = QTextCursor(document());
            selection.cursor.setPosition(p);
            selection.cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor);
            selections << selection;
        }
        break;
    }
    setExtraSelections(selections);
}

void ConsoleWidget::startSearch()
{
    if (!m_searching) {
        m_searching = true;
        m_searchNeedle.clear();
        m_searchIndex = -1;
        m_searchSaved = toPlainText();
        Q_EMIT hint(tr("(reverse-i-search)`': type to search the history, Ctrl+R for older, Esc to cancel"));
        return;
    }
    updateSearch(m_searchIndex > 0 ? m_searchIndex - 1 : -2);
}

void ConsoleWidget::updateSearch(int from)
{
    const int found = from == -2 ? -1 : history().search(m_searchNeedle, from);
    if (found >= 0) {
        m_searchIndex = found;
        replaceText(history().at(found));
        Q_EMIT hint(tr("(reverse-i-search)`%1'").arg(m_searchNeedle));
    } else {
        Q_EMIT hint(tr("(failing reverse-i-search)`%1'").arg(m_searchNeedle));
    }
}

void ConsoleWidget::endSearch(bool keep)
{
    m_searching = false;
    if (!keep)
        replaceText(m_searchSaved);
    history().resetNavigation();
    Q_EMIT hint(QString());
}

bool ConsoleWidget::handleSearchKey(QKeyEvent *event)
{
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    if (event->key() == Qt::Key_Escape || (ctrl && event->key() == Qt::Key_G)) {
        endSearch(false);
        return true;
    }
    if (ctrl && event->key() == Qt::Key_R) {
        startSearch();
        return true;
    }
    if (event->key() == Qt::Key_Backspace) {
        m_searchNeedle.chop(1);
        updateSearch(-1);
        return true;
    }
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        endSearch(true); // accept the match for editing; a second Enter runs it
        return true;
    }
    const QString text = event->text();
    if (!ctrl && !text.isEmpty() && text.at(0).isPrint()) {
        m_searchNeedle += text;
        updateSearch(-1);
        return true;
    }
    // Any other key ends the search with the match kept, then acts as usual.
    endSearch(true);
    return false;
}

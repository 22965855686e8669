#include "TranscriptView.h"

#include "highlight/DiffFormats.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>

namespace {
// Marks the hidden blocks of a collapsed group.
class GroupData : public QTextBlockUserData
{
public:
    explicit GroupData(quint64 group) : group(group) {}
    quint64 group;
};

quint64 groupOf(const QTextBlock &block)
{
    auto *data = static_cast<GroupData *>(block.userData());
    return data ? data->group : 0;
}

bool isStream(TranscriptView::Style style)
{
    return style == TranscriptView::Style::Stdout || style == TranscriptView::Style::Stderr;
}

constexpr int LaneBarWidth = 4;
constexpr int EntryProperty = QTextFormat::UserProperty + 1; // a block's entry (markEntry)
constexpr qint64 FlushBudgetMs = 12; // per timer tick: leaves the event loop most of its time
constexpr int ChunkChars = 4096;     // granularity at which a long text checks the clock
} // namespace

TranscriptView::TranscriptView(QWidget *parent) : QPlainTextEdit(parent), m_theme(HighlightTheme::light())
{
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setMaximumBlockCount(20000);
    setFrameShape(QFrame::NoFrame);
    document()->setDocumentMargin(12);
    viewport()->setMouseTracking(true);
    m_timer.setInterval(m_interval);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { flush(FlushBudgetMs); });
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        m_atBottom = value >= verticalScrollBar()->maximum() - 4;
    });
}

void TranscriptView::resizeEvent(QResizeEvent *event)
{
    const bool atBottom = m_atBottom;
    QPlainTextEdit::resizeEvent(event);
    if (atBottom)
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

TranscriptView::~TranscriptView() = default;

void TranscriptView::setScrollback(int blocks)
{
    setMaximumBlockCount(qMax(100, blocks));
}

QList<QTextCharFormat> TranscriptView::themedFormats() const
{
    QList<QTextCharFormat> formats;
    for (Style style : {Style::Plain, Style::Code, Style::Header, Style::Value, Style::Stdout, Style::Stderr, Style::Warning,
                         Style::Error, Style::Note, Style::Link, Style::Backtrace})
        formats << format(style);
    for (int kind = 0; kind <= int(LispTokenKind::Symbol); ++kind)
        formats << m_theme.format(LispTokenKind(kind));
    const bool dark = m_theme.background().lightness() < 128;
    for (DiffLine::Kind kind : {DiffLine::Kind::Header, DiffLine::Kind::Hunk, DiffLine::Kind::Added, DiffLine::Kind::Removed, DiffLine::Kind::NoNewline})
        formats << DiffFormats::format(kind, dark);
    return formats;
}

void TranscriptView::setTheme(const HighlightTheme &theme)
{
    // Each colour the old theme gave a format becomes what the new one gives it.
    const QList<QTextCharFormat> before = themedFormats();
    m_theme = theme;
    const QList<QTextCharFormat> after = themedFormats();
    QHash<QRgb, QColor> foregrounds;
    QHash<QRgb, QColor> backgrounds;
    for (qsizetype i = 0; i < before.size(); ++i) {
        const QBrush fg = before.at(i).foreground();
        if (fg.style() != Qt::NoBrush && after.at(i).foreground().style() != Qt::NoBrush && !foregrounds.contains(fg.color().rgba()))
            foregrounds.insert(fg.color().rgba(), after.at(i).foreground().color());
        const QBrush bg = before.at(i).background();
        if (bg.style() != Qt::NoBrush && after.at(i).background().style() != Qt::NoBrush && !backgrounds.contains(bg.color().rgba()))
            backgrounds.insert(bg.color().rgba(), after.at(i).background().color());
    }
    if (foregrounds.isEmpty() && backgrounds.isEmpty())
        return;
    struct Span { int from, length; QTextCharFormat format; };
    QList<Span> spans; // collected first: recolouring merges and splits the fragments walked
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            QTextCharFormat f = fragment.charFormat();
            const auto fg = f.foreground().style() != Qt::NoBrush ? foregrounds.constFind(f.foreground().color().rgba()) : foregrounds.cend();
            const auto bg = f.background().style() != Qt::NoBrush ? backgrounds.constFind(f.background().color().rgba()) : backgrounds.cend();
            if (fg == foregrounds.cend() && bg == backgrounds.cend())
                continue;
            if (fg != foregrounds.cend())
                f.setForeground(*fg);
            if (bg != backgrounds.cend())
                f.setBackground(*bg);
            spans.append({fragment.position(), fragment.length(), f});
        }
    }
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    for (const Span &span : spans) {
        cursor.setPosition(span.from);
        cursor.setPosition(span.from + span.length, QTextCursor::KeepAnchor);
        cursor.setCharFormat(span.format);
    }
    cursor.endEditBlock();
}

void TranscriptView::followEnd()
{
    QScrollBar *bar = verticalScrollBar();
    bar->setValue(bar->maximum());
    m_atBottom = true;
}

QColor TranscriptView::laneColor(int lane)
{
    // Lane 1 is the person; agents get distinct hues that read well on white.
    static const QColor colours[] = {QColor(0x7a, 0x3e, 0x9d), QColor(0x00, 0x80, 0x80), QColor(0xc0, 0x5a, 0x00),
                                     QColor(0x2f, 0x6f, 0x2f), QColor(0xb0, 0x30, 0x70), QColor(0x3a, 0x5a, 0xc0)};
    if (lane <= 0)
        return {};
    if (lane == 1)
        return QColor(0xb8, 0xc4, 0xd0);
    return colours[(lane - 2) % int(std::size(colours))];
}

QTextCharFormat TranscriptView::format(Style style) const
{
    // Two palettes, picked by the theme's background, each readable on it (AA contrast).
    const bool dark = m_theme.background().lightness() < 128;
    auto colour = [dark](const char *light, const char *darkColour) { return QColor(QLatin1String(dark ? darkColour : light)); };
    QTextCharFormat f;
    switch (style) {
    case Style::Plain:
    case Style::Code:
    case Style::Stdout:
        break;
    case Style::Header:
        f.setFontWeight(QFont::Bold);
        break;
    case Style::Value:
        f.setForeground(colour("#0b4f9c", "#79b8ff"));
        break;
    case Style::Stderr:
        f.setForeground(colour("#a33a00", "#f0a070"));
        break;
    case Style::Warning:
        f.setForeground(colour("#8a5a00", "#e0c060"));
        break;
    case Style::Error:
        f.setForeground(colour("#b01c1c", "#ff7b72"));
        break;
    case Style::Note:
        f.setForeground(colour("#5f6670", "#9aa4b0"));
        f.setFontItalic(true);
        break;
    case Style::Link:
        f.setForeground(colour("#1a5fb4", "#6cb6ff"));
        f.setFontUnderline(true);
        break;
    case Style::Backtrace:
        f.setForeground(colour("#5f6670", "#9aa4b0"));
        break;
    }
    return f;
}

void TranscriptView::enqueue(Piece piece)
{
    if (piece.kind == Piece::Kind::Text && isStream(piece.style))
        m_pendingStreamChars += piece.text.size();
    m_pending.push_back(std::move(piece));
    trimPending();
    if (!m_timer.isActive())
        m_timer.start(m_interval);
}

// Output that arrives faster than it can be shown would scroll out of the scrollback before
// anyone saw it: drop the oldest queued stream text beyond what the scrollback can hold, so
// memory stays bounded whatever the program prints. A note in the transcript says so.
void TranscriptView::trimPending()
{
    const qint64 cap = qMax<qint64>(256 * 1024, qint64(maximumBlockCount()) * 100);
    if (m_pendingStreamChars <= cap)
        return;
    qint64 excess = m_pendingStreamChars - cap;
    qint64 carried = 0; // dropped from pieces that vanished entirely
    for (auto it = m_pending.begin(); excess > 0 && it != m_pending.end();) {
        if (it->kind != Piece::Kind::Text || !isStream(it->style)) {
            ++it;
            continue;
        }
        const qint64 cut = qMin<qint64>(excess, it->text.size());
        it->text.remove(0, qsizetype(cut));
        excess -= cut;
        m_pendingStreamChars -= cut;
        m_droppedTotal += cut;
        carried += cut + it->droppedBefore;
        if (it->text.isEmpty()) {
            it = m_pending.erase(it);
            continue;
        }
        it->droppedBefore = carried; // the note is shown where the kept text resumes
        carried = 0;
        ++it;
    }
    if (carried > 0) {
        Piece note;
        note.style = Style::Stdout;
        note.droppedBefore = carried;
        note.text = QStringLiteral(" ");
        m_pending.push_back(note);
    }
}

void TranscriptView::appendText(const QString &text, Style style, int lane)
{
    if (text.isEmpty())
        return;
    // Merge with the previous piece of the same kind: output often arrives in small chunks.
    if (!m_pending.empty()) {
        Piece &last = m_pending.back();
        if (last.kind == Piece::Kind::Text && last.style == style && last.lane == lane && last.text.size() < 64 * 1024) {
            last.text += text;
            if (isStream(style)) {
                m_pendingStreamChars += text.size();
                trimPending();
            }
            return;
        }
    }
    enqueue({.text = text, .style = style, .lane = lane});
}

void TranscriptView::newLine(int lane)
{
    enqueue({.kind = Piece::Kind::NewLine, .lane = lane});
}

void TranscriptView::appendCode(const QString &code, int lane, const QString &prefix)
{
    enqueue({.kind = Piece::Kind::Code, .text = code, .lane = lane, .href = prefix});
}

void TranscriptView::appendLink(const QString &text, const QString &href, int lane)
{
    enqueue({.kind = Piece::Kind::Link, .text = text, .lane = lane, .href = href});
}

void TranscriptView::markEntry(quint64 id)
{
    enqueue({.kind = Piece::Kind::Entry, .group = id});
}

quint64 TranscriptView::entryAt(const QPoint &viewportPosition) const
{
    return cursorForPosition(viewportPosition).block().blockFormat().property(EntryProperty).toULongLong();
}

QMenu *TranscriptView::contextMenu(const QPoint &viewportPosition)
{
    QMenu *menu = createStandardContextMenu(viewportPosition);
    Q_EMIT contextMenuAbout(menu, entryAt(viewportPosition));
    return menu;
}

void TranscriptView::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu *menu = contextMenu(event->pos());
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
}

void TranscriptView::retireLink(const QString &href, const QString &text)
{
    flushNow();
    for (QTextBlock block = document()->lastBlock(); block.isValid(); block = block.previous()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.charFormat().isAnchor() || fragment.charFormat().anchorHref() != href)
                continue;
            QTextCursor cursor(document());
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.insertText(text, format(Style::Note));
            return;
        }
    }
}

void TranscriptView::appendCollapsed(const QString &title, const QStringList &lines, int lane)
{
    enqueue({.kind = Piece::Kind::Collapsed, .text = title, .lane = lane, .lines = lines, .group = m_nextGroup++});
}

void TranscriptView::appendDiff(const QList<DiffLine> &lines, int lane, int visibleLines)
{
    Piece piece;
    piece.kind = Piece::Kind::Diff;
    piece.diff = lines;
    piece.visibleLines = qMax(1, visibleLines);
    piece.lane = lane;
    if (lines.size() > piece.visibleLines)
        piece.group = m_nextGroup++;
    enqueue(std::move(piece));
}

void TranscriptView::flushNow()
{
    flush(-1);
}

void TranscriptView::flush(qint64 budgetMs)
{
    if (m_pending.empty())
        return;
    QScrollBar *bar = verticalScrollBar();
    const bool atBottom = m_atBottom;
    QElapsedTimer clock;
    clock.start();
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    // Edit blocks are per piece (per chunk of long text): the document lays out what an edit
    // block inserted when it ends, so the clock is looked at after that work, not before it.
    while (!m_pending.empty()) {
        if (budgetMs >= 0 && clock.elapsed() >= budgetMs)
            break;
        bool partial = false;
        Piece &piece = m_pending.front();
        if (piece.kind != Piece::Kind::Text)
            cursor.beginEditBlock();
        insertPiece(cursor, piece, clock, budgetMs, &partial);
        if (piece.kind != Piece::Kind::Text)
            cursor.endEditBlock();
        if (partial)
            break;
        if (piece.kind == Piece::Kind::Text && isStream(piece.style))
            m_pendingStreamChars -= piece.text.size();
        m_pending.pop_front();
    }
    if (atBottom) {
        bar->setValue(bar->maximum());
        m_atBottom = true;
    }
    m_longestFlushMs = qMax(m_longestFlushMs, clock.nsecsElapsed() / 1e6);
    // A backlog is worked off at about half the event loop's time: batches of FlushBudgetMs
    // with as long a gap for everything else.
    if (!m_pending.empty())
        m_timer.start(int(FlushBudgetMs) + 4);
}

void TranscriptView::startBlock(QTextCursor &cursor, int lane, quint64 group)
{
    // An empty last block is reused, so "start a block" never leaves stray blank lines.
    if (!cursor.block().text().isEmpty() || groupOf(cursor.block()) != 0)
        cursor.insertBlock();
    QTextBlock block = cursor.block();
    block.setUserState(lane);
    block.setUserData(group ? new GroupData(group) : nullptr);
    block.setVisible(group == 0);
    QTextBlockFormat bf;
    if (lane >= 2) {
        QColor tint = laneColor(lane);
        tint.setAlpha(14);
        bf.setBackground(tint);
    }
    if (m_entry)
        bf.setProperty(EntryProperty, m_entry); // the blocks split from this one inherit it
    cursor.setBlockFormat(bf);
}

void TranscriptView::insertText(QTextCursor &cursor, const QString &text, const QTextCharFormat &format, int lane, quint64 group)
{
    if (cursor.block().userState() < 0)
        cursor.block().setUserState(lane);
    qsizetype start = 0;
    while (start <= text.size()) {
        const qsizetype nl = text.indexOf(u'\n', start);
        const qsizetype end = nl < 0 ? text.size() : nl;
        if (end > start)
            cursor.insertText(text.mid(start, end - start), format);
        if (nl < 0)
            break;
        cursor.insertBlock();
        cursor.block().setUserState(lane);
        cursor.block().setUserData(group ? new GroupData(group) : nullptr);
        cursor.block().setVisible(group == 0);
        start = nl + 1;
    }
}

void TranscriptView::insertPiece(QTextCursor &cursor, Piece &piece, const QElapsedTimer &clock, qint64 budgetMs, bool *partial)
{
    switch (piece.kind) {
    case Piece::Kind::NewLine:
        startBlock(cursor, piece.lane);
        return;
    case Piece::Kind::Entry:
        m_entry = piece.group;
        return;
    case Piece::Kind::Text: {
        if (piece.droppedBefore > 0) {
            insertText(cursor, tr("\n[%1 characters of output skipped: they arrived faster than the window shows them]\n")
                                   .arg(piece.droppedBefore), format(Style::Note), piece.lane);
            piece.droppedBefore = 0;
        }
        const QTextCharFormat f = format(piece.style);
        // Long output goes in chunks, each ending at a newline where possible, so the clock is
        // looked at often and a 10 MB print cannot hold the event loop.
        while (!piece.text.isEmpty()) {
            qsizetype cut = piece.text.size();
            if (cut > ChunkChars) {
                const qsizetype nl = piece.text.lastIndexOf(u'\n', ChunkChars);
                cut = nl > 0 ? nl + 1 : ChunkChars;
            }
            cursor.beginEditBlock();
            insertText(cursor, piece.text.left(cut), f, piece.lane);
            cursor.endEditBlock();
            if (isStream(piece.style))
                m_pendingStreamChars -= cut;
            piece.text.remove(0, cut);
            if (!piece.text.isEmpty() && budgetMs >= 0 && clock.elapsed() >= budgetMs) {
                *partial = true;
                return;
            }
        }
        return;
    }
    case Piece::Kind::Code: {
        startBlock(cursor, piece.lane);
        QTextCharFormat promptFormat = format(Style::Note);
        promptFormat.setFontItalic(false);
        if (!piece.href.isEmpty())
            cursor.insertText(piece.href, promptFormat);
        LexState state;
        const QStringList lines = piece.text.split(u'\n');
        for (int i = 0; i < lines.size(); ++i) {
            if (i > 0) {
                cursor.insertBlock();
                cursor.block().setUserState(piece.lane);
            }
            m_theme.insertLine(cursor, lines.at(i), state);
        }
        return;
    }
    case Piece::Kind::Link: {
        QTextCharFormat f = format(Style::Link);
        f.setAnchor(true);
        f.setAnchorHref(piece.href);
        cursor.insertText(piece.text, f);
        cursor.insertText(QStringLiteral(" "), QTextCharFormat());
        return;
    }
    case Piece::Kind::Diff: {
        const bool dark = m_theme.background().lightness() < 128;
        const int total = int(piece.diff.size());
        for (int i = 0; i < total; ++i) {
            if (i == piece.visibleLines) {
                startBlock(cursor, piece.lane);
                QTextCharFormat f = format(Style::Link);
                f.setAnchor(true);
                f.setAnchorHref(QStringLiteral("toggle:%1").arg(piece.group));
                cursor.insertText(tr("[+] Show all %1 lines (%2 more)").arg(total).arg(total - piece.visibleLines), f);
            }
            startBlock(cursor, piece.lane, i >= piece.visibleLines ? piece.group : 0);
            const DiffLine &line = piece.diff.at(i);
            cursor.insertText(DiffFormats::lineText(line), DiffFormats::format(line.kind, dark));
        }
        return;
    }
    case Piece::Kind::Collapsed: {
        startBlock(cursor, piece.lane);
        QTextCharFormat f = format(Style::Link);
        f.setAnchor(true);
        f.setAnchorHref(QStringLiteral("toggle:%1").arg(piece.group));
        cursor.insertText(QStringLiteral("[+] ") + piece.text, f);
        const QTextCharFormat lineFormat = format(Style::Backtrace);
        for (const QString &line : piece.lines) {
            startBlock(cursor, piece.lane, piece.group);
            cursor.insertText(QStringLiteral("    ") + line, lineFormat);
        }
        return;
    }
    }
}

bool TranscriptView::isGroupExpanded(quint64 group) const
{
    for (QTextBlock block = document()->lastBlock(); block.isValid(); block = block.previous()) {
        if (groupOf(block) == group)
            return block.isVisible();
    }
    return false;
}

void TranscriptView::toggleGroup(quint64 group)
{
    QTextBlock first;
    for (QTextBlock block = document()->lastBlock(); block.isValid(); block = block.previous()) {
        if (groupOf(block) == group)
            first = block;
        else if (first.isValid())
            break;
    }
    if (!first.isValid())
        return;
    const bool show = !first.isVisible();
    QTextBlock last = first;
    for (QTextBlock block = first; block.isValid() && groupOf(block) == group; block = block.next()) {
        block.setVisible(show);
        last = block;
    }
    // The link's "[+]"/"[-]" lives in the block before the group.
    const QTextBlock header = first.previous();
    if (header.isValid() && (header.text().startsWith(QStringLiteral("[+]")) || header.text().startsWith(QStringLiteral("[-]")))) {
        QTextCursor cursor(header);
        cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor, 3);
        QTextCharFormat f = cursor.charFormat();
        cursor.insertText(show ? QStringLiteral("[-]") : QStringLiteral("[+]"), f);
    }
    document()->markContentsDirty(first.position(), last.position() + last.length() - first.position());
    viewport()->update();
}

void TranscriptView::paintEvent(QPaintEvent *event)
{
    QPlainTextEdit::paintEvent(event);
    QPainter painter(viewport());
    const QPointF offset = contentOffset();
    const int bottom = viewport()->height();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        if (!block.isVisible())
            continue;
        const QRectF rect = blockBoundingGeometry(block).translated(offset);
        if (rect.top() > bottom)
            break;
        const int lane = block.userState();
        // The empty block after an entry's last line belongs to whatever comes next.
        const bool trailing = block == document()->lastBlock() && block.text().isEmpty();
        if (lane > 0 && !trailing)
            painter.fillRect(QRectF(3, rect.top(), LaneBarWidth, rect.height()), laneColor(lane));
    }
}

void TranscriptView::mouseMoveEvent(QMouseEvent *event)
{
    QPlainTextEdit::mouseMoveEvent(event);
    viewport()->setCursor(anchorAt(event->position().toPoint()).isEmpty() ? Qt::IBeamCursor : Qt::PointingHandCursor);
}

void TranscriptView::mouseReleaseEvent(QMouseEvent *event)
{
    const QString href = anchorAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && !href.isEmpty() && !textCursor().hasSelection()) {
        if (href.startsWith(QStringLiteral("toggle:")))
            toggleGroup(href.mid(7).toULongLong());
        else
            Q_EMIT linkActivated(href);
        return;
    }
    QPlainTextEdit::mouseReleaseEvent(event);
}

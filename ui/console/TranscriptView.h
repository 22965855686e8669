#pragma once

#include "highlight/LispHighlighter.h"
#include "project/UnifiedDiff.h"

#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QTimer>

#include <deque>

// The read-only transcript. Everything is appended through a queue that a timer flushes in
// time-bounded batches, so a flood of output (megabytes) never blocks the event loop, and the
// document keeps at most scrollback() blocks. Entries sit in "lanes": a lane's colour is
// painted as a bar at the left of its blocks, which is how agents' calls stand apart from the
// person's. Collapsed groups (a backtrace) are hidden blocks toggled by a "[+]" link.
class TranscriptView : public QPlainTextEdit
{
    Q_OBJECT
public:
    enum class Style { Plain, Code, Header, Value, Stdout, Stderr, Warning, Error, Note, Link, Backtrace };

    explicit TranscriptView(QWidget *parent = nullptr);
    ~TranscriptView() override;

    // Appends text at the end; '\n' starts a new block in the same lane.
    void appendText(const QString &text, Style style, int lane = 0);
    // Starts a new block unless the last one is empty.
    void newLine(int lane = 0);
    // Lisp code, highlighted, starting on its own block; prefix (a prompt) is put before it.
    void appendCode(const QString &code, int lane = 0, const QString &prefix = QString());
    // A link; clicking it emits linkActivated(href).
    void appendLink(const QString &text, const QString &href, int lane = 0);
    // A "[+] title" link followed by lines that stay hidden until it is clicked.
    void appendCollapsed(const QString &title, const QStringList &lines, int lane = 0);
    // The blocks from here on belong to entry `id` (a job's), until the next mark; 0: to none.
    // entryAt() reads it back: the context menu's "Send this entry to the agent" needs it.
    void markEntry(quint64 id);
    quint64 entryAt(const QPoint &viewportPosition) const;
    // The context menu at that point: the standard one, then whatever contextMenuAbout() adds.
    QMenu *contextMenu(const QPoint &viewportPosition);
    // A unified diff, coloured (added green, removed red, hunk headers dim); beyond
    // visibleLines the rest waits behind a "[+] Show all N lines" link.
    void appendDiff(const QList<DiffLine> &lines, int lane = 0, int visibleLines = DiffLinesShown);
    static constexpr int DiffLinesShown = 20;

    int scrollback() const { return maximumBlockCount(); }
    void setScrollback(int blocks);
    // How long new text waits before it is shown (one batch per interval).
    int flushIntervalMs() const { return m_interval; }
    void setFlushIntervalMs(int ms) { m_interval = qMax(1, ms); }
    // Inserts everything queued now (tests, and before the window is hidden).
    void flushNow();
    int pendingPieces() const { return int(m_pending.size()); }
    qint64 droppedChars() const { return m_droppedTotal; }
    // The longest batch so far, in ms (the benchmark reports it).
    double longestFlushMs() const { return m_longestFlushMs; }

    static QColor laneColor(int lane);
    void toggleGroup(quint64 group);
    bool isGroupExpanded(quint64 group) const;
    // The colours of Lisp code and of each style: new text, and what is shown already.
    void setTheme(const HighlightTheme &theme);

Q_SIGNALS:
    void linkActivated(const QString &href);
    // The context menu is being made for `entry` (0: none) at a point: owners add their actions.
    void contextMenuAbout(QMenu *menu, quint64 entry);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Piece
    {
        enum class Kind { Text, NewLine, Code, Link, Collapsed, Diff, Entry };
        Kind kind = Kind::Text;
        QString text;
        Style style = Style::Plain;
        int lane = 0;
        QString href;
        QStringList lines;
        QList<DiffLine> diff;
        int visibleLines = 0;
        quint64 group = 0;
        qint64 droppedBefore = 0;
    };
    void enqueue(Piece piece);
    void trimPending();
    void flush(qint64 budgetMs);
    void insertPiece(QTextCursor &cursor, Piece &piece, const QElapsedTimer &clock, qint64 budgetMs, bool *partial);
    void insertText(QTextCursor &cursor, const QString &text, const QTextCharFormat &format, int lane, quint64 group = 0);
    void startBlock(QTextCursor &cursor, int lane, quint64 group = 0);
    QTextCharFormat format(Style style) const;

    std::deque<Piece> m_pending;
    qint64 m_pendingStreamChars = 0;
    qint64 m_droppedTotal = 0;
    QTimer m_timer;
    int m_interval = 60;
    quint64 m_nextGroup = 1;
    quint64 m_entry = 0; // the entry blocks started now belong to
    double m_longestFlushMs = 0;
    bool m_atBottom = true; // follow new output while the person has not scrolled up
    HighlightTheme m_theme;
};

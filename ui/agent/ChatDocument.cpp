#include "ChatDocument.h"

#include "AgentContext.h"
#include "ChatMarkdown.h"
#include "ToolCallRow.h"

#include "acp/Conversation.h"
#include "toolapi/RequestTrace.h"

#include <QRegularExpression>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTextFrame>

using ChatMarkdown::coloured;
using EntryKind = Conversation::Entry::Kind;

struct ChatDocument::Item
{
    enum class Kind { Entry, Notice };
    Kind kind = Kind::Entry;
    int id = 0; // its "fold:ID" links
    int entry = -1;
    EntryKind entryKind = EntryKind::AgentMessage;
    int turn = 0;
    QString text; // notices
    Severity severity = Severity::Info;
    QTextFrame *frame = nullptr;
    std::unique_ptr<MessageRenderer> renderer;
    QString pending; // agent message chunks not drawn yet
    bool dirty = false;
    bool expanded = false;
    bool hidden = false; // beyond the turns shown
    QString toolCallId;
    QString permission;
    bool permissionPending = false;
    QPointer<RequestTrace> trace;
    QMetaObject::Connection traceConnection;
    ToolCallRow::Traced traced;
    QString interrupted;
};

namespace {
int wordCount(const QString &text)
{
    static const QRegularExpression spaces(QStringLiteral("\\s+"));
    return int(text.split(spaces, Qt::SkipEmptyParts).size());
}
} // namespace

ChatDocument::ChatDocument(QTextDocument *document, QObject *parent)
    : QObject(parent), m_document(document), m_theme(ChatTheme::light())
{
    m_document->setUndoRedoEnabled(false);
    m_document->setDocumentMargin(8);
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(0);
    connect(&m_flushTimer, &QTimer::timeout, this, &ChatDocument::flush);
}

ChatDocument::~ChatDocument() = default;

void ChatDocument::setConversation(const Conversation *conversation)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_connections))
        disconnect(connection);
    m_connections.clear();
    m_conversation = conversation;
    m_items.clear();
    m_byEntry.clear();
    m_byToolCall.clear();
    m_earlyTraces.clear();
    m_dirty.clear();
    m_hiddenTurns = 0;
    if (conversation) {
        for (int i = 0; i < conversation->count(); ++i) {
            auto item = std::make_unique<Item>();
            item->entry = i;
            item->entryKind = conversation->entry(i).kind;
            item->turn = conversation->entry(i).turn;
            item->toolCallId = conversation->entry(i).toolCallId;
            addItem(std::move(item));
        }
        m_connections << connect(conversation, &Conversation::entryAdded, this, &ChatDocument::onEntryAdded)
                      << connect(conversation, &Conversation::textAppended, this, &ChatDocument::onText)
                      << connect(conversation, &Conversation::blockAdded, this, [this](int index) { onText(index, {}); })
                      << connect(conversation, &Conversation::toolCallChanged, this, [this](int index) { onText(index, {}); });
    }
    rebuild();
}

ChatDocument::Item *ChatDocument::addItem(std::unique_ptr<Item> item)
{
    Item *raw = item.get();
    raw->id = m_nextItem++;
    m_items.push_back(std::move(item));
    if (raw->kind == Item::Kind::Entry) {
        m_byEntry.insert(raw->entry, raw);
        if (!raw->toolCallId.isEmpty()) {
            m_byToolCall.insert(raw->toolCallId, raw);
            if (const auto early = m_earlyTraces.take(raw->toolCallId))
                setTrace(raw->toolCallId, early);
        }
    }
    return raw;
}

void ChatDocument::setTheme(const ChatTheme &theme)
{
    m_theme = theme;
    rebuild();
}

void ChatDocument::onEntryAdded(int index)
{
    const Conversation::Entry &entry = m_conversation->entry(index);
    auto made = std::make_unique<Item>();
    made->entry = index;
    made->entryKind = entry.kind;
    made->turn = entry.turn;
    made->toolCallId = entry.toolCallId;
    Item *item = addItem(std::move(made));
    // A message's first chunk follows in textAppended: the frame starts empty.
    QTextCursor cursor(m_document);
    cursor.movePosition(QTextCursor::End);
    item->frame = newFrame(*item, cursor);
    if (entry.kind == EntryKind::AgentMessage) {
        item->renderer = std::make_unique<MessageRenderer>(item->frame, m_theme, [this](const QString &code) { return codeLink(code); });
    } else {
        item->dirty = true;
        m_dirty.append(item);
    }
    if (entry.kind == EntryKind::UserMessage && entry.ours)
        capTurns();
    scheduleFlush();
}

void ChatDocument::onText(int index, const QString &chunk)
{
    Item *item = m_byEntry.value(index);
    if (!item || item->hidden)
        return;
    if (item->entryKind == EntryKind::AgentMessage && item->renderer) {
        if (!chunk.isEmpty()) {
            item->pending += chunk;
        } else if (const Conversation::Entry &entry = m_conversation->entry(index); !entry.blocks.isEmpty()
                   && entry.blocks.constLast().type != QLatin1String("text")) {
            item->pending += blockText(entry.blocks.constLast());
        }
    }
    if (!item->dirty) {
        item->dirty = true;
        m_dirty.append(item);
    }
    scheduleFlush();
}

void ChatDocument::scheduleFlush()
{
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void ChatDocument::flush()
{
    m_flushTimer.stop();
    if (m_dirty.isEmpty())
        return;
    const QList<Item *> dirty = std::exchange(m_dirty, {});
    for (Item *item : dirty) {
        item->dirty = false;
        if (item->hidden || !item->frame)
            continue;
        if (item->renderer) {
            item->renderer->append(std::exchange(item->pending, QString()));
        } else {
            redraw(*item);
        }
    }
    Q_EMIT updated();
}

// A message's block that is not text, as Markdown: an image or a resource named; a type ACP
// v1 does not define is left out, and said in the log.
QString ChatDocument::blockText(const Acp::ContentBlock &block)
{
    if (block.type == QLatin1String("image") || block.type == QLatin1String("audio"))
        return QStringLiteral("\n\n*[%1 %2]*\n\n").arg(block.type, block.mimeType);
    if (block.type == QLatin1String("resource_link") || block.type == QLatin1String("resource"))
        return QStringLiteral("\n\n*[%1]*\n\n").arg(block.uri.isEmpty() ? block.name : block.uri);
    Q_EMIT ignored(tr("ignored: a content block of a type ACP v1 does not define: %1").arg(block.type));
    return {};
}

// --- drawing -----------------------------------------------------------------------------------

QTextFrame *ChatDocument::newFrame(const Item &item, QTextCursor &cursor)
{
    QTextBlockFormat gap; // the blocks between frames: a small gap, not a line
    gap.setLineHeight(4, QTextBlockFormat::FixedHeight);
    cursor.setBlockFormat(gap);
    QTextFrameFormat format;
    format.setBorder(0);
    format.setPadding(4);
    if (item.kind == Item::Kind::Entry) {
        switch (item.entryKind) {
        case EntryKind::UserMessage:
            format.setBackground(m_theme.userBackground);
            format.setPadding(8);
            format.setTopMargin(8);
            break;
        case EntryKind::ToolCall:
            format.setBorder(1);
            format.setBorderBrush(m_theme.toolBorder);
            format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
            format.setBackground(m_theme.toolBackground);
            format.setPadding(6);
            format.setTopMargin(2);
            format.setBottomMargin(2);
            break;
        default:
            break;
        }
    }
    QTextFrame *frame = cursor.insertFrame(format);
    QTextCursor after(m_document);
    after.setPosition(frame->lastPosition() + 1);
    after.setBlockFormat(gap);
    return frame;
}

void ChatDocument::rebuild()
{
    m_flushTimer.stop();
    m_dirty.clear();
    m_codes.clear();
    m_document->clear();
    m_earlierFrame = nullptr;
    QTextCursor cursor(m_document);
    if (m_hiddenTurns > 0)
        drawEarlier(cursor);
    for (const auto &item : m_items) {
        item->frame = nullptr;
        item->renderer.reset();
        item->pending.clear();
        item->dirty = false;
        if (!item->hidden)
            draw(*item);
    }
    capTurns();
    Q_EMIT updated();
}

void ChatDocument::draw(Item &item)
{
    QTextCursor cursor(m_document);
    cursor.movePosition(QTextCursor::End);
    item.frame = newFrame(item, cursor);
    if (item.kind == Item::Kind::Entry && item.entryKind == EntryKind::AgentMessage) {
        item.renderer = std::make_unique<MessageRenderer>(item.frame, m_theme, [this](const QString &code) { return codeLink(code); });
        const Conversation::Entry &entry = m_conversation->entry(item.entry);
        QString text;
        for (const Acp::ContentBlock &block : entry.blocks)
            text += block.type == QLatin1String("text") ? block.text : blockText(block);
        item.renderer->append(text);
        return;
    }
    redraw(item);
}

void ChatDocument::redraw(Item &item)
{
    QTextCursor cursor(m_document);
    cursor.beginEditBlock();
    cursor.setPosition(item.frame->firstPosition());
    cursor.setPosition(item.frame->lastPosition(), QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    cursor.setBlockFormat(QTextBlockFormat());
    cursor.setBlockCharFormat(QTextCharFormat());
    if (item.kind == Item::Kind::Notice) {
        drawNotice(item, cursor);
    } else {
        switch (item.entryKind) {
        case EntryKind::UserMessage: drawUser(item, cursor); break;
        case EntryKind::Thought: drawThought(item, cursor); break;
        case EntryKind::ToolCall: drawToolCall(item, cursor); break;
        case EntryKind::Notice: {
            const Conversation::Entry &entry = m_conversation->entry(item.entry);
            const QColor colour = entry.severity == QLatin1String("error") ? m_theme.failed
                                  : entry.severity == QLatin1String("warning") ? m_theme.attention : m_theme.muted;
            cursor.insertText(entry.title, coloured(colour, true));
            if (!entry.description.isEmpty())
                ChatMarkdown::insertPlain(cursor, QStringLiteral("\n") + entry.description, coloured(colour));
            break;
        }
        case EntryKind::AgentMessage: break; // drawn by its renderer
        }
    }
    cursor.endEditBlock();
}

void ChatDocument::drawUser(Item &item, QTextCursor &cursor)
{
    const Conversation::Entry &entry = m_conversation->entry(item.entry);
    cursor.insertText(entry.ours ? tr("You") : tr("You (earlier)"), coloured(m_theme.muted, true));
    const QString text = entry.text();
    if (!text.isEmpty()) {
        cursor.insertBlock();
        ChatMarkdown::insertPlain(cursor, text, QTextCharFormat());
    }
    for (const Acp::ContentBlock &block : entry.blocks) {
        if (block.type == QLatin1String("text"))
            continue;
        cursor.insertBlock();
        const QString what = block.uri.isEmpty() ? tr("[%1]").arg(block.type) : AgentContext::describeUri(block.uri);
        const QString size = block.type == QLatin1String("resource") ? tr(" (%1 characters)").arg(block.text.size()) : QString();
        cursor.insertText(QStringLiteral("\u2295 ") + what + size, coloured(m_theme.muted));
    }
}

void ChatDocument::drawThought(Item &item, QTextCursor &cursor)
{
    const QString text = m_conversation->entry(item.entry).text();
    const QString fold = QStringLiteral("fold:%1").arg(item.id);
    const int words = wordCount(text);
    QTextCharFormat link = ChatMarkdown::link(m_theme, fold);
    link.setFontUnderline(false);
    link.setForeground(m_theme.muted);
    cursor.insertText(item.expanded ? tr("\u25be Thought")
                      : words == 1    ? tr("\u25b8 Thought \u00b7 1 word")
                                      : tr("\u25b8 Thought \u00b7 %1 words").arg(words),
                      link);
    if (item.expanded) {
        cursor.insertBlock();
        ChatMarkdown::insertPlain(cursor, text.trimmed(), coloured(m_theme.muted, false, true));
    }
}

void ChatDocument::drawToolCall(Item &item, QTextCursor &cursor)
{
    const Acp::ToolCall *call = m_conversation->toolCall(item.toolCallId);
    if (!call)
        return;
    ToolCallRow::State state;
    state.expanded = item.expanded;
    state.foldHref = QStringLiteral("fold:%1").arg(item.id);
    state.permission = item.permission;
    state.permissionPending = item.permissionPending;
    state.traced = item.traced;
    state.interrupted = item.interrupted;
    ToolCallRow::draw(cursor, *call, state, m_theme);
}

void ChatDocument::drawNotice(const Item &item, QTextCursor &cursor)
{
    const QColor colour = item.severity == Severity::Error ? m_theme.failed : item.severity == Severity::Warning ? m_theme.attention : m_theme.muted;
    ChatMarkdown::insertPlain(cursor, item.text, coloured(colour, false, item.severity == Severity::Info));
}

void ChatDocument::drawEarlier(QTextCursor &cursor)
{
    QTextFrameFormat format;
    format.setPadding(4);
    m_earlierFrame = cursor.insertFrame(format);
    const int more = qMin(m_hiddenTurns, DefaultMaxTurnsShown);
    cursor.insertText(more == 1 ? tr("[+] Show the earlier turn") : tr("[+] Show %1 earlier turns").arg(more),
                      ChatMarkdown::link(m_theme, QStringLiteral("earlier")));
    if (m_hiddenTurns > more)
        cursor.insertText(tr("  (%1 turns are not shown)").arg(m_hiddenTurns), coloured(m_theme.muted));
}

// Beyond maxTurnsShown() turns, the oldest leave the document (their items stay: the link
// brings them back).
void ChatDocument::capTurns()
{
    QList<int> turns; // the turns shown, oldest first
    for (const auto &item : m_items) {
        if (!item->hidden && item->frame && (turns.isEmpty() || turns.constLast() != item->turn))
            turns.append(item->turn);
    }
    if (turns.size() <= m_maxTurns)
        return;
    const int firstKeptTurn = turns.at(turns.size() - m_maxTurns);
    Item *firstKept = nullptr;
    for (const auto &item : m_items) {
        if (item->hidden || !item->frame)
            continue;
        if (item->turn >= firstKeptTurn) {
            firstKept = item.get();
            break;
        }
        item->hidden = true;
        item->frame = nullptr;
        item->renderer.reset();
        item->pending.clear();
        m_dirty.removeAll(item.get());
        item->dirty = false;
    }
    if (!firstKept)
        return;
    m_hiddenTurns += int(turns.size()) - m_maxTurns;
    QTextCursor cursor(m_document);
    cursor.beginEditBlock();
    cursor.setPosition(0);
    cursor.setPosition(firstKept->frame->firstPosition() - 1, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    cursor.setPosition(0);
    drawEarlier(cursor);
    cursor.endEditBlock();
}

// --- what the panel tells ----------------------------------------------------------------------

void ChatDocument::addNotice(const QString &text, Severity severity)
{
    auto made = std::make_unique<Item>();
    made->kind = Item::Kind::Notice;
    made->text = text;
    made->severity = severity;
    made->turn = m_conversation ? m_conversation->turn() : 0;
    Item *item = addItem(std::move(made));
    flush(); // after what came before it
    draw(*item);
    Q_EMIT updated();
}

void ChatDocument::setPermission(const QString &toolCallId, const QString &text, bool pending)
{
    Item *item = m_byToolCall.value(toolCallId);
    if (!item)
        return;
    item->permission = text;
    item->permissionPending = pending;
    onText(item->entry, {});
}

void ChatDocument::setTrace(const QString &toolCallId, RequestTrace *trace)
{
    Item *item = m_byToolCall.value(toolCallId);
    if (!item) {
        m_earlyTraces.insert(toolCallId, trace);
        return;
    }
    disconnect(item->traceConnection);
    item->trace = trace;
    const auto take = [this, item] {
        if (!item->trace)
            return;
        item->traced = ToolCallRow::Traced::read(*item->trace);
        onText(item->entry, {});
    };
    if (trace)
        item->traceConnection = connect(trace, &RequestTrace::changed, this, take);
    take();
}

void ChatDocument::interruptUnfinished(const QString &why)
{
    for (const auto &item : m_items) {
        if (item->entryKind != EntryKind::ToolCall || item->kind != Item::Kind::Entry)
            continue;
        const Acp::ToolCall *call = m_conversation ? m_conversation->toolCall(item->toolCallId) : nullptr;
        if (call && !call->isFinished()) {
            item->interrupted = why;
            item->permissionPending = false;
            onText(item->entry, {});
        }
    }
}

bool ChatDocument::activateLink(const QString &href)
{
    if (href == QLatin1String("earlier")) {
        m_maxTurns += DefaultMaxTurnsShown;
        m_hiddenTurns = 0;
        for (const auto &item : m_items)
            item->hidden = false;
        rebuild();
        return true;
    }
    if (!href.startsWith(QLatin1String("fold:")))
        return false;
    const int id = href.mid(5).toInt();
    for (const auto &item : m_items) {
        if (item->id == id && item->frame) {
            item->expanded = !item->expanded;
            redraw(*item);
            Q_EMIT updated();
            return true;
        }
    }
    return true;
}

QString ChatDocument::codeLink(const QString &code)
{
    const int id = m_nextCode++;
    m_codes.insert(id, code);
    return QStringLiteral("code:%1").arg(id);
}

QString ChatDocument::codeOf(const QString &href) const
{
    return href.startsWith(QLatin1String("code:")) ? m_codes.value(href.mid(5).toInt()) : QString();
}

QString ChatDocument::entryText(int entryIndex) const
{
    const Item *item = m_byEntry.value(entryIndex);
    if (!item || !item->frame)
        return {};
    QTextCursor cursor(m_document);
    cursor.setPosition(item->frame->firstPosition());
    cursor.setPosition(item->frame->lastPosition(), QTextCursor::KeepAnchor);
    return cursor.selection().toPlainText();
}

void ChatDocument::setMaxTurnsShown(int turns)
{
    m_maxTurns = qMax(1, turns);
    capTurns();
}

#pragma once

#include "ChatTheme.h"
#include "acp/Conversation.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>
#include <vector>

class MessageRenderer;
class QTextCursor;
class QTextDocument;
class QTextFrame;
class RequestTrace;

// The chat drawn into a QTextDocument from an ACP Conversation, followed incrementally (no
// widget: QtGui). Each entry is a frame of its own: the person's prompt on a shaded ground, the
// agent's messages as Markdown (streamed chunks drawn at once, Lisp code coloured), thoughts
// folded behind a link, tool calls as bordered rows (kind, name, code, status, diffs, the
// result; "awaiting your approval" and what was chosen; the REPL result of Lisp Duet's own
// call). The panel's own notices sit between them. Chunks that arrive together are drawn
// together, at the next turn of the event loop. Beyond maxTurnsShown() turns the oldest leave
// the document for a "Show earlier turns" link (memory and the time a theme switch takes).
class ChatDocument : public QObject
{
    Q_OBJECT
public:
    enum class Severity { Info, Warning, Error };
    static constexpr int DefaultMaxTurnsShown = 50;

    explicit ChatDocument(QTextDocument *document, QObject *parent = nullptr);
    ~ChatDocument() override;

    QTextDocument *document() const { return m_document; }
    // Draws the conversation (null: an empty chat) and follows it.
    void setConversation(const Conversation *conversation);
    const Conversation *conversation() const { return m_conversation; }
    // Draws everything again in these colours.
    void setTheme(const ChatTheme &theme);
    const ChatTheme &theme() const { return m_theme; }

    // The panel's own lines after what stands: a turn that did not end normally, the agent's end.
    void addNotice(const QString &text, Severity severity);
    // "awaiting your approval" while the approval bar asks; then what was chosen.
    void setPermission(const QString &toolCallId, const QString &text, bool pending);
    // The request Lisp Duet served for this tool call: its row shows the request's state and the
    // REPL's result, and a parked debugger with the way to answer it.
    void setTrace(const QString &toolCallId, RequestTrace *trace);
    // The agent is gone: the rows it had not finished say so.
    void interruptUnfinished(const QString &why);

    // A link of the chat. The document's own (a thought, a long output, earlier turns) are
    // handled here: true. Others ("debugger:N", "code:N") are the panel's: false.
    bool activateLink(const QString &href);
    // The code behind a "code:N" link; empty when unknown.
    QString codeOf(const QString &href) const;
    // Draws what waits now (tests; otherwise the next turn of the event loop does).
    void flush();

    // The text an entry of the conversation shows now; empty when not drawn.
    QString entryText(int entryIndex) const;
    int maxTurnsShown() const { return m_maxTurns; }
    void setMaxTurnsShown(int turns);
    int hiddenTurns() const { return m_hiddenTurns; }

Q_SIGNALS:
    // Something was drawn (the view follows the end unless the person scrolled up).
    void updated();
    // What it leaves out, for the log: a content block of a type it does not know.
    void ignored(const QString &line);

private:
    struct Item;
    Item *addItem(std::unique_ptr<Item> item);
    void onEntryAdded(int index);
    void onText(int index, const QString &chunk);
    void scheduleFlush();
    void rebuild();
    void draw(Item &item);
    void redraw(Item &item);
    QTextFrame *newFrame(const Item &item, QTextCursor &cursor);
    void drawUser(Item &item, QTextCursor &cursor);
    void drawThought(Item &item, QTextCursor &cursor);
    void drawToolCall(Item &item, QTextCursor &cursor);
    void drawNotice(const Item &item, QTextCursor &cursor);
    void drawEarlier(QTextCursor &cursor);
    void capTurns();
    QString codeLink(const QString &code);
    QString blockText(const Acp::ContentBlock &block);

    QTextDocument *m_document;
    QPointer<const Conversation> m_conversation;
    QList<QMetaObject::Connection> m_connections;
    ChatTheme m_theme;
    std::vector<std::unique_ptr<Item>> m_items;
    QHash<int, Item *> m_byEntry;
    QHash<QString, Item *> m_byToolCall;
    QHash<QString, QPointer<RequestTrace>> m_earlyTraces; // for rows not there yet
    QList<Item *> m_dirty;
    QTimer m_flushTimer;
    QHash<int, QString> m_codes; // "code:N" -> the code (links under Lisp blocks)
    int m_nextCode = 1;
    int m_nextItem = 1;
    int m_maxTurns = DefaultMaxTurnsShown;
    int m_hiddenTurns = 0;
    QTextFrame *m_earlierFrame = nullptr;
};

#include "ToolCallRow.h"

#include "ChatMarkdown.h"

#include "highlight/DiffFormats.h"
#include "project/UnifiedDiff.h"
#include "toolapi/RequestTrace.h"

using ChatMarkdown::coloured;

namespace {
QString beforeDebuggerBlock(const QString &text)
{
    const qsizetype at = text.indexOf(QLatin1String("[Debugger]"));
    return at < 0 ? text : text.left(at).trimmed();
}

void moreLink(QTextCursor &cursor, const ChatTheme &theme, const QString &href, bool expanded, qsizetype total, int shown)
{
    ChatMarkdown::startBlock(cursor);
    cursor.insertText(expanded ? QObject::tr("[-] Show the first %1 lines").arg(shown) : QObject::tr("[+] Show all %1 lines").arg(total),
                      ChatMarkdown::link(theme, href));
}

void drawHeader(QTextCursor &cursor, const Acp::ToolCall &call, const ToolCallText::Shown &shown, const ToolCallRow::State &state,
                const ChatTheme &theme)
{
    cursor.insertText(ToolCallText::kindLabel(call.kind) + QStringLiteral("  "), coloured(theme.muted));
    QTextCharFormat bold;
    bold.setFontWeight(QFont::Bold);
    cursor.insertText(shown.name, bold);
    if (!shown.input.isEmpty()) {
        QTextCharFormat input = ChatMarkdown::codeFormat(theme);
        input.setForeground(theme.muted);
        cursor.insertText(QStringLiteral("  ") + shown.input, input);
    }
    cursor.insertText(QStringLiteral("  \u00b7 ") + ToolCallText::statusLabel(call.status), coloured(theme.statusColour(call.status), true));
    if (!state.permission.isEmpty())
        cursor.insertText(QStringLiteral("  \u00b7 ") + state.permission,
                          state.permissionPending ? coloured(theme.attention, true) : coloured(theme.muted));
}

void drawTrace(QTextCursor &cursor, const ToolCallRow::State &state, const ChatTheme &theme)
{
    const ToolCallRow::Traced &t = state.traced;
    const QColor colour = t.parked.debuggerId > 0 ? theme.attention : t.over ? theme.muted : theme.running;
    ChatMarkdown::startBlock(cursor);
    QString line = QObject::tr("In the session: %1").arg(t.state);
    if (t.over && t.ms >= 0)
        line += QStringLiteral(" \u00b7 %1 ms").arg(t.ms);
    cursor.insertText(line, coloured(colour));
    if (!t.result.isEmpty())
        ToolCallRow::insertResult(cursor, t.result, theme, ToolCallRow::OutputLinesShown, state.foldHref, state.expanded);
    if (t.parked.debuggerId > 0) {
        ChatMarkdown::startBlock(cursor);
        cursor.insertText(QObject::tr("Parked in debugger %1: %2 \u2014 %3  ").arg(t.parked.debuggerId).arg(t.parked.condition, t.parked.message),
                          coloured(theme.attention, true));
        cursor.insertText(QObject::tr("Answer it in the Debugger"), ChatMarkdown::link(theme, QStringLiteral("debugger:%1").arg(t.parked.debuggerId)));
    }
    if (!t.follow.isEmpty()) {
        ChatMarkdown::startBlock(cursor);
        cursor.insertText(t.follow, coloured(theme.muted));
    }
}

void drawDiff(QTextCursor &cursor, const Acp::ToolCallContent &content, const ToolCallRow::State &state, const ChatTheme &theme)
{
    const FileDiff diff = UnifiedDiff::between(content.path, content.oldText.value_or(QString()), content.newText);
    const QTextCharFormat base = ChatMarkdown::codeFormat(theme);
    const qsizetype shown = state.expanded ? diff.lines.size() : qMin<qsizetype>(diff.lines.size(), ToolCallRow::DiffLinesShown);
    for (qsizetype i = 0; i < shown; ++i) {
        QTextCharFormat format = base;
        format.merge(DiffFormats::format(diff.lines.at(i).kind, theme.dark));
        ChatMarkdown::startBlock(cursor, QTextBlockFormat(), base);
        cursor.insertText(DiffFormats::lineText(diff.lines.at(i)), format);
    }
    if (diff.lines.size() > ToolCallRow::DiffLinesShown)
        moreLink(cursor, theme, state.foldHref, state.expanded, diff.lines.size(), ToolCallRow::DiffLinesShown);
}
} // namespace

namespace ToolCallRow {

Traced Traced::read(const RequestTrace &t)
{
    Traced traced;
    traced.known = true;
    traced.over = t.isOver();
    // After its answer, what became of the job it left going (resumed, ended) is the state.
    traced.state = ToolCallText::traceStateLabel(t.isFollowed() ? t.followState() : t.state());
    traced.result = t.isOver() ? beforeDebuggerBlock(ToolCallText::traceResultText(t)) : QString();
    // Parked, unless what followed its answer says it went on.
    const bool parked = t.isFollowed() ? t.followState() == RequestTrace::State::Parked : t.state() == RequestTrace::State::Parked;
    if (parked)
        traced.parked = ToolCallText::parkedIn(t);
    traced.follow = t.followText();
    traced.ms = t.ranMs();
    return traced;
}

void insertResult(QTextCursor &cursor, const QString &text, const ChatTheme &theme, int maxLines, const QString &moreHref, bool expanded)
{
    const QTextCharFormat base = ChatMarkdown::codeFormat(theme);
    QStringList lines = text.split(u'\n');
    while (!lines.isEmpty() && lines.constLast().trimmed().isEmpty())
        lines.removeLast();
    const qsizetype total = lines.size();
    if (!expanded && total > maxLines)
        lines = lines.mid(0, maxLines);
    for (const QString &line : std::as_const(lines)) {
        QTextCharFormat format = base;
        if (line.startsWith(QLatin1String("=> ")))
            format.setForeground(theme.value);
        else if (line.startsWith(QLatin1String("[ERROR]")) || line.startsWith(QLatin1String("[TIMED-OUT]"))
                 || line.startsWith(QLatin1String("[INTERRUPTED]")))
            format.setForeground(theme.failed);
        else if (line.startsWith(u';') || line.startsWith(QLatin1String("[stdout]")) || line.startsWith(QLatin1String("[stderr]")))
            format.setForeground(theme.muted);
        ChatMarkdown::startBlock(cursor, QTextBlockFormat(), base);
        cursor.insertText(line, format);
    }
    if (total > maxLines && !moreHref.isEmpty())
        moreLink(cursor, theme, moreHref, expanded, total, maxLines);
}

void draw(QTextCursor &cursor, const Acp::ToolCall &call, const State &state, const ChatTheme &theme)
{
    const ToolCallText::Shown shown = ToolCallText::describe(call);
    drawHeader(cursor, call, shown, state, theme);
    if (!shown.code.isEmpty()) {
        ChatMarkdown::insertCode(cursor, shown.code, theme, true);
    } else if (shown.input.isEmpty() && !call.locations.isEmpty()) {
        QStringList where;
        for (const Acp::ToolCallLocation &location : call.locations)
            where << (location.line > 0 ? QStringLiteral("%1:%2").arg(location.path).arg(location.line) : location.path);
        ChatMarkdown::startBlock(cursor);
        cursor.insertText(where.join(QStringLiteral(", ")), coloured(theme.muted));
    }
    if (state.traced.known)
        drawTrace(cursor, state, theme);
    for (const Acp::ToolCallContent &content : call.content) {
        switch (content.type) {
        case Acp::ToolCallContent::Type::Content: {
            if (state.traced.known && !shown.code.isEmpty())
                break; // the served request's result says it, as the transcript would
            if (content.content.type != QLatin1String("text")) {
                ChatMarkdown::startBlock(cursor);
                cursor.insertText(content.content.uri.isEmpty() ? QStringLiteral("[%1]").arg(content.content.type) : content.content.uri,
                                  coloured(theme.muted));
                break;
            }
            const QString repl = ToolCallText::replResultFromJson(content.content.text);
            insertResult(cursor, repl.isEmpty() ? content.content.text : repl, theme, OutputLinesShown, state.foldHref, state.expanded);
            break;
        }
        case Acp::ToolCallContent::Type::Diff:
            drawDiff(cursor, content, state, theme);
            break;
        case Acp::ToolCallContent::Type::Terminal:
            ChatMarkdown::startBlock(cursor);
            cursor.insertText(QObject::tr("Terminal %1: Lisp Duet offers agents no terminals, so its output is not shown here.")
                                  .arg(content.terminalId),
                              coloured(theme.muted));
            break;
        case Acp::ToolCallContent::Type::Unknown:
            break;
        }
    }
    if (!state.interrupted.isEmpty() && !call.isFinished()) {
        ChatMarkdown::startBlock(cursor);
        cursor.insertText(state.interrupted, coloured(theme.failed));
    }
}

} // namespace ToolCallRow

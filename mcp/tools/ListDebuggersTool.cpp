#include "Tools.h"

#include "DebuggerFormatter.h"
#include "schema/JsonSchema.h"
#include "session/LocalClock.h"
#include "session/Session.h"
#include "session/TextLines.h"

#include <QJsonArray>

namespace {
constexpr int RecentShown = 5;

QString who(const Origin &origin)
{
    return origin.possessive();
}

QString since(const QDateTime &at)
{
    const qint64 seconds = at.secsTo(LocalClock::now());
    return seconds < 60 ? QStringLiteral("%1 s").arg(seconds) : QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
}
} // namespace

Tool listDebuggersTool(Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("list-debuggers"),
        .title = QStringLiteral("List debuggers"),
        .description = QStringLiteral(
            "What waits in the shared debugger: each debugger's id, level, owner, since when, error and restarts; then the "
            "last closed and who chose what."),
        .arguments = {},
        .outputProperties = {{QStringLiteral("debuggers"), Schema::array(QStringLiteral("The open debuggers, outermost first"), DebuggerFormatter::schema())},
                             {QStringLiteral("recent"), Schema::array(QStringLiteral("The debuggers closed last, newest first"), DebuggerFormatter::schema())}},
        .outputRequired = {QStringLiteral("debuggers")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [session](const ToolCallPtr &call, const ToolArguments &) {
        QStringList lines;
        QJsonArray open;
        const QList<DebuggerPtr> debuggers = session->debugger()->openDebuggers();
        if (debuggers.isEmpty())
            lines << QStringLiteral("No evaluation is parked in the debugger.");
        else
            lines << QStringLiteral("%1 open debugger%2, outermost first:").arg(debuggers.size()).arg(debuggers.size() == 1 ? QString() : QStringLiteral("s"));
        for (const DebuggerPtr &d : debuggers) {
            lines << QStringLiteral("Debugger %1, level %2: %3 evaluation, parked since %4 (%5)")
                         .arg(d->id).arg(d->level).arg(who(d->owner), d->parkedAt.toString(QStringLiteral("HH:mm:ss")), since(d->parkedAt));
            lines << QStringLiteral("  %1").arg(TextLines::oneLine(d->code, 200));
            lines << QStringLiteral("  [ERROR] %1: %2").arg(d->conditionType, TextLines::oneLine(d->message, 200));
            lines << QStringLiteral("  Restarts: %1").arg(d->restartList());
            open.append(DebuggerFormatter::json(*d));
        }
        QJsonArray recent;
        QList<DebuggerPtr> closed = session->debugger()->closedDebuggers(RecentShown);
        if (!closed.isEmpty())
            lines << QString() << QStringLiteral("Closed last:");
        for (const DebuggerPtr &d : closed) {
            lines << QStringLiteral("Debugger %1 (%2 %3): %4.").arg(d->id).arg(who(d->owner), TextLines::oneLine(d->code, 80), d->outcomeSentence());
            recent.append(DebuggerFormatter::json(*d));
        }
        call->finish({lines.join(QLatin1Char('\n')), {{QStringLiteral("debuggers"), open}, {QStringLiteral("recent"), recent}}, false});
    });
}

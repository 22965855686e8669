#include "Tools.h"

#include "history/Replayer.h"
#include "schema/JsonSchema.h"
#include "ToolKit.h"

namespace {
const auto Source = Arg::choice(QStringLiteral("source"),
                                QStringLiteral("\"journal\" (default: this run's) or \"previous\" (the last run's)"),
                                {QStringLiteral("journal"), QStringLiteral("previous")});

QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject failure = object({{QStringLiteral("form"), string(QStringLiteral("The top-level form that failed"))},
                                        {QStringLiteral("error"), string(QStringLiteral("TYPE: message"))}},
                                       {QStringLiteral("form"), QStringLiteral("error")}, false);
    return {{QStringLiteral("replayed"), integer(QStringLiteral("Forms evaluated again successfully"), 0, 2147483647)},
            {QStringLiteral("failed"), array(QStringLiteral("Forms that failed; the replay went on without them"), failure)},
            {QStringLiteral("skipped"), integer(QStringLiteral("Top-level forms of the journal that define nothing and were not replayed"), 0, 2147483647)},
            {QStringLiteral("total"), integer(QStringLiteral("Forms the replay planned to evaluate"), 0, 2147483647)},
            {QStringLiteral("aborted"), boolean(QStringLiteral("True when the replay stopped before the end (the engine restarted, or it was cancelled)"))}};
}
} // namespace

Tool replaySessionTool(Replayer *replayer, JournalSource journal)
{
    ToolSpec spec{
        .name = QStringLiteral("replay-session"),
        .title = QStringLiteral("Replay session definitions"),
        .description = QStringLiteral(
            "After an engine restart, evaluate again, in order, the journal's successful forms that define or set something "
            "(defun, defvar, defclass, in-package, load-system...)."),
        .arguments = {Source, ToolKit::descriptionArgument()},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("replayed"), QStringLiteral("failed"), QStringLiteral("skipped")},
        .hints = Hints::Destructive,
        .intent = [](const QJsonObject &arguments) {
            return arguments.value(QStringLiteral("source")).toString() == QStringLiteral("previous")
                ? QStringLiteral("re-evaluate the definitions of the previous session's journal")
                : QStringLiteral("re-evaluate the definitions of this session's journal");
        },
    };
    return Tool(spec, [replayer, journal](const ToolCallPtr &call, const ToolArguments &arguments) {
        if (replayer->isRunning()) {
            call->finish(ToolResult::error(QStringLiteral("A replay is already running; wait for it to finish.")));
            return;
        }
        QString error;
        const QList<JournalEntry> entries = journal(arguments.value(Source, QStringLiteral("journal")), &error);
        if (!error.isEmpty()) {
            call->finish(ToolResult::error(error));
            return;
        }
        // The connections live as long as this replay: a context owned by the call would never go
        // (the lambdas hold the call), and every later replay would run them again.
        QObject *context = new QObject(replayer);
        QObject::connect(replayer, &Replayer::progress, context, [call](int done, int total, const QString &form) {
            call->reportProgress(done, QStringLiteral("Replayed %1 of %2: %3").arg(done).arg(total).arg(form.simplified().left(120)));
        });
        QObject::connect(replayer, &Replayer::finished, context, [call, context](const Replayer::Summary &summary) {
            call->finish(ToolResult{summary.text(), summary.toJson(), summary.aborted});
            context->deleteLater();
        });
        QObject::connect(call.data(), &ToolCall::cancelled, replayer, [replayer] { replayer->cancel(); });
        replayer->start(entries);
    });
}

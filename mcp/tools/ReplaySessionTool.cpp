#include "ReplaySessionTool.h"

#include "ActivityDigest.h"
#include "Replayer.h"
#include "ToolArguments.h"

#include <QJsonArray>

QJsonObject ReplaySessionTool::descriptor() const
{
    using namespace Schema;
    QJsonObject source = string(QStringLiteral("\"journal\" (default): this session's journal; \"previous\": the journal of the app's previous run"));
    source.insert(QStringLiteral("enum"), QJsonArray{QStringLiteral("journal"), QStringLiteral("previous")});
    const QJsonObject input = object({{QStringLiteral("source"), source}});
    const QJsonObject failure = object({{QStringLiteral("form"), string(QStringLiteral("The top-level form that failed"))},
                                        {QStringLiteral("error"), string(QStringLiteral("TYPE: message"))}},
                                       {QStringLiteral("form"), QStringLiteral("error")}, false);
    const QJsonObject output = object(
        {{QStringLiteral("replayed"), integer(QStringLiteral("Forms evaluated again successfully"), 0, 2147483647)},
         {QStringLiteral("failed"), QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                                                {QStringLiteral("description"), QStringLiteral("Forms that failed; the replay went on without them")},
                                                {QStringLiteral("items"), failure}}},
         {QStringLiteral("skipped"), integer(QStringLiteral("Top-level forms of the journal that define nothing and were not replayed"), 0, 2147483647)},
         {QStringLiteral("total"), integer(QStringLiteral("Forms the replay planned to evaluate"), 0, 2147483647)},
         {QStringLiteral("aborted"), boolean(QStringLiteral("True when the replay stopped before the end (the engine restarted, or it was cancelled)"))},
         {QStringLiteral("session_activity"), ActivityDigest::schema()}},
        {QStringLiteral("replayed"), QStringLiteral("failed"), QStringLiteral("skipped")}, false);
    return {{QStringLiteral("name"), name()},
            {QStringLiteral("title"), QStringLiteral("Replay session definitions")},
            {QStringLiteral("description"),
             QStringLiteral("After the Lisp engine restarted (a crash, a kill after a time limit, reset-session, or a new start of the app) "
                            "its definitions are gone. This re-evaluates, in their original order, the top-level forms from the session "
                            "journal that succeeded and define or set something (defun, defmacro, defvar, defparameter, defclass, defstruct, "
                            "defmethod, defgeneric, defpackage, in-package, setf/setq of globals, require, load-system...). Forms that fail "
                            "are reported and skipped. Expressions that only compute something are not repeated.")},
            {QStringLiteral("inputSchema"), input},
            {QStringLiteral("outputSchema"), output},
            {QStringLiteral("annotations"), annotations(QStringLiteral("Replay session definitions"), false, true, false)}};
}

void ReplaySessionTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({QStringLiteral("source")});
    const QString source = arguments.optionalString(QStringLiteral("source")).value_or(QStringLiteral("journal"));
    if (arguments.ok() && source != QStringLiteral("journal") && source != QStringLiteral("previous")) {
        call->finish(ToolResult::error(QStringLiteral("\"source\" must be \"journal\" or \"previous\", not \"%1\".").arg(source)));
        return;
    }
    if (!arguments.ok()) {
        call->finish(ToolResult::error(arguments.error()));
        return;
    }
    if (m_replayer->isRunning()) {
        call->finish(ToolResult::error(QStringLiteral("A replay is already running; wait for it to finish.")));
        return;
    }
    QString error;
    const QList<JournalEntry> entries = m_entries(source, &error);
    if (!error.isEmpty()) {
        call->finish(ToolResult::error(error));
        return;
    }
    // The connections live as long as this replay: a context owned by the call would never go
    // (the lambdas hold the call), and every later replay would run them again.
    QObject *context = new QObject(m_replayer);
    QObject::connect(m_replayer, &Replayer::progress, context, [call](int done, int total, const QString &form) {
        call->reportProgress(done, QStringLiteral("Replayed %1 of %2: %3").arg(done).arg(total).arg(form.simplified().left(120)));
    });
    QObject::connect(m_replayer, &Replayer::finished, context, [call, context](const Replayer::Summary &summary) {
        call->finish(ToolResult{summary.text(), summary.toJson(), summary.aborted});
        context->deleteLater();
    });
    QObject::connect(call.data(), &ToolCall::cancelled, m_replayer, [replayer = m_replayer] { replayer->cancel(); });
    m_replayer->start(entries);
}

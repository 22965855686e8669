#include "Tools.h"

#include "schema/JsonSchema.h"
#include "session/Session.h"
#include "ToolKit.h"

#include <QElapsedTimer>
#include <QTimer>

namespace {
constexpr int ReadyTimeoutMs = 30000;
}

Tool resetSessionTool(Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("reset-session"),
        .title = QStringLiteral("Reset session"),
        .description = QStringLiteral(
            "Start a fresh engine: every definition, package, loaded system and result_id is gone, for everyone; whatever "
            "runs is stopped. Ask the person first."),
        .arguments = {ToolKit::descriptionArgument()},
        .outputProperties = {{QStringLiteral("reset"), Schema::boolean(QStringLiteral("True once a fresh engine is ready"))},
                             {QStringLiteral("engine_pid"), Schema::integer(QStringLiteral("Process id of the new engine"), 0, 2147483647)},
                             {QStringLiteral("ready_ms"), Schema::integer(QStringLiteral("Milliseconds until the new engine was ready"), 0, 2147483647)}},
        .outputRequired = {QStringLiteral("reset")},
        .hints = Hints::Destructive,
        .intent = [](const QJsonObject &) { return QStringLiteral("reset the session: a fresh Lisp engine, every definition lost"); },
    };
    return Tool(spec, [session](const ToolCallPtr &call, const ToolArguments &arguments) {
        auto clock = QSharedPointer<QElapsedTimer>::create();
        clock->start();
        // The lambdas hold a plain pointer: their context is the call itself, so they never run
        // after it is gone, and a strong reference would keep it (and them) alive for good.
        ToolCall *context = call.data();
        QObject::connect(session, &Session::engineStatus, context, [context, clock, session](Session::EngineStatus state) {
            if (state == Session::EngineStatus::Ready) {
                context->finish(ToolResult{QStringLiteral("Session reset. All definitions cleared."),
                                           {{QStringLiteral("reset"), true},
                                            {QStringLiteral("engine_pid"), double(session->enginePid())},
                                            {QStringLiteral("ready_ms"), double(clock->elapsed())}},
                                           false});
            } else if (state == Session::EngineStatus::Failed) {
                context->finish(ToolResult::error(QStringLiteral("[ERROR] ENGINE-UNAVAILABLE\nThe session was reset, but a new Lisp engine could not be started (%1).")
                                                      .arg(session->enginePath())));
            }
        });
        QTimer::singleShot(ReadyTimeoutMs, context, [context] {
            context->finish(ToolResult::error(QStringLiteral("[ERROR] ENGINE-UNAVAILABLE\nThe session was reset, but the new Lisp engine was not ready within %1 s.")
                                                  .arg(ReadyTimeoutMs / 1000)));
        });
        session->reset(call->origin(), arguments.text(ToolKit::descriptionArgument()));
    });
}

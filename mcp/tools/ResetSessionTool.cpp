#include "ResetSessionTool.h"

#include "EngineClient.h"
#include "Session.h"
#include "ToolArguments.h"
#include "ToolKit.h"

#include <QElapsedTimer>
#include <QTimer>

QJsonObject ResetSessionTool::descriptor() const
{
    using namespace Schema;
    const QJsonObject output = ToolKit::outputSchema(
        {{QStringLiteral("reset"), boolean(QStringLiteral("True once a fresh engine is ready"))},
         {QStringLiteral("engine_pid"), integer(QStringLiteral("Process id of the new engine"), 0, 2147483647)},
         {QStringLiteral("ready_ms"), integer(QStringLiteral("Milliseconds until the new engine was ready"), 0, 2147483647)}},
        {QStringLiteral("reset")});
    return ToolKit::descriptor(
        name(), QStringLiteral("Reset session"),
        QStringLiteral("Discard the whole Lisp session and start a fresh one: the engine process is replaced, so every function, "
                       "variable, class, package and loaded system is gone, and result_ids from before are invalid. Whatever runs "
                       "now is stopped. The person at the window and every other client see the reset. Answers once the new "
                       "session is ready."),
        object({}), output, {false, true, false});
}

void ResetSessionTool::call(const ToolCallPtr &call)
{
    ToolArguments arguments(call->arguments());
    arguments.rejectUnknown({});
    if (!arguments.ok()) {
        call->finish(ToolResult::error(arguments.error()));
        return;
    }
    auto clock = QSharedPointer<QElapsedTimer>::create();
    clock->start();
    // The lambdas hold a plain pointer: their context is the call itself, so they never run
    // after it is gone, and a strong reference would keep it (and them) alive for good.
    ToolCall *context = call.data();
    EngineClient *engine = m_session->engine();
    QObject::connect(engine, &EngineClient::ready, context, [context, clock, engine] {
        context->finish(ToolResult{QStringLiteral("Session reset. All definitions cleared."),
                                {{QStringLiteral("reset"), true},
                                 {QStringLiteral("engine_pid"), double(engine->pid())},
                                 {QStringLiteral("ready_ms"), double(clock->elapsed())}},
                                false});
    });
    QObject::connect(engine, &EngineClient::stateChanged, context, [context, engine](EngineClient::State state) {
        if (state == EngineClient::State::Failed) {
            context->finish(ToolResult::error(QStringLiteral("[ERROR] ENGINE-UNAVAILABLE\nThe session was reset, but a new Lisp engine could not be started (%1).")
                                               .arg(engine->enginePath())));
        }
    });
    QTimer::singleShot(ReadyTimeoutMs, context, [context] {
        context->finish(ToolResult::error(QStringLiteral("[ERROR] ENGINE-UNAVAILABLE\nThe session was reset, but the new Lisp engine was not ready within %1 s.")
                                           .arg(ReadyTimeoutMs / 1000)));
    });
    m_session->reset(call->origin());
}

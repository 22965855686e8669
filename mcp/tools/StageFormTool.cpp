#include "HandoffTools.h"

#include "EvalFormatter.h"
#include "FormStager.h"
#include "schema/JsonSchema.h"

#include <QTimer>

namespace {
const auto Code = Arg::string(QStringLiteral("code"), QStringLiteral("The form(s) to stage"))
                      .required(QStringLiteral("the Lisp code the person should run"))
                      .notBlank(QStringLiteral("is empty; give the form(s) the person should run"));
const auto Package = Arg::string(QStringLiteral("package"), QStringLiteral("Package (default: the current one)"));
const auto Description = Arg::string(QStringLiteral("description"),
                                     QStringLiteral("Why: the person sees it"));

constexpr int ProgressEveryMs = 5000;

QString quoted(const QString &reason)
{
    return QStringLiteral("\u201c%1\u201d").arg(reason);
}

QJsonObject outputProperties()
{
    QJsonObject properties = EvalFormatter::outputProperties();
    properties.insert(QStringLiteral("outcome"), Schema::stringEnum(QStringLiteral("What the person did: ran it as staged, edited it and ran that, or rejected it"),
                                                                    {QStringLiteral("ran"), QStringLiteral("edited"), QStringLiteral("rejected")}));
    properties.insert(QStringLiteral("code"), Schema::string(QStringLiteral("ran, edited: the text that ran")));
    properties.insert(QStringLiteral("reason"), Schema::nullableString(QStringLiteral("rejected: the person's reason, null when they gave none")));
    return properties;
}

ToolResult outcomeResult(const StagingOutcome &outcome)
{
    using Kind = StagingOutcome::Kind;
    switch (outcome.kind) {
    case Kind::Ran:
    case Kind::Edited: {
        ToolResult evaluation = EvalFormatter::result(outcome.job->result);
        const bool edited = outcome.kind == Kind::Edited;
        evaluation.text = edited ? QStringLiteral("edited: the person changed the form, then ran it:\n%1\n\n%2").arg(outcome.code, evaluation.text)
                                 : QStringLiteral("ran: the person ran the form as staged.\n\n%1").arg(evaluation.text);
        evaluation.structured.insert(QStringLiteral("outcome"), edited ? QStringLiteral("edited") : QStringLiteral("ran"));
        evaluation.structured.insert(QStringLiteral("code"), outcome.code);
        return evaluation;
    }
    case Kind::Rejected: {
        const QString reason = outcome.reason.trimmed();
        return ToolResult{reason.isEmpty() ? QStringLiteral("rejected: the person rejected the form without giving a reason. It did not run.")
                                           : QStringLiteral("rejected: the person rejected the form: %1. It did not run.").arg(quoted(reason)),
                          {{QStringLiteral("outcome"), QStringLiteral("rejected")},
                           {QStringLiteral("reason"), reason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(reason)}},
                          false};
    }
    case Kind::Dropped:
        break;
    }
    return ToolResult::error(outcome.reason);
}
} // namespace

QString stageFormUnavailable()
{
    return QStringLiteral("stage-form needs a person at the Lisp Duet window, and this Lisp Duet runs without one (headless), so "
                          "nothing was staged. Run the code with evaluate-lisp instead, or ask the person to start the Lisp Duet "
                          "window and connect to it.");
}

Tool stageFormTool(FormStaging *staging)
{
    ToolSpec spec{
        .name = QStringLiteral("stage-form"),
        .title = QStringLiteral("Stage a form for the person"),
        .description = QStringLiteral(
            "Put code in the person's REPL input with your name and description, for them to run, edit or reject; returns ran "
            "(the result), edited (what ran, its result) or rejected (their reason). Needs the window."),
        .arguments = {Code, Package, Description},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("outcome")},
        .hints = Hints::Destructive,
        .personDecides = true,
    };
    return Tool(spec, [staging](const ToolCallPtr &call, const ToolArguments &arguments) {
        FormStager *stager = staging ? staging->stager() : nullptr;
        const QString unavailable = stager ? stager->unavailableReason() : stageFormUnavailable();
        if (!unavailable.isEmpty()) {
            call->finish(ToolResult::error(unavailable));
            return;
        }
        StagedForm form{call->serial(), arguments.text(Code), arguments.text(Package), arguments.text(Description), call->origin()};
        QPointer<FormStager> guard(stager);
        QObject::connect(call.data(), &ToolCall::cancelled, stager, [guard, id = form.id] {
            if (guard)
                guard->withdraw(id);
        });
        if (call->wantsProgress()) {
            auto timer = new QTimer(stager);
            QObject::connect(timer, &QTimer::timeout, timer, [call, timer] {
                if (call->isFinished() || call->isCancelled()) {
                    timer->deleteLater();
                    return;
                }
                call->reportProgress(0, QStringLiteral("Waiting for the person: the form is in their REPL input"));
            });
            timer->start(ProgressEveryMs);
        }
        call->trace()->awaitPerson(RequestTrace::Waiting::ForThePerson); // the Tool calls panel says so
        stager->stage(form, [call](const StagingOutcome &outcome) {
            call->trace()->personDecided();
            call->finish(outcomeResult(outcome));
        });
    });
}

#include "Tools.h"

#include "JobHandles.h"

#include "client/EngineProtocol.h"
#include "DebuggerFormatter.h"
#include "EvalFormatter.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"
#include "ToolKit.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace {
const auto DebuggerId = Arg::integer(QStringLiteral("debugger_id"), QStringLiteral("From the [Debugger] block or list-debuggers"), 1, 2147483647)
                            .required(QStringLiteral("the debugger's id"));
const auto Restart = Arg::string(QStringLiteral("restart"), QStringLiteral("Its number or name, e.g. 0 or \"USE-VALUE\""))
                         .required(QStringLiteral("the restart's number or name"))
                         .notBlank(QStringLiteral("is empty; give the restart's number or name"))
                         .acceptingNumbers();
const auto Values = Arg::strings(QStringLiteral("arguments"),
                                 QStringLiteral("Values for USE-VALUE, STORE-VALUE as Lisp text: [\"42\"]"),
                                 20);
const auto Description = Arg::string(QStringLiteral("description"), QStringLiteral("Why: the person sees it"));

QJsonObject outputProperties()
{
    using namespace Schema;
    QJsonObject properties = EvalFormatter::outputProperties(); // the outcome, as the tool that started the job gives it
    properties.insert(QStringLiteral("choice"),
                      object({{QStringLiteral("debugger_id"), integer(QStringLiteral("The debugger answered"), 1, 2147483647)},
                              {QStringLiteral("by"), string(QStringLiteral("Who chose: you, or who came first"))},
                              {QStringLiteral("restart"), string(QStringLiteral("The restart chosen (empty when code left the level itself)"))},
                              {QStringLiteral("arguments"), stringArray(QStringLiteral("The values given to it"))},
                              {QStringLiteral("at"), string(QStringLiteral("When (ISO 8601)"))},
                              {QStringLiteral("yours"), boolean(QStringLiteral("False when somebody else answered first and your choice was not used"))}},
                             {QStringLiteral("debugger_id"), QStringLiteral("yours")}, false));
    return properties;
}

QJsonValue designator(const QString &text)
{
    static const QRegularExpression digits(QStringLiteral("^\\s*\\d+\\s*$"));
    return digits.match(text).hasMatch() ? QJsonValue(text.trimmed().toInt()) : QJsonValue(text.trimmed());
}

QString choiceText(const QString &restart, const QStringList &values)
{
    return values.isEmpty() ? restart : QStringLiteral("%1 (%2)").arg(restart, values.join(QStringLiteral(", ")));
}

// "choose USE-VALUE (42) in debugger 3, continuing the person's evaluation: (total 10000)"
QString intent(const Session *session, const QJsonObject &arguments)
{
    const QJsonValue restartValue = arguments.value(QStringLiteral("restart"));
    const QString restart = restartValue.isDouble() ? QString::number(restartValue.toInt()) : restartValue.toString().trimmed().toUpper();
    QStringList values;
    for (const QJsonValue &value : arguments.value(QStringLiteral("arguments")).toArray())
        values << value.toString();
    const int id = arguments.value(QStringLiteral("debugger_id")).toInt();
    QString text = QStringLiteral("choose restart %1 in debugger %2").arg(choiceText(restart, values)).arg(id);
    const DebuggerPtr debugger = session->debugger()->debugger(id);
    if (!debugger)
        return text;
    if (const DebuggerRestart *chosen = debugger->restart(designator(restartValue.isDouble() ? restart : restartValue.toString())))
        text = QStringLiteral("choose restart %1 (%2) in debugger %3").arg(choiceText(chosen->name, values), chosen->description).arg(id);
    const QString owner = debugger->owner.isPerson() ? QStringLiteral("your") : debugger->owner.possessive();
    QString code = debugger->code.simplified();
    if (code.size() > 200)
        code = code.left(200) + QStringLiteral("\u2026");
    return text + QStringLiteral(", continuing %1 evaluation %2").arg(owner, code);
}

// The job's outcome at its next point, as the tool that started it formats it, with a
// [Debugger] note that says who chose what.
// `yours`: this call's own invocation was the one that continued it.
ToolResult outcome(const Session *session, const JobHandles *jobs, const Job &job, const Debugger &answered, bool yours, const QString &yourChoice)
{
    ToolResult result = DebuggerFormatter::answer(job, jobs->formatterOf(job.id), session);
    const DebuggerChoice &choice = answered.choice;
    QString note = yours ? QStringLiteral("Debugger %1: you chose %2 at %3.").arg(answered.id).arg(choiceText(choice.restart, choice.arguments),
                                                                                                 choice.at.toString(QStringLiteral("HH:mm:ss")))
                         : QStringLiteral("Debugger %1 was already answered: %2.%3")
                               .arg(answered.id)
                               .arg(answered.outcomeSentence(),
                                    yourChoice.isEmpty() ? QString() : QStringLiteral(" Your choice (%1) was not used.").arg(yourChoice));
    if (job.state == Job::State::Parked && job.debugger && job.debugger->id == answered.id && answered.isOpen())
        note = QStringLiteral("Debugger %1: %2 (a restart whose function does not transfer control). The evaluation still "
                              "waits there:").arg(answered.id).arg(answered.notice);
    else if (job.state == Job::State::Done)
        note += QStringLiteral(" The evaluation is over: its outcome is above.");
    else if (job.state == Job::State::Parked)
        note += QStringLiteral(" The evaluation parked again, in debugger %1:").arg(job.debugger->id);
    else
        note += QStringLiteral(" The evaluation is still running.");
    if (job.state == Job::State::Parked && !result.moreText.isEmpty())
        result.moreText.first().replace(0, QStringLiteral("[Debugger]").size(), QStringLiteral("[Debugger]\n") + note);
    else
        result.moreText.prepend(QStringLiteral("[Debugger]\n") + note);
    result.structured.insert(QStringLiteral("choice"),
                             QJsonObject{{QStringLiteral("debugger_id"), answered.id},
                                         {QStringLiteral("by"), yours ? QStringLiteral("you") : choice.by.name},
                                         {QStringLiteral("restart"), choice.restart},
                                         {QStringLiteral("arguments"), QJsonArray::fromStringList(choice.arguments)},
                                         {QStringLiteral("at"), choice.at.toString(Qt::ISODateWithMs)},
                                         {QStringLiteral("yours"), yours}});
    return result;
}

ToolResult refused(const QString &type, const QString &message, int debuggerId, const DebuggerPtr &open)
{
    QJsonObject structured{{QStringLiteral("status"), QStringLiteral("failed")},
                           {QStringLiteral("values"), QJsonArray()},
                           {QStringLiteral("package"), open ? open->package : QString()},
                           {QStringLiteral("error"), QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("message"), message}}},
                           {QStringLiteral("choice"), QJsonObject{{QStringLiteral("debugger_id"), debuggerId}, {QStringLiteral("yours"), false}}}};
    QString text = QStringLiteral("[ERROR] %1\n%2").arg(type, message);
    if (open && open->isOpen()) {
        structured.insert(QStringLiteral("debugger"), DebuggerFormatter::json(*open));
        text += QStringLiteral("\nDebugger %1 stays open; its restarts: %2.").arg(open->id).arg(open->restartList());
    }
    return ToolResult::error(text, structured);
}

// Answers with the job's outcome at its next point (now, if it is parked again or over).
void answerAtNextPoint(Session *session, const JobHandles *jobs, const ToolCallPtr &call, const DebuggerPtr &answered, bool yours, const QString &yourChoice)
{
    auto called = QSharedPointer<bool>::create(false);
    session->whenAnswerable(answered->jobId, [session, jobs, call, answered, yours, yourChoice, called](JobPtr job) {
        *called = true;
        call->finish(outcome(session, jobs, *job, *answered, yours, yourChoice));
    });
    if (!*called && !session->job(answered->jobId)) // over, and no longer in the transcript
        call->finish(refused(QStringLiteral("DEBUGGER-CLOSED"),
                             QStringLiteral("Debugger %1 was already answered: %2.").arg(answered->id).arg(answered->outcomeSentence()),
                             answered->id, {}));
}
} // namespace

Tool invokeRestartTool(Session *session, JobHandles *jobs)
{
    ToolSpec spec{
        .name = QStringLiteral("invoke-restart"),
        .title = QStringLiteral("Invoke a restart"),
        .description = QStringLiteral(
            "Continue a parked evaluation with one of its restarts, then return its outcome as its own tool would (or its "
            "next parking). RETRY evaluates the failed form again; ABORT ends it with its error. Says who chose first, if "
            "somebody did."),
        .arguments = {DebuggerId, Restart, Values, Description},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("status")},
        .hints = Hints::Destructive,
        // For the person approving it in Ask mode: the choice and the evaluation it continues.
        .intent = [session](const QJsonObject &arguments) { return intent(session, arguments); },
    };
    return Tool(spec, [session, jobs](const ToolCallPtr &call, const ToolArguments &arguments) {
        const int debuggerId = arguments.value(DebuggerId, 0);
        const QJsonValue restart = designator(arguments.text(Restart));
        const QStringList values = arguments.value(Values, QStringList());
        const QString yourChoice = choiceText(arguments.text(Restart).trimmed().toUpper(), values);
        const DebuggerPtr debugger = session->debugger()->debugger(debuggerId);
        if (!debugger) {
            call->finish(refused(QStringLiteral("NO-SUCH-DEBUGGER"),
                                 QStringLiteral("There is no debugger %1: list-debuggers shows the open ones.").arg(debuggerId), debuggerId, {}));
            return;
        }
        if (!debugger->isOpen()) {
            answerAtNextPoint(session, jobs, call, debugger, false, yourChoice);
            return;
        }
        QString refusal;
        const quint64 invocation = session->debugger()->invokeRestart(debuggerId, restart, values, call->origin(), &refusal, arguments.text(Description));
        if (!invocation) {
            call->finish(refused(QStringLiteral("NO-SUCH-RESTART"), refusal, debuggerId, debugger));
            return;
        }
        QObject *context = new QObject(session); // the trace's connection, until the invocation is over
        ToolKit::traceJob(session, call, invocation, session->job(invocation), context);
        session->whenFinished(invocation, [session, jobs, call, debugger, yourChoice, context](JobPtr done) {
            context->deleteLater();
            if (done->result.error.type == QStringLiteral("DEBUGGER-CLOSED"))
                answerAtNextPoint(session, jobs, call, debugger, false, yourChoice);
            else if (!done->result.ok())
                call->finish(refused(done->result.error.type, done->result.error.message, debugger->id, debugger));
            else
                answerAtNextPoint(session, jobs, call, debugger, true, yourChoice);
        });
        // Cancelling the wait interrupts the continued evaluation, which parks again (a break).
        const Origin by = call->origin();
        const quint64 target = debugger->jobId;
        QObject::connect(call.data(), &ToolCall::cancelled, session, [session, target, by] {
            if (const JobPtr job = session->job(target); job && job->state == Job::State::Running)
                session->cancel(target, {}, by);
        });
    });
}

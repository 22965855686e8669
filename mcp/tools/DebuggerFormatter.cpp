#include "DebuggerFormatter.h"

#include "EvalFormatter.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"

#include <QJsonArray>

namespace {
QString stateName(Debugger::State state)
{
    switch (state) {
    case Debugger::State::Open: return QStringLiteral("open");
    case Debugger::State::Continued: return QStringLiteral("continued");
    case Debugger::State::Unwound: return QStringLiteral("unwound");
    case Debugger::State::Ended: return QStringLiteral("ended");
    }
    return {};
}

QString abandonNote(const Session *session)
{
    const int ms = session ? session->debugger()->abandonAfterMs() : 0;
    if (ms <= 0)
        return {};
    return ms % 60000 == 0 ? QStringLiteral(" Unanswered, it is aborted after %1 min.").arg(ms / 60000)
                           : QStringLiteral(" Unanswered, it is aborted after %1 s.").arg(ms / 1000.0);
}

} // namespace

namespace DebuggerFormatter {

QString block(const Debugger &d, const Session *session)
{
    QStringList lines{QStringLiteral("[Debugger]")};
    lines << QStringLiteral("%1 waits in debugger %2 (level %3) since %4, where it stopped; the session keeps serving meanwhile.")
                 .arg(d.isBreak ? QStringLiteral("The interrupted evaluation") : QStringLiteral("The evaluation"))
                 .arg(d.id).arg(d.level).arg(d.parkedAt.toString(QStringLiteral("HH:mm:ss")));
    lines << QStringLiteral("Restarts:");
    for (const DebuggerRestart &r : d.restarts)
        lines << QStringLiteral("  %1: [%2] %3").arg(r.index).arg(r.name, r.description);
    if (d.frames.isEmpty()) {
        lines << QStringLiteral("Frames: none recorded (ECL keeps frames only for interpreted code and the project's own compiled "
                                "code); debugger-eval without a frame evaluates in the parked thread's dynamic environment.");
    } else {
        QStringList withLocals;
        for (const DebuggerFrame &f : d.frames) {
            if (f.localsAvailable)
                withLocals << QString::number(f.index);
        }
        lines << QStringLiteral("Frames: 0 to %1, as in the [Backtrace]%2.")
                     .arg(d.frames.size() - 1)
                     .arg(withLocals.isEmpty() ? QStringLiteral("; none keeps its locals (native code)")
                                               : QStringLiteral("; locals kept in frame%1 %2").arg(withLocals.size() == 1 ? QString() : QStringLiteral("s"), withLocals.join(QStringLiteral(", "))));
    }
    lines << QStringLiteral("Go on with invoke-restart (debugger_id %1, restart: its number or name; arguments: Lisp values "
                            "for USE-VALUE or STORE-VALUE, e.g. [\"42\"]): it returns the evaluation's outcome. Look first "
                            "with debugger-frame, evaluate in a frame with debugger-eval, or fix things with evaluate-lisp "
                            "and choose RETRY. The person sees it in the Debugger panel and may choose; job with job_id %2 "
                            "waits for that choice and the outcome.%3")
                 .arg(d.id).arg(d.jobId).arg(abandonNote(session));
    return lines.join(QLatin1Char('\n'));
}

QJsonObject json(const Debugger &d)
{
    QJsonArray restarts;
    for (const DebuggerRestart &r : d.restarts)
        restarts.append(QJsonObject{{QStringLiteral("index"), r.index}, {QStringLiteral("name"), r.name},
                                    {QStringLiteral("description"), r.description}});
    QJsonArray frames;
    for (const DebuggerFrame &f : d.frames)
        frames.append(QJsonObject{{QStringLiteral("index"), f.index}, {QStringLiteral("text"), f.text},
                                  {QStringLiteral("locals_available"), f.localsAvailable}});
    QJsonObject json{{QStringLiteral("id"), d.id},
                     {QStringLiteral("level"), d.level},
                     {QStringLiteral("condition_type"), d.conditionType},
                     {QStringLiteral("message"), d.message},
                     {QStringLiteral("restarts"), restarts},
                     {QStringLiteral("frames"), frames},
                     {QStringLiteral("owner"), d.owner.name},
                     {QStringLiteral("code"), d.code},
                     {QStringLiteral("parked_at"), d.parkedAt.toString(Qt::ISODateWithMs)},
                     {QStringLiteral("break"), d.isBreak},
                     {QStringLiteral("state"), stateName(d.state)}};
    if (!d.isOpen())
        json.insert(QStringLiteral("outcome"), d.outcomeSentence());
    return json;
}

QJsonObject schema()
{
    using namespace Schema;
    return object({{QStringLiteral("id"), integer(QStringLiteral("The debugger_id for debugger-frame, debugger-eval and invoke-restart"), 1, 2147483647)},
                   {QStringLiteral("level"), integer(QStringLiteral("1 for the outermost; a level runs nested in the one below it"), 1, 10000)},
                   {QStringLiteral("condition_type"), string(QStringLiteral("The condition's type"))},
                   {QStringLiteral("message"), string(QStringLiteral("The condition's message"))},
                   {QStringLiteral("restarts"), objectArray(QStringLiteral("Its restarts, innermost first; RETRY and ABORT are the session's"),
                                                            {{QStringLiteral("index"), integer(QStringLiteral("Its number for invoke-restart"), 0, 10000)},
                                                             {QStringLiteral("name"), string(QStringLiteral("USE-VALUE, CONTINUE, RETRY, ABORT..."))},
                                                             {QStringLiteral("description"), string(QStringLiteral("The restart's report"))}},
                                                            {QStringLiteral("index"), QStringLiteral("name"), QStringLiteral("description")})},
                   {QStringLiteral("frames"), objectArray(QStringLiteral("The frames ECL kept (interpreted code, the project's code compiled for debugging), innermost first, as in the [Backtrace]"),
                                                          {{QStringLiteral("index"), integer(QStringLiteral("Its number for debugger-frame and debugger-eval"), 0, 10000)},
                                                           {QStringLiteral("text"), string(QStringLiteral("The call, printed"))},
                                                           {QStringLiteral("locals_available"), boolean(QStringLiteral("ECL keeps its locals"))}},
                                                          {QStringLiteral("index"), QStringLiteral("text")})},
                   {QStringLiteral("owner"), string(QStringLiteral("Whose evaluation it is"))},
                   {QStringLiteral("code"), string(QStringLiteral("The evaluation's code"))},
                   {QStringLiteral("parked_at"), string(QStringLiteral("When it parked (ISO 8601)"))},
                   {QStringLiteral("break"), boolean(QStringLiteral("An interrupt, not an error"))},
                   {QStringLiteral("state"), stringEnum(QStringLiteral("open, or how it closed"),
                                                        {QStringLiteral("open"), QStringLiteral("continued"), QStringLiteral("unwound"), QStringLiteral("ended")})},
                   {QStringLiteral("outcome"), string(QStringLiteral("Once closed: who chose what and when"))}},
                  {QStringLiteral("id"), QStringLiteral("level"), QStringLiteral("condition_type"), QStringLiteral("message"),
                   QStringLiteral("restarts"), QStringLiteral("frames")},
                  false);
}

ToolResult answer(const Job &job, const JobFormatter &formatter, const Session *session)
{
    ToolResult result = formatter(job);
    result.job = job.id;
    if (job.state != Job::State::Parked || !job.debugger)
        return result;
    result.structured.insert(QStringLiteral("job_id"), double(job.id));
    result.isError = true;
    result.ending = ToolResult::Ending::Parked;
    result.moreText.append(block(*job.debugger, session));
    result.structured.insert(QStringLiteral("status"), QStringLiteral("parked"));
    result.structured.insert(QStringLiteral("debugger"), json(*job.debugger));
    return result;
}

void addChoiceNote(ToolResult &result, const Job &job)
{
    const Debugger *d = job.debugger.data();
    if (job.state == Job::State::Parked || !d || d->isOpen() || !d->choice.isMade() || d->choice.by.clientKey == job.request.origin.clientKey)
        return;
    result.moreText.append(QStringLiteral("[Debugger]\nDebugger %1: %2.").arg(d->id).arg(d->outcomeSentence()));
}

} // namespace DebuggerFormatter

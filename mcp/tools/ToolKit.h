#pragma once

#include "client/EngineProtocol.h"
#include "session/Job.h"
#include "toolapi/Tool.h"

#include <QJsonObject>
#include <functional>

class JobHandles;
class Session;

// What the tools share: the two ways of serving a call with the engine, and the parts of
// their results that every job-based tool has.
namespace ToolKit {

using JobFormatter = std::function<ToolResult(const Job &job)>;
using ReplyFormatter = std::function<ToolResult(const QJsonObject &reply)>;

// Queues work that may run user code in the shared session (one at a time, time limits),
// streams the newest output line as progress about once a second, turns the client's
// cancellation into an interrupt, and finishes the call with the formatter's result. A job
// with debugging on (the request's `debug`, or the Session's defaults) finishes the call when
// it parks, with the [Debugger] block (DebuggerFormatter::answer), and `jobs` keeps the
// formatter for a later invoke-restart. With `waitMs` (>= 0), a job still queued or running
// then is answered with running() instead, and handed out in `jobs` with the formatter: the
// tool `job` gives its result later. The call is answered at the earliest of the three.
// `deliver`, when given, gets the result of a job that ended (not one parked or still going)
// in place of call->finish: a tool that waits for more than its job (load-system's
// until_native) finishes the call itself.
using Delivery = std::function<void(const ToolResult &result, const JobPtr &job)>;
void submit(Session *session, JobHandles *jobs, const ToolCallPtr &call, JobRequest request, JobFormatter formatter, int waitMs = -1,
            Delivery deliver = {});
// The same for a job already submitted (debugger-eval's, through Session::evaluateInFrame).
void follow(Session *session, JobHandles *jobs, const ToolCallPtr &call, quint64 id, JobFormatter formatter, int waitMs = -1,
            Delivery deliver = {});
// Tells the call's trace (the Tool calls panel) which job serves it and when that job starts;
// the connection lives as long as `context`. `job` is null when it is over already.
void traceJob(Session *session, const ToolCallPtr &call, quint64 id, const JobPtr &job, QObject *context);
// After a call answered before its job ended (handed off as a job, or parked in the debugger):
// tells its trace what becomes of the job (resumed, parked again, how it ended), so the
// window's row follows it to its end.
void traceUntilItEnds(Session *session, const RequestTracePtr &trace, quint64 id);

// wait_seconds, as evaluate-lisp, time-execution, load-system and run-tests declare it, and
// the wait in milliseconds a call asked for (DefaultWaitSeconds unless it said).
constexpr int DefaultWaitSeconds = 100; // below Claude Code's 120 s, after which it backgrounds a call
const Argument<double> &waitSecondsArgument();
int waitMsOf(const ToolArguments &arguments);
// `description`, the why of a call that changes the session or files: the person sees it in
// the transcript, the approval bar and the Tool calls panel.
const Argument<QString> &descriptionArgument();
// The answer for a job that goes on: "[RUNNING] job 7 ..." after its output so far, with when
// its time limit stops it, and {status: "running", job_id, elapsed_ms, tool, stdout, stderr,
// time_limit_ms}.
ToolResult running(const Job &job, const Session *session, const QString &tool);
// The fields running() adds, for the outputSchemas of the tools that may answer it.
QJsonObject runningProperties();
// A tool's output properties with those of running() added (status "running" among its values).
QJsonObject withRunningProperties(QJsonObject properties);
// Sends the newest line of the job's output, or its fresh progress message (a load's
// "compiling file 3 of 12: lists.lisp"), or how long it has run, as the call's progress about
// once a second while `context` lives.
void reportProgress(Session *session, const ToolCallPtr &call, const JobPtr &job, QObject *context);
// Asks a question that runs no user code: not queued, answered while an evaluation runs. An
// engine that cannot answer finishes the call with "[ERROR] ENGINE".
void ask(Session *session, const ToolCallPtr &call, const EngineProtocol::Query &query, ReplyFormatter formatter);

// The engine's status and error of a job, for structuredContent, and their output schema.
QJsonObject jobStatus(const JobResult &result);
QJsonObject jobStatusProperties();

// Where a definition is, for people: "src/shapes.lisp:12", relative to the session's project
// root when the file is inside it, else the absolute path; without ":line" when line is 0.
QString sourcePlace(const Session *session, const QString &file, int line);

// The seeds' "[ERROR] TYPE\nmessage" text (with any output before it), as an isError result.
ToolResult jobError(const Job &job, QJsonObject structured = {});

} // namespace ToolKit

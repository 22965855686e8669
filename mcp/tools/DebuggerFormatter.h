#pragma once

#include "session/Debugger.h"
#include "session/Job.h"
#include "toolapi/Tool.h"

#include <QJsonObject>
#include <functional>

class Session;

// What the debugger's tools say (issue 20): the [Debugger] block a parked call adds after seed
// 000's [ERROR] text, its twin structuredContent.debugger, and the outcome of a job after a
// choice, formatted by the tool that started the job.
namespace DebuggerFormatter {

using JobFormatter = std::function<ToolResult(const Job &job)>;

// "[Debugger]" and the lines that say where it waits, its restarts and how to go on.
QString block(const Debugger &debugger, const Session *session);
// {id, level, condition_type, message, restarts[{index, name, description}],
//  frames[{index, text, locals_available}], owner, code, parked_at, break, state, outcome?}
QJsonObject json(const Debugger &debugger);
QJsonObject schema(); // the property json() fills, for outputSchemas

// A job's result at its answerable point, as `formatter` formats it: when it is parked, the
// formatter's text of its error stays content[0] and the [Debugger] block and
// structuredContent.debugger (status "parked") come with it.
ToolResult answer(const Job &job, const JobFormatter &formatter, const Session *session);

// For an answer that reports a job somebody else continued from the debugger (the person, in
// the window): "[Debugger]\nDebugger 3: the person chose USE-VALUE (5000) at 10:42:03." The
// caller learns the outcome there, so it reads who chose what there too.
void addChoiceNote(ToolResult &result, const Job &job);

} // namespace DebuggerFormatter

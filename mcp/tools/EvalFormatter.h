#pragma once

#include "client/EngineProtocol.h"
#include "session/Job.h"
#include "Tool.h"

#include <QJsonObject>

// The text of seed 000 ([stdout], [stderr], [warnings], "=> value" lines, or "[ERROR] TYPE",
// message and [Backtrace]) and the structured twin that matches evaluate-lisp's outputSchema.
namespace EvalFormatter {

QString text(const JobResult &result);
StructuredContent structured(const JobResult &result);
// The properties of structured(), and those always present.
QJsonObject outputProperties();
QStringList outputRequired();
bool isErrorResult(const JobResult &result);
// The whole result of an evaluation: the text, structured() and isError.
ToolResult result(const JobResult &evaluation);

} // namespace EvalFormatter

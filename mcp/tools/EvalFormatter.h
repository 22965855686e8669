#pragma once

#include "Job.h"

#include <QJsonObject>

// The text of seed 000 ([stdout], [stderr], [warnings], "=> value" lines, or "[ERROR] TYPE",
// message and [Backtrace]) and the structured twin that matches evaluate-lisp's outputSchema.
namespace EvalFormatter {

QString text(const JobResult &result);
QJsonObject structured(const JobResult &result);
QJsonObject outputSchema();
bool isErrorResult(const JobResult &result);

} // namespace EvalFormatter

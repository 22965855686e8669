#pragma once

#include "Evaluation.h"

#include <QJsonObject>

// The text of seed 000 ([stdout], [stderr], [warnings], "=> value" lines, or "[ERROR] TYPE",
// message and [Backtrace]) and the structured twin that matches evaluate-lisp's outputSchema.
namespace EvalFormatter {

QString text(const EvalResult &result);
QJsonObject structured(const EvalResult &result);
QJsonObject outputSchema();
bool isErrorResult(const EvalResult &result);

} // namespace EvalFormatter

#pragma once

#include "client/EngineProtocol.h"
#include "session/Job.h"
#include "toolapi/Tool.h"

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

// The sections of every tool's text that reports a job, in one format. "[NAME]\nbody": the
// body keeps its inner layout and loses the blank lines before it and the white space after
// it; empty when nothing is left. With `maxChars`, a longer body keeps its end, after
// "[... N characters before]" (the end says where the work is).
QString section(const QString &name, QString body, qsizetype maxChars = -1);
// "[warnings] N" and the warnings, one a line; empty without warnings.
QString warningsSection(const QStringList &warnings);
// Appends `part` to `text` after a blank line, unless it is empty.
void appendSection(QString &text, const QString &part);

} // namespace EvalFormatter

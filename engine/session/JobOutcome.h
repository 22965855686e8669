#pragma once

#include "Job.h"

#include <QString>

// How a finished job's outcome reads, in one place for every view of it: the evaluate-lisp
// result, the activity digest, the transcript resource, the exported transcript and the
// console. Values are "=> VALUE" lines; a job without values says NoValues; a failure is
// "[ERROR] TYPE: message" ("[TIMED-OUT] message" and so on for what stopped it).
namespace JobOutcome {

inline constexpr QStringView NoValues = u"; No values";

// One "=> VALUE" line per value, or NoValues.
QString values(const QStringList &values);
// The first value on one line, at most `maxChars` of it (the digest's entries), or NoValues.
QString firstValueInOneLine(const QStringList &values, int maxChars);
// "[ERROR] TYPE: message" for an error the code signalled, "[STATUS] message" otherwise.
QString failure(const JobResult &result, int maxMessageChars = -1);
// values() when the job succeeded, failure() when not.
QString text(const JobResult &result);

} // namespace JobOutcome

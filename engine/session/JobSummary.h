#pragma once

#include "Job.h"

#include <QString>

// What a job did, in words, for every view of it: the console's transcript, the agents'
// activity digest, the running-job bar, the transcript resource and tool, the export and the
// journal. JobOutcome says how it ended; this says what it was.
namespace JobSummary {

// The protocol's word for its kind ("eval", "load-system", "debugger-frame"): the journal's
// "op" and the digest's "operation".
QString operation(const JobRequest &request);
// The operation as a view names it beside who ran what ("claude-code · load-system"): empty for
// an evaluation, whose code says what it is.
QString shownOperation(const JobRequest &request);
// What it works on: the code it reads, the system ("shapes", "shapes area-test" for one
// test), the restart's name, "frame 2 of debugger 3" for a look at a frame. The journal keeps
// it as "code".
QString subject(const JobRequest &request);
// What a debugger step did: "chose USE-VALUE (5000) in debugger 3", "in debugger 3, frame 2",
// "in debugger 3", "looked at frame 2 of debugger 3"; empty for every other job.
QString debuggerStep(const JobRequest &request);
// A debugger step as the line of its own a transcript shows above the code it evaluated. Under a
// header that names who did it (an agent's or an editor's entry) it is debuggerStep(), with a
// colon before code: "in debugger 3, frame 2:". The person's own entries have no header, so
// their step is told to them: "You chose ABORT in debugger 3", "In debugger 3, frame 2:".
// Empty for every other job.
QString debuggerLine(const JobRequest &request);
// The whole of it on one line of at most `maxChars`: an evaluation's code, "in debugger 3,
// frame 2: (* i 2)", "chose ABORT in debugger 3", "load-system shapes", "time (fib 20)".
QString action(const JobRequest &request, int maxChars);

} // namespace JobSummary

#pragma once

#include <QtGlobal>

// Where one evaluation's time goes in the app, for bench_stdio_roundtrip's end-to-end table:
// with LISP_DUET_STAGE_LOG=FILE in the environment (a path, not "1"), the app appends
// "lisp-duet stage: WHAT ID NANOSECONDS" lines to FILE, on CLOCK_MONOTONIC, the clock of the
// engine's own stage lines, which it writes into the same file. Marks: "received" (a request's
// bytes were read from the client), "sent" and "replied" (a job's line went to the engine, its
// reply came back), "answered" (the answer was written to the client). Off, a mark is one test.
namespace StageLog {

bool enabled();
qint64 now();
void mark(const char *what, qint64 id, qint64 at);
inline void mark(const char *what, qint64 id)
{
    if (enabled())
        mark(what, id, now());
}

} // namespace StageLog

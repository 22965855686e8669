#pragma once

#include <cstdint>

// Where the time of one request goes inside the engine, for bench_stdio_roundtrip: with
// LISP_DUET_STAGE_LOG=1 in its environment the engine writes one line per worker request
// to stderr, "lisp-duet-engine stages: ID" and the nanoseconds of each stage in order:
// route (parse and queue), hand-off (until the worker runs), request (to a plist, the job
// set up), evaluate, print, reply (the job closed, JSON written), write (into the pipe).
// Off, a mark is one test of a flag.
namespace StageClock {

enum Stage {
    LineRead,   // the reader thread has the whole line
    Routed,     // parsed and queued for its thread
    Taken,      // the worker woke up with it
    JobBegun,   // in Lisp, as a plist, the job set up (streams, handlers)
    Evaluated,  // the forms were read and evaluated
    Printed,    // the values were printed
    Serialized, // the reply is JSON text
    Written,    // the reply is in the pipe
    StageCount
};

bool enabled();
int64_t now();

// The marks of the request the calling thread works on; LineRead and Routed come with the
// request from the reader thread.
void begin(int64_t id, int64_t lineRead, int64_t routed);
void mark(Stage stage);
// After the reply is written: logs the line (if this thread has a request open) and closes it.
void finish();

} // namespace StageClock

#pragma once

#include <ecl/ecl.h>

// Output streams written in C: ECL string output streams whose write operations are
// replaced, so that output costs about what copying the characters costs (a Gray stream
// costs a generic function call per write, and its methods run as Lisp).
//
// Captures stand in for *standard-output* and *error-output* while a job runs. Text is kept in an 8 KiB buffer and sent to the host as an
// "output" event when the buffer is full or 50 ms have passed (checked per write of a
// string or a line, and on FORCE-OUTPUT); past the job's budget it is only counted.
//
// The budget is shared by a job's two streams: a Lisp (SIMPLE-ARRAY FIXNUM (2)) holding the
// characters still allowed and the characters dropped, so the count stays exact.
namespace OutputStreams {

// (%make-capture job-id stream-name budget)
cl_object makeCapture(cl_object jobId, cl_object streamName, cl_object budget);

// (%reuse-capture stream job-id): the same capture for the next job of its thread (whose
// budget the caller resets); what it holds is sent first, under the old id.
void reuseCapture(cl_object stream, cl_object jobId);

// (%flush-capture stream): sends what the buffer holds now.
void flushCapture(cl_object stream);

// (%make-limited-output limit): a string output stream that keeps at most LIMIT characters
// and then throws to the catch tag LISP-DUET.KERNEL::LIMITED-STRING-FULL, so that printing
// a value of 100 million characters never builds it first. GET-OUTPUT-STREAM-STRING reads it.
cl_object makeLimited(cl_index limit);

} // namespace OutputStreams

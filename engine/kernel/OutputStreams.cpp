#include "OutputStreams.h"

#include "InterruptsDisabled.h"
#include "JsonWriter.h"
#include "Protocol.h"
#include "ProtocolChannel.h"

#include <algorithm>
#include <ctime>
#include <mutex>
#include <string>

namespace OutputStreams {
namespace {

constexpr cl_index kChunkCharacters = 8192;
constexpr cl_index kFirstBufferCharacters = 256; // grown to a chunk only when output is large
constexpr cl_fixnum kChunkIntervalMs = 50;

// Slot layout: object0 is the buffer (an extended string with a fill pointer, as in ECL's
// own string output streams), object1 a simple vector #(budget job-id stream-name), int0
// the time of the last flush, column the output column (for FRESH-LINE and ~&).
enum StateSlot { Budget, JobId, StreamName };
enum BudgetSlot { Remaining, Dropped };

// ECL's operations for string output streams, with our writes in place; made once and
// shared by every stream of a kind.
struct StreamOps
{
    std::once_flag made;
    ecl_file_ops ops{};
};
StreamOps s_captureOps;
StreamOps s_limitedOps;
decltype(ecl_file_ops::close) s_eclClose = nullptr;

// ECL closes a stream by overwriting the operations in its table with "closed" ones: it gives
// every stream a copy of its own. Ours share one, so the stream being closed gets its own
// copy first, or closing one would close them all.
cl_object closeAlone(cl_object stream)
{
    auto *own = static_cast<ecl_file_ops *>(ecl_alloc_atomic(sizeof(ecl_file_ops)));
    *own = *stream->stream.ops;
    stream->stream.ops = own;
    return s_eclClose(stream);
}

// A string output stream on an extended string of CAPACITY characters, with TABLE's
// operations: what ECL's make-string-output-stream makes, without its private copy of the
// operations table (streams are made per job and per printed value: allocations count).
cl_object makeStream(cl_index capacity, StreamOps &table, decltype(ecl_file_ops::write_char) writeChar,
                     decltype(ecl_file_ops::write_vector) writeVector,
                     decltype(ecl_file_ops::force_output) forceOutput)
{
    std::call_once(table.made, [&] {
        table.ops = *ecl_make_string_output_stream(0, 1)->stream.ops;
        s_eclClose = table.ops.close;
        table.ops.close = closeAlone;
        table.ops.write_char = writeChar;
        table.ops.write_vector = writeVector;
        if (forceOutput)
            table.ops.force_output = table.ops.finish_output = forceOutput;
    });
    static const cl_object ucs4 = ecl_make_keyword("UCS-4");
    const cl_object stream = ecl_alloc_object(t_stream);
    stream->stream.ops = &table.ops;
    stream->stream.mode = short(ecl_smm_string_output);
    stream->stream.closed = 0;
    stream->stream.file.descriptor = -1;
    stream->stream.object0 = ecl_alloc_adjustable_extended_string(capacity);
    stream->stream.object1 = ECL_NIL;
    stream->stream.byte_stack = ECL_NIL;
    stream->stream.column = 0;
    stream->stream.int0 = stream->stream.int1 = 0;
    stream->stream.format = ucs4;
    stream->stream.flags = ECL_STREAM_UCS_4;
    stream->stream.byte_size = 32;
    stream->stream.buffer = nullptr;
    stream->stream.encoder = nullptr;
    stream->stream.decoder = nullptr;
    stream->stream.last_char = EOF;
    stream->stream.last_code[0] = stream->stream.last_code[1] = EOF;
    stream->stream.eof_char = EOF;
    return stream;
}

// Calls CAPTURE for the characters of DATA between START and END.
template<typename Capture>
void forCharacters(cl_object data, cl_index start, cl_index end, Capture capture)
{
    if (ECL_BASE_STRING_P(data)) {
        capture(data->base_string.self + start, end - start);
    } else if (ECL_EXTENDED_STRING_P(data)) {
        capture(data->string.self + start, end - start);
    } else { // a general vector of characters (WRITE-SEQUENCE)
        for (cl_index i = start; i < end; ++i) {
            const ecl_character c = ECL_CHAR_CODE(ecl_elt(data, i));
            capture(&c, 1);
        }
    }
}

template<typename Char>
void advanceColumn(cl_object stream, const Char *chars, cl_index count)
{
    cl_index column = stream->stream.column;
    for (cl_index i = 0; i < count; ++i)
        column = chars[i] == '\n' ? 0 : column + 1;
    stream->stream.column = column;
}

cl_fixnum coarseMilliseconds()
{
    // The coarse clock is a memory read (vDSO); 4 ms resolution is plenty for a 50 ms rule.
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    return cl_fixnum(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
}

cl_object buffer(cl_object stream)
{
    return stream->stream.object0;
}

cl_object state(cl_object stream, StateSlot slot)
{
    return stream->stream.object1->vector.self.t[slot];
}

cl_fixnum *budget(cl_object stream)
{
    return state(stream, Budget)->vector.self.fix;
}

void flushIfDue(cl_object stream)
{
    if (buffer(stream)->string.fillp > 0
        && coarseMilliseconds() - stream->stream.int0 >= kChunkIntervalMs)
        flushCapture(stream);
}

// Gives the buffer room: it starts small (most jobs print little) and grows to a chunk.
cl_object roomyBuffer(cl_object stream)
{
    const cl_object text = buffer(stream);
    if (text->string.fillp < text->string.dim || text->string.dim >= kChunkCharacters)
        return text;
    const cl_index size = std::min(std::max(text->string.dim * 4, kFirstBufferCharacters), kChunkCharacters);
    const cl_object larger = ecl_alloc_adjustable_extended_string(size);
    std::copy(text->string.self, text->string.self + text->string.fillp, larger->string.self);
    larger->string.fillp = text->string.fillp;
    stream->stream.object0 = larger;
    return larger;
}

// Keeps what fits in the budget, counts the rest as dropped; the budget is checked once per
// piece of text, the buffer filled with plain copies.
template<typename Char>
void capture(cl_object stream, const Char *chars, cl_index count)
{
    cl_fixnum *counts = budget(stream);
    const cl_index kept = std::min<cl_index>(count, cl_index(std::max<cl_fixnum>(0, counts[Remaining])));
    counts[Remaining] -= cl_fixnum(kept);
    counts[Dropped] += cl_fixnum(count - kept);

    advanceColumn(stream, chars, count);

    for (cl_index done = 0; done < kept;) {
        const cl_object text = roomyBuffer(stream);
        const cl_index take = std::min(kept - done, text->string.dim - text->string.fillp);
        ecl_character *to = text->string.self + text->string.fillp;
        for (cl_index i = 0; i < take; ++i)
            to[i] = ecl_character(chars[done + i]);
        text->string.fillp += take;
        done += take;
        if (text->string.fillp == kChunkCharacters)
            flushCapture(stream);
    }
}

ecl_character writeChar(cl_object stream, ecl_character c)
{
    capture(stream, &c, 1);
    if (c == '\n')
        flushIfDue(stream);
    return c;
}

cl_index writeVector(cl_object stream, cl_object data, cl_index start, cl_index end)
{
    if (start >= end)
        return start;
    forCharacters(data, start, end, [stream](const auto *chars, cl_index count) { capture(stream, chars, count); });
    flushIfDue(stream);
    return end;
}

// PRINT and the pretty printer force output after every call; sending each piece would
// flood the host, so forcing only flushes once the chunk interval has passed. The job flushes
// what remains when it ends.
void forceOutput(cl_object stream)
{
    flushIfDue(stream);
}

// Limited streams keep up to int0 characters, then throw.
template<typename Char>
void keepLimited(cl_object stream, const Char *chars, cl_index count)
{
    static const cl_object full = ecl_make_symbol("LIMITED-STRING-FULL", "LISP-DUET.KERNEL");
    const cl_object text = buffer(stream);
    const cl_index limit = cl_index(stream->stream.int0);
    const cl_index room = limit > text->string.fillp ? limit - text->string.fillp : 0;
    const cl_index kept = std::min(count, room);
    for (cl_index i = 0; i < kept; ++i)
        ecl_string_push_extend(text, ecl_character(chars[i]));
    advanceColumn(stream, chars, kept);
    if (kept < count) {
        // THROW passes on the current values: make them NIL, what CATCH must return.
        const cl_env_ptr env = ecl_process_env();
        env->values[0] = ECL_NIL;
        env->nvalues = 1;
        cl_throw(full);
    }
}

ecl_character writeCharLimited(cl_object stream, ecl_character c)
{
    keepLimited(stream, &c, 1);
    return c;
}

cl_index writeVectorLimited(cl_object stream, cl_object data, cl_index start, cl_index end)
{
    if (start < end)
        forCharacters(data, start, end, [stream](const auto *chars, cl_index count) { keepLimited(stream, chars, count); });
    return end;
}

} // namespace

cl_object makeLimited(cl_index limit)
{
    const cl_object stream = makeStream(32, s_limitedOps, writeCharLimited, writeVectorLimited, nullptr);
    stream->stream.int0 = cl_fixnum(std::min<cl_index>(limit, MOST_POSITIVE_FIXNUM));
    return stream;
}

cl_object makeCapture(cl_object jobId, cl_object streamName, cl_object budget)
{
    // No buffer until the job writes: most evaluations print nothing.
    const cl_object stream = makeStream(0, s_captureOps, writeChar, writeVector, forceOutput);
    const cl_object slots = ecl_alloc_simple_vector(3, ecl_aet_object);
    slots->vector.self.t[Budget] = budget;
    slots->vector.self.t[JobId] = jobId;
    slots->vector.self.t[StreamName] = streamName;
    stream->stream.object1 = slots;
    stream->stream.int0 = coarseMilliseconds();
    return stream;
}

void reuseCapture(cl_object stream, cl_object jobId)
{
    flushCapture(stream); // what a previous job's code wrote since, under that job's id
    stream->stream.object1->vector.self.t[JobId] = jobId;
    stream->stream.column = 0;
    stream->stream.int0 = coarseMilliseconds();
}

void flushCapture(cl_object stream)
{
    const cl_object text = buffer(stream);
    stream->stream.int0 = coarseMilliseconds();
    if (text->string.fillp == 0)
        return;
    {
        InterruptsDisabled guard; // nothing below allocates a Lisp object
        std::string line = Protocol::outputEventStart;
        JsonWriter::write(line, state(stream, JobId));
        line += Protocol::outputStream;
        JsonWriter::writeString(line, state(stream, StreamName));
        line += Protocol::outputText;
        JsonWriter::writeString(line, text);
        line += '}';
        ProtocolChannel::writeLine(line);
        text->string.fillp = 0; // before interrupts are back: an interrupt then must not resend it
    }
}

} // namespace OutputStreams

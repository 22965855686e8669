#include "HostFunctions.h"

#include <cstring>

#include "EditorSupport.h"
#include "InterruptsDisabled.h"
#include "JsonWriter.h"
#include "LibraryFunctions.h"
#include "Marshal.h"
#include "OutputStreams.h"
#include "Protocol.h"
#include "ProtocolChannel.h"
#include "RequestRouter.h"
#include "StageClock.h"

#include <ecl/ecl.h>
#include <sys/resource.h>
#include <cstdlib>
#include <ctime>
#include <string>
#include <unistd.h>

extern "C" void init_lisp_duet_kernel(cl_object);

namespace {

RequestRouter::Queue queueNamed(cl_object keyword)
{
    static const cl_object worker = ecl_make_keyword("WORKER");
    static const cl_object service = ecl_make_keyword("SERVICE");
    if (keyword == worker)
        return RequestRouter::Queue::Worker;
    if (keyword == service)
        return RequestRouter::Queue::Service;
    return RequestRouter::Queue::Supervisor;
}

// (%send reply): one line of JSON to the host. Called inside MP:WITHOUT-INTERRUPTS.
cl_object sendReply(cl_object reply)
{
    std::string json;
    json.reserve(512);
    JsonWriter::write(json, reply); // may call the Lisp printer for rare kinds of object
    StageClock::mark(StageClock::Serialized);
    {
        InterruptsDisabled guard; // no allocation inside: the write lock is never left held
        ProtocolChannel::writeLine(json);
    }
    if (StageClock::enabled()) {
        StageClock::mark(StageClock::Written);
        StageClock::finish();
    }
    ecl_return0(ecl_process_env());
}

// (%next-request queue): the next request for this thread as a plist, or :EOF. Called
// inside MP:WITHOUT-INTERRUPTS: an interrupt that arrives while the thread waits (a stray
// one for a job that just ended) is queued and runs when the thread is back in Lisp.
// The request each queue's thread was last handed, until it comes back for the next one. An
// interrupt queued while the thread waited can still run before the request reaches Lisp (in
// an allocation of the plist): a thread killed there (MP:PROCESS-KILL from an editor's thread
// list) took the request with it, and the question was never answered. The thread's cleanup
// takes it from here (%LOST-REQUEST) for the next thread. Each slot belongs to its queue's
// one thread: no lock.
std::optional<QJsonObject> &handedRequest(RequestRouter::Queue queue)
{
    static std::optional<QJsonObject> slots[3];
    return slots[int(queue)];
}

cl_object nextRequest(cl_object queue)
{
    handedRequest(queueNamed(queue)).reset(); // the one before was served
    const RequestRouter::Request request = RequestRouter::next(queueNamed(queue));
    handedRequest(queueNamed(queue)) = request.object;
    if (queueNamed(queue) == RequestRouter::Queue::Worker)
        StageClock::begin(request.object ? request.object->value(QLatin1String(Protocol::id)).toInteger(-1) : -1,
                          request.lineRead, request.routed);
    const cl_object result = request.object ? Marshal::toLisp(*request.object) : ecl_make_keyword("EOF");
    ecl_return1(ecl_process_env(), result);
}

// (%lost-request queue): the request this queue's thread was handed and may not have received
// (see handedRequest), as a plist, or NIL; called once, by the dying thread's cleanup, inside
// MP:WITHOUT-INTERRUPTS.
cl_object lostRequest(cl_object queue)
{
    std::optional<QJsonObject> &slot = handedRequest(queueNamed(queue));
    const std::optional<QJsonObject> lost = slot;
    slot.reset();
    ecl_return1(ecl_process_env(), lost ? Marshal::toLisp(*lost) : ECL_NIL);
}

// (%stage n): marks StageClock stage N (JOB-BEGUN, EVALUATED, PRINTED) of this request.
cl_object markStage(cl_object stage)
{
    if (ECL_FIXNUMP(stage) && ecl_fixnum(stage) > 0 && ecl_fixnum(stage) < StageClock::StageCount)
        StageClock::mark(StageClock::Stage(ecl_fixnum(stage)));
    ecl_return0(ecl_process_env());
}

// (%route-operation name thread): where the reader sends requests for the operation NAME.
cl_object routeOperation(cl_object name, cl_object thread)
{
    RequestRouter::route(Marshal::fromLispString(name).toUtf8(), queueNamed(thread));
    ecl_return0(ecl_process_env());
}

cl_object startReading()
{
    RequestRouter::start();
    ecl_return0(ecl_process_env());
}

cl_object makeCapture(cl_object jobId, cl_object streamName, cl_object budget)
{
    ecl_return1(ecl_process_env(), OutputStreams::makeCapture(jobId, streamName, budget));
}

cl_object reuseCapture(cl_object stream, cl_object jobId)
{
    OutputStreams::reuseCapture(stream, jobId);
    ecl_return0(ecl_process_env());
}

cl_object flushCapture(cl_object stream)
{
    OutputStreams::flushCapture(stream);
    ecl_return0(ecl_process_env());
}

cl_object makeLimitedOutput(cl_object limit)
{
    const cl_index characters = ECL_FIXNUMP(limit) && ecl_fixnum(limit) > 0 ? cl_index(ecl_fixnum(limit)) : 0;
    ecl_return1(ecl_process_env(), OutputStreams::makeLimited(characters));
}

cl_object monotonicMicroseconds()
{
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    ecl_return1(ecl_process_env(), ecl_make_integer(cl_fixnum(now.tv_sec) * 1000000 + now.tv_nsec / 1000));
}

// ECL's internal time units are milliseconds; timings want microseconds of this process.
cl_object runTimeMicroseconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const cl_fixnum us = cl_fixnum(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000
                         + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
    ecl_return1(ecl_process_env(), ecl_make_integer(us));
}

cl_object processId()
{
    ecl_return1(ecl_process_env(), ecl_make_integer(cl_fixnum(getpid())));
}

// Wall-clock milliseconds since the Unix epoch: when a definition became native, for the host.
cl_object wallClockMilliseconds()
{
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    ecl_return1(ecl_process_env(), ecl_make_integer(cl_fixnum(now.tv_sec) * 1000 + now.tv_nsec / 1000000));
}

// (%swap-function-cell symbol old new): stores NEW in SYMBOL's function cell if, and only if,
// it still holds OLD; T when it did. The background compiler swaps a natively compiled
// function in with it: a redefinition by the worker between the check and the store would
// otherwise be overwritten (SETF FDEFINITION is a check and a store). Allocates nothing.
cl_object swapFunctionCell(cl_object symbol, cl_object expected, cl_object replacement)
{
    bool swapped = false;
    {
        InterruptsDisabled guard;
        if (!Null(symbol) && ECL_SYMBOLP(symbol) && !Null(expected)) {
            cl_object seen = expected;
            swapped = __atomic_compare_exchange_n(&ECL_SYM_FUN(symbol), &seen, replacement, false,
                                                  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        }
    }
    ecl_return1(ecl_process_env(), swapped ? ECL_T : ECL_NIL);
}

// (%adopt-identity native name original): gives a natively compiled function the name and the
// source file record of the definition it replaces. ECL's COMPILE of a lambda leaves both
// empty: backtraces, DESCRIBE and the definitions' file and line read them. Allocates nothing.
cl_object adoptIdentity(cl_object native, cl_object name, cl_object original)
{
    {
        InterruptsDisabled guard;
        cl_object file = ECL_NIL;
        cl_object position = ECL_NIL;
        cl_object source = original;
        if (ecl_t_of(source) == t_bclosure)
            source = source->bclosure.code;
        if (ecl_t_of(source) == t_bytecodes) {
            file = source->bytecodes.file;
            position = source->bytecodes.file_position;
        }
        switch (ecl_t_of(native)) {
        case t_cfun:
            native->cfun.name = name;
            native->cfun.file = file;
            native->cfun.file_position = position;
            break;
        case t_cfunfixed:
            native->cfunfixed.name = name;
            native->cfunfixed.file = file;
            native->cfunfixed.file_position = position;
            break;
        default:
            break; // a closure has no name of its own; ours are never closures
        }
    }
    ecl_return0(ecl_process_env());
}

// (%forget-fault): ECL keeps the address of the last memory fault of a thread and, when the
// next fault is at the same address (a second (mem-ref (null-pointer)), minutes later),
// takes it for a fault inside the handling of the first and ends the thread. A job that
// begins is not inside any fault: the worker forgets it. Called inside MP:WITHOUT-INTERRUPTS
// and without InterruptsDisabled: while ECL's C-level flag is set, a pending interrupt makes
// the environment read-only, and this very write would then be taken for an error.
cl_object forgetFault()
{
    const cl_env_ptr env = ecl_process_env();
    env->fault_address = env; // what ECL starts a thread with: never a faulting address
    ecl_return0(env);
}

// (%scrub-stack): zeroes the stack below the caller (256 KiB). The Boehm collector scans
// stacks conservatively: a job's frames left pointers into what it read (an 18 MB form, its
// list of 2.4 million numbers) in stack slots the next jobs' frames never overwrite, and the
// person's (si:gc t) freed none of it. The worker calls this between jobs after a large
// request. Allocates nothing.
__attribute__((noinline)) void zeroBelow(int chunks)
{
    volatile char buffer[16384];
    std::memset(const_cast<char *>(buffer), 0, sizeof buffer);
    if (chunks > 1)
        zeroBelow(chunks - 1);
    __asm__ volatile("" : : "r"(buffer) : "memory"); // keeps the buffer and the call
}

cl_object scrubStack()
{
    {
        InterruptsDisabled guard;
        zeroBelow(16);
    }
    ecl_return0(ecl_process_env());
}

// (%make-private-directory prefix): a new directory PREFIXXXXXXX, mode 0700, made atomically
// (mkdtemp), or NIL. The background compiler writes C files there and loads the shared
// objects gcc makes: nobody else may plant files in it. Called inside MP:WITHOUT-INTERRUPTS
// (it allocates the answer).
cl_object makePrivateDirectory(cl_object prefix)
{
    std::string path = Marshal::fromLispString(prefix).toStdString() + "XXXXXX";
    const bool made = ::mkdtemp(path.data()) != nullptr;
    ecl_return1(ecl_process_env(), made ? ecl_make_simple_base_string(path.c_str(), cl_fixnum(path.size())) : ECL_NIL);
}

// Runs the top-level forms of the kernel's Lisp, compiled to native code at build time.
cl_object initKernel()
{
    ecl_init_module(nullptr, init_lisp_duet_kernel);
    ecl_return0(ecl_process_env());
}


} // namespace

namespace HostFunctions {

void define()
{
    defineFunction("%SEND", sendReply, 1);
    defineFunction("%NEXT-REQUEST", nextRequest, 1);
    defineFunction("%LOST-REQUEST", lostRequest, 1);
    defineFunction("%STAGE", markStage, 1);
    defineFunction("%ROUTE-OPERATION", routeOperation, 2);
    defineFunction("%START-READING", startReading, 0);
    defineFunction("%MAKE-CAPTURE", makeCapture, 3);
    defineFunction("%REUSE-CAPTURE", reuseCapture, 2);
    defineFunction("%FLUSH-CAPTURE", flushCapture, 1);
    defineFunction("%MAKE-LIMITED-OUTPUT", makeLimitedOutput, 1);
    defineFunction("%MONOTONIC-US", monotonicMicroseconds, 0);
    defineFunction("%RUN-TIME-US", runTimeMicroseconds, 0);
    defineFunction("%PROCESS-ID", processId, 0);
    defineFunction("%INIT-KERNEL", initKernel, 0);
    defineFunction("%WALL-CLOCK-MS", wallClockMilliseconds, 0);
    defineFunction("%SWAP-FUNCTION-CELL", swapFunctionCell, 3);
    defineFunction("%ADOPT-IDENTITY", adoptIdentity, 3);
    defineFunction("%MAKE-PRIVATE-DIRECTORY", makePrivateDirectory, 1);
    defineFunction("%FORGET-FAULT", forgetFault, 0);
    defineFunction("%SCRUB-STACK", scrubStack, 0);
    EditorSupport::define();
    LibraryFunctions::define();
}

} // namespace HostFunctions

#include "EclRuntime.h"

#include "HostFunctions.h"

#include <ecl/ecl.h>

#include <sys/mman.h>

#include <csignal>
#include <cstdio>
#include <cstring>

namespace {

struct sigaction s_eclSegvAction;

// An interrupt that arrives while C code has interrupts off (every allocation does) makes ECL
// write-protect the thread's environment; the write that turns them on again faults, and ECL
// 21.2.1's handler then runs the interrupt right there, even when Lisp has them off
// (MP:WITHOUT-INTERRUPTS, and ECL's own global environment lock around symbol lookups,
// SYSPROPs and (SETF name) definitions). An interrupt that throws from inside that lock kept
// it for ever: the next writer (every PROCLAIM, DEFUN, new symbol) waited for ever (issue 37).
// When Lisp has interrupts off, the fault only lifts the protection: the interrupt stays
// queued and runs where Lisp turns them on again (the end of WITHOUT-INTERRUPTS or of the
// lock checks the queue), as ECL does for one that arrives outside C's critical sections.
// Only reads and mprotect: safe in a signal handler.
bool deferredToLisp(cl_env_ptr env, const siginfo_t *info)
{
    const auto *address = static_cast<const volatile char *>(info->si_addr);
    const auto *flag = reinterpret_cast<const volatile char *>(&env->disable_interrupts);
    if (address < flag || address >= flag + sizeof env->disable_interrupts)
        return false;
    if (ECL_SYM_VAL(env, ECL_INTERRUPTS_ENABLED) != ECL_NIL)
        return false;
    return mprotect(env, sizeof *env, PROT_READ | PROT_WRITE) == 0;
}

// ECL's SIGSEGV handler implements interrupts and stack-overflow detection for Lisp threads,
// but silently ends a non-Lisp thread that faults: such a thread gets the default action.
void segvHandler(int signal, siginfo_t *info, void *context)
{
    const cl_env_ptr env = ecl_process_env_unsafe();
    if (env == nullptr) {
        ::signal(signal, SIG_DFL);
        ::raise(signal);
        return;
    }
    if (deferredToLisp(env, info))
        return;
    if (s_eclSegvAction.sa_flags & SA_SIGINFO)
        s_eclSegvAction.sa_sigaction(signal, info, context);
    else if (s_eclSegvAction.sa_handler != SIG_DFL && s_eclSegvAction.sa_handler != SIG_IGN)
        s_eclSegvAction.sa_handler(signal);
}

// Evaluates a form written in C (ASCII only) during boot, before the kernel's error handling
// exists; returns false if it signalled.
bool bootEval(const char *source)
{
    const cl_object failed = ecl_make_keyword("BOOT-FAILED");
    const cl_object result = si_safe_eval(3, c_string_to_object(source), ECL_NIL, failed);
    return result != failed;
}

} // namespace

void EclRuntime::configureBootOptions()
{
    // Ctrl-C must not open ECL's debugger on stdin, SIGPIPE must not kill the engine, and no
    // signal-handling thread competes with the supervisor. SIGSEGV stays trapped: interrupts
    // and stack-overflow detection rely on it.
    ecl_set_option(ECL_OPT_TRAP_SIGINT, 0);
    ecl_set_option(ECL_OPT_TRAP_SIGPIPE, 0);
    ecl_set_option(ECL_OPT_SIGNAL_HANDLING_THREAD, 0);
    ::signal(SIGPIPE, SIG_IGN);
}

void EclRuntime::chainSegvHandler()
{
    struct sigaction ours;
    std::memset(&ours, 0, sizeof ours);
    sigaction(SIGSEGV, nullptr, &s_eclSegvAction);
    ours.sa_sigaction = segvHandler;
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK | (s_eclSegvAction.sa_flags & SA_NODEFER);
    ours.sa_mask = s_eclSegvAction.sa_mask;
    sigaction(SIGSEGV, &ours, nullptr);
}

bool EclRuntime::initKernel()
{
    // The kernel's compiled top-level forms run inside a handler, so that a failure is
    // reported rather than opening ECL's debugger on stdin.
    const cl_object failed = ecl_make_keyword("KERNEL-FAILED");
    const cl_object outcome = si_safe_eval(3, c_string_to_object(
        "(handler-case (progn (lisp-duet.kernel::%init-kernel) nil)"
        "  (serious-condition (c)"
        "    (format *error-output* \"lisp-duet-engine: kernel failed to load: ~A: ~A~%\""
        "            (type-of c) (ignore-errors (princ-to-string c)))"
        "    :kernel-failed))"), ECL_NIL, failed);
    return outcome == ECL_NIL;
}

bool EclRuntime::boot(int argc, char **argv)
{
    configureBootOptions();
    cl_boot(argc, argv);
    chainSegvHandler();

    if (!bootEval("(defpackage \"LISP-DUET.KERNEL\" (:use \"CL\") (:nicknames \"DUET-KERNEL\"))")) {
        std::fprintf(stderr, "lisp-duet-engine: cannot create the kernel package\n");
        cl_shutdown();
        return false;
    }
    HostFunctions::define();
    return true;
}

int EclRuntime::run(int argc, char **argv)
{
    if (!boot(argc, argv))
        return 3;
    if (!initKernel()) {
        // The host sees the reason on the engine's stderr and in the missing "ready" event.
        cl_shutdown();
        return 4;
    }

    bootEval("(lisp-duet.kernel::run-supervisor)");
    cl_shutdown();
    return 0;
}

int EclRuntime::runLibraryCompiler(int argc, char **argv)
{
    if (!boot(argc, argv))
        return 3;
    if (!initKernel()) {
        cl_shutdown();
        return 4;
    }
    const cl_object failed = ecl_make_keyword("COMPILER-FAILED");
    const cl_object code = si_safe_eval(3, c_string_to_object("(lisp-duet.kernel::library-compiler-main)"), ECL_NIL, failed);
    const int exitCode = ECL_FIXNUMP(code) ? int(ecl_fixnum(code)) : 6;
    cl_shutdown();
    return exitCode;
}

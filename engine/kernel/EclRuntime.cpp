#include "EclRuntime.h"

#include "HostFunctions.h"
#include "Marshal.h"
#include "ProtocolChannel.h"

#include <ecl/ecl.h>
#include <QDirIterator>
#include <QFile>
#include <QStringList>

#include <csignal>
#include <cstdio>
#include <cstring>

namespace {

struct sigaction s_eclSegvAction;

// ECL's SIGSEGV handler implements interrupts and stack-overflow detection for Lisp threads,
// but silently ends a non-Lisp thread that faults: such a thread gets the default action.
void segvHandler(int signal, siginfo_t *info, void *context)
{
    if (ecl_process_env_unsafe() == nullptr) {
        ::signal(signal, SIG_DFL);
        ::raise(signal);
        return;
    }
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

bool EclRuntime::loadKernelSources(QString *error)
{
    // The files load in name order (00-package.lisp first); each is read as UTF-8 and handed
    // to Lisp as a string, never through ECL's Latin-1 C-string reader.
    QStringList files;
    QDirIterator it(QStringLiteral(":/lisp"), {QStringLiteral("*.lisp")}, QDir::Files);
    while (it.hasNext())
        files << it.next();
    files.sort();

    const cl_object loader = si_safe_eval(3, c_string_to_object(
        "(lambda (name text)"
        "  (handler-case"
        "      (let ((*package* (find-package \"CL-USER\")) (eof (gensym)))"
        "        (with-input-from-string (s text)"
        "          (loop for form = (read s nil eof) until (eq form eof) do (eval form)))"
        "        nil)"
        "    (serious-condition (c)"
        "      (format nil \"~A: ~A: ~A\" name (type-of c)"
        "              (ignore-errors (princ-to-string c))))))"), ECL_NIL, ECL_NIL);
    if (loader == ECL_NIL) {
        *error = QStringLiteral("could not build the kernel loader");
        return false;
    }
    for (const QString &path : files) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot open %1").arg(path);
            return false;
        }
        const QString text = QString::fromUtf8(file.readAll());
        const cl_object outcome = cl_funcall(3, loader, Marshal::toLispString(path),
                                             Marshal::toLispString(text));
        if (outcome != ECL_NIL) {
            *error = Marshal::fromLispString(outcome);
            return false;
        }
    }
    return true;
}

int EclRuntime::run(int argc, char **argv)
{
    configureBootOptions();
    cl_boot(argc, argv);
    chainSegvHandler();

    if (!bootEval("(defpackage \"LISP-DUET.KERNEL\" (:use \"CL\") (:nicknames \"DUET-KERNEL\"))")) {
        std::fprintf(stderr, "lisp-duet-engine: cannot create the kernel package\n");
        cl_shutdown();
        return 3;
    }
    HostFunctions::define();

    QString error;
    if (!loadKernelSources(&error)) {
        // The host sees this on the engine's stderr and in the missing "ready" event.
        std::fprintf(stderr, "lisp-duet-engine: kernel failed to load: %s\n", error.toLocal8Bit().constData());
        cl_shutdown();
        return 4;
    }

    bootEval("(lisp-duet.kernel::run-supervisor)");
    cl_shutdown();
    return 0;
}

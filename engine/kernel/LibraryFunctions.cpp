#include "LibraryFunctions.h"

#include "HostFunctions.h"
#include "InterruptsDisabled.h"
#include "Marshal.h"
#include "RequestRouter.h"

#include <QJsonObject>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace {

std::atomic<unsigned> s_publishCounter{0};

bool copyContents(const std::string &from, const std::string &to)
{
    const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return false;
    struct stat info{};
    const int out = ::fstat(in, &info) == 0 ? ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
    bool ok = out >= 0;
    char buffer[65536];
    while (ok) {
        const ssize_t n = ::read(in, buffer, sizeof buffer);
        if (n == 0)
            break;
        if (n < 0) {
            ok = errno == EINTR;
            continue;
        }
        for (ssize_t written = 0; ok && written < n;) {
            const ssize_t w = ::write(out, buffer + written, size_t(n - written));
            if (w < 0)
                ok = errno == EINTR;
            else
                written += w;
        }
    }
    if (ok) {
        // ASDF compares the dates of compiled files: the copy keeps the original's.
        const timespec times[2] = {info.st_atim, info.st_mtim};
        ok = ::futimens(out, times) == 0 && ::fsync(out) == 0;
    }
    if (out >= 0)
        ok = ::close(out) == 0 && ok;
    ::close(in);
    if (!ok)
        ::unlink(to.c_str());
    return ok;
}

// (%publish-file from to): makes TO the file FROM is, atomically: a hard link (or, across
// file systems, a copy with the same date) under a temporary name beside TO, then rename(2)
// over TO. A reader of TO sees the old file or the whole new one, never part of one; FROM
// stays. NIL when done, else the system's reason (a string). Called inside
// MP:WITHOUT-INTERRUPTS (it allocates the answer).
cl_object publishFile(cl_object fromName, cl_object toName)
{
    const std::string from = Marshal::fromLispString(fromName).toStdString();
    const std::string to = Marshal::fromLispString(toName).toStdString();
    const std::string temporary = to + ".lisp-duet-" + std::to_string(::getpid()) + "-"
                                  + std::to_string(s_publishCounter.fetch_add(1));
    int error = 0;
    if (::link(from.c_str(), temporary.c_str()) != 0) {
        error = errno;
        if ((error == EXDEV || error == EPERM || error == EMLINK) && copyContents(from, temporary))
            error = 0;
        else if (error == 0)
            error = errno ? errno : EIO;
    }
    if (error == 0 && ::rename(temporary.c_str(), to.c_str()) != 0) {
        error = errno;
        ::unlink(temporary.c_str());
    }
    if (error == 0)
        ecl_return1(ecl_process_env(), ECL_NIL);
    const std::string reason = std::strerror(error);
    ecl_return1(ecl_process_env(), ecl_make_simple_base_string(reason.c_str(), cl_fixnum(reason.size())));
}

cl_object processorCount()
{
    const unsigned count = std::thread::hardware_concurrency();
    ecl_return1(ecl_process_env(), ecl_make_fixnum(count ? cl_fixnum(count) : 1));
}

// (%post-worker-request op): queues {"op": OP} for the worker, as if the host had sent it,
// and wakes the worker if it waits for the pipe with posts expected. Allocates nothing Lisp.
cl_object postWorkerRequest(cl_object op)
{
    {
        InterruptsDisabled guard; // C++ work only: no interrupt may unwind through it
        RequestRouter::postForWorker(QJsonObject{{QStringLiteral("op"), Marshal::fromLispString(op)}});
    }
    ecl_return0(ecl_process_env());
}

// (%expect-worker-posts flag): while true, the idle worker reading the pipe also listens for
// posted requests (a poll(2) per request read; off, a plain read).
cl_object expectWorkerPosts(cl_object flag)
{
    {
        InterruptsDisabled guard;
        RequestRouter::expectPostsForWorker(!Null(flag));
    }
    ecl_return0(ecl_process_env());
}

} // namespace

namespace LibraryFunctions {

void define()
{
    HostFunctions::defineFunction("%PUBLISH-FILE", publishFile, 2);
    HostFunctions::defineFunction("%PROCESSOR-COUNT", processorCount, 0);
    HostFunctions::defineFunction("%POST-WORKER-REQUEST", postWorkerRequest, 1);
    HostFunctions::defineFunction("%EXPECT-WORKER-POSTS", expectWorkerPosts, 1);
}

} // namespace LibraryFunctions

#include "StageLog.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace StageLog {
namespace {
int logFile()
{
    static const int fd = [] {
        const char *path = std::getenv("LISP_DUET_STAGE_LOG");
        if (!path || !*path || std::strcmp(path, "1") == 0)
            return -1; // "1" is the engine's own switch: its stderr
        return ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    }();
    return fd;
}
} // namespace

bool enabled()
{
    return logFile() >= 0;
}

qint64 now()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return qint64(t.tv_sec) * 1000000000 + t.tv_nsec;
}

void mark(const char *what, qint64 id, qint64 at)
{
    if (!enabled())
        return;
    char line[128];
    const int n = std::snprintf(line, sizeof line, "lisp-duet stage: %s %lld %lld\n", what, static_cast<long long>(id),
                                static_cast<long long>(at));
    if (n > 0) // one write of one line: with O_APPEND, the engine's lines never cut into it
        [[maybe_unused]] const ssize_t written = ::write(logFile(), line, size_t(n));
}

} // namespace StageLog

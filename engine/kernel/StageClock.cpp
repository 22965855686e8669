#include "StageClock.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace StageClock {
namespace {

struct Marks
{
    bool open = false;
    int64_t id = -1;
    int64_t at[StageCount] = {};
};

thread_local Marks t_marks;

// LISP_DUET_STAGE_LOG=1: stderr; a path: appended to that file, where the app writes its own
// stage lines (engine/client/StageLog.h), so that one file tells the whole round trip.
FILE *logStream()
{
    static FILE *const stream = [] {
        const char *value = std::getenv("LISP_DUET_STAGE_LOG");
        if (!value || std::strcmp(value, "1") == 0)
            return stderr;
        FILE *file = std::fopen(value, "ae");
        return file ? file : stderr;
    }();
    return stream;
}

} // namespace

bool enabled()
{
    static const bool on = std::getenv("LISP_DUET_STAGE_LOG") != nullptr;
    return on;
}

int64_t now()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

void begin(int64_t id, int64_t lineRead, int64_t routed)
{
    if (!enabled())
        return;
    t_marks = Marks{};
    t_marks.open = true;
    t_marks.id = id;
    t_marks.at[LineRead] = lineRead;
    t_marks.at[Routed] = routed;
    t_marks.at[Taken] = now();
}

void mark(Stage stage)
{
    if (enabled() && t_marks.open)
        t_marks.at[stage] = now();
}

void finish()
{
    if (!enabled() || !t_marks.open)
        return;
    t_marks.open = false;
    // One line, written at once: the app appends its own lines to the same file.
    char line[512];
    int n = std::snprintf(line, sizeof line, "lisp-duet-engine stages: %lld", static_cast<long long>(t_marks.id));
    for (int stage = Routed; stage < StageCount; ++stage) {
        // A stage the request did not pass (no printing after an error) counts as zero.
        const int64_t to = t_marks.at[stage] ? t_marks.at[stage] : t_marks.at[stage - 1];
        if (!t_marks.at[stage])
            t_marks.at[stage] = to;
        n += std::snprintf(line + n, sizeof line - size_t(n), " %lld", static_cast<long long>(to - t_marks.at[stage - 1]));
    }
    // Then the line's arrival and the reply's departure on CLOCK_MONOTONIC, for the round trip.
    n += std::snprintf(line + n, sizeof line - size_t(n), " @ %lld %lld\n", static_cast<long long>(t_marks.at[LineRead]),
                       static_cast<long long>(t_marks.at[Written]));
    FILE *log = logStream();
    std::fwrite(line, 1, size_t(n), log);
    std::fflush(log);
}

} // namespace StageClock

#include "ProtocolChannel.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/uio.h>
#include <unistd.h>

int ProtocolChannel::s_in = -1;
int ProtocolChannel::s_out = -1;
std::mutex ProtocolChannel::s_writeMutex;
QByteArray ProtocolChannel::s_pending;
qsizetype ProtocolChannel::s_scanned = 0;

namespace {
// Descriptors the engine inherited beyond 0-2 (the Swank port's listening socket the host
// holds, issue 41) stay the engine's: no program the session's code runs gets them.
void keepInheritedDescriptorsPrivate()
{
    DIR *folder = opendir("/proc/self/fd");
    if (!folder)
        return;
    const int own = dirfd(folder);
    while (const dirent *entry = readdir(folder)) {
        char *end = nullptr;
        const long fd = std::strtol(entry->d_name, &end, 10);
        if (end != entry->d_name && *end == '\0' && fd > 2 && fd != own)
            fcntl(int(fd), F_SETFD, fcntl(int(fd), F_GETFD) | FD_CLOEXEC);
    }
    closedir(folder);
}
} // namespace

bool ProtocolChannel::takeOverStandardDescriptors()
{
    keepInheritedDescriptorsPrivate();
    s_in = fcntl(0, F_DUPFD_CLOEXEC, 10);
    s_out = fcntl(1, F_DUPFD_CLOEXEC, 10);
    if (s_in < 0 || s_out < 0)
        return false;
    const int devNull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devNull < 0 || dup2(devNull, 0) < 0 || dup2(2, 1) < 0)
        return false;
    close(devNull);
    return true;
}

ProtocolChannel::Read ProtocolChannel::readLine(QByteArray &line, int wakeFd)
{
    // Only the thread that owns the pipe reads, so the pending buffer needs no lock.
    for (;;) {
        const qsizetype newline = s_pending.indexOf('\n', s_scanned);
        if (newline >= 0) {
            line = s_pending.left(newline);
            s_pending.remove(0, newline + 1);
            s_scanned = 0;
            // One 18 MB request must not keep 18 MB (and more: the buffer grows by doubling)
            // for the rest of the engine's life.
            if (s_pending.capacity() > 16 * readChunk && s_pending.size() < s_pending.capacity() / 4)
                s_pending.squeeze();
            return Read::Line;
        }
        s_scanned = s_pending.size(); // a long line is searched once, not once per read
        if (wakeFd >= 0) {
            pollfd fds[2] = {{s_in, POLLIN, 0}, {wakeFd, POLLIN, 0}};
            if (::poll(fds, 2, -1) < 0)
                continue; // EINTR: a GC or interrupt signal
            if (fds[1].revents & POLLIN) {
                uint64_t count = 0;
                [[maybe_unused]] const ssize_t n = ::read(wakeFd, &count, sizeof count);
                return Read::Yielded;
            }
        }
        // Straight into the pending buffer. A read buffer on the stack would be 64 KiB of the
        // idle worker's stack that nothing overwrites: the collector scans all of it at every
        // collection, and stale pointers into the list of an 18 MB form were found there
        // after the person's (si:gc t) had not freed it.
        const qsizetype had = s_pending.size();
        s_pending.resize(had + readChunk);
        const ssize_t n = ::read(s_in, s_pending.data() + had, readChunk);
        const int error = errno;
        s_pending.resize(had + (n > 0 ? n : 0));
        if (n == 0)
            return Read::End;
        if (n < 0 && error != EINTR && error != EAGAIN)
            return Read::End;
    }
}

void ProtocolChannel::writeLine(std::string_view json)
{
    std::lock_guard<std::mutex> lock(s_writeMutex);
    iovec parts[2] = {{const_cast<char *>(json.data()), json.size()}, {const_cast<char *>("\n"), 1}};
    int count = 2;
    iovec *part = parts;
    while (count > 0) {
        const ssize_t n = ::writev(s_out, part, count);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return; // the host is gone; the next read will see end of input
        }
        size_t written = size_t(n);
        while (count > 0 && written >= part->iov_len) {
            written -= part->iov_len;
            ++part;
            --count;
        }
        if (count > 0) {
            part->iov_base = static_cast<char *>(part->iov_base) + written;
            part->iov_len -= written;
        }
    }
}

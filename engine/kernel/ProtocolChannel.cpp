#include "ProtocolChannel.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

int ProtocolChannel::s_in = -1;
int ProtocolChannel::s_out = -1;
std::mutex ProtocolChannel::s_writeMutex;
QByteArray ProtocolChannel::s_pending;

bool ProtocolChannel::takeOverStandardDescriptors()
{
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

bool ProtocolChannel::readLine(QByteArray &line)
{
    // Only the supervisor thread reads, so the pending buffer needs no lock.
    for (;;) {
        const qsizetype newline = s_pending.indexOf('\n');
        if (newline >= 0) {
            line = s_pending.left(newline);
            s_pending.remove(0, newline + 1);
            return true;
        }
        char buffer[65536];
        const ssize_t n = ::read(s_in, buffer, sizeof buffer);
        if (n > 0) {
            s_pending.append(buffer, n);
        } else if (n == 0) {
            return false;
        } else if (errno != EINTR && errno != EAGAIN) {
            return false;
        }
    }
}

void ProtocolChannel::writeLine(const QByteArray &json)
{
    std::lock_guard<std::mutex> lock(s_writeMutex);
    QByteArray data = json;
    data.append('\n');
    const char *p = data.constData();
    qsizetype left = data.size();
    while (left > 0) {
        const ssize_t n = ::write(s_out, p, size_t(left));
        if (n > 0) {
            p += n;
            left -= n;
        } else if (n < 0 && errno != EINTR && errno != EAGAIN) {
            return; // the host is gone; the next read will see end of input
        }
    }
}

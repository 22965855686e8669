#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

// 1 when this program is built with AddressSanitizer, which holds freed memory in its quarantine
// (256 MB): the host's RSS says nothing about what it keeps then. g++ says so with
// __SANITIZE_ADDRESS__, clang (tests/sanitize.sh) with __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define DUET_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DUET_UNDER_ASAN 1
#endif
#endif
#ifndef DUET_UNDER_ASAN
#define DUET_UNDER_ASAN 0
#endif

// Resident set size of a process (this one when pid is 0) in KiB, from /proc; -1 if unknown.
// Tests and benchmarks use it to show that memory stays bounded.
inline qint64 residentKiB(qint64 pid = 0)
{
    QFile status(pid > 0 ? QStringLiteral("/proc/%1/status").arg(pid) : QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

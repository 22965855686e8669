#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

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
